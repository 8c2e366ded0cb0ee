package bnmf

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestVolumeRankOneOrder checks that rankOne's G^-1 u, summed four rows
// at a time, gives bit for bit the numbers of one row at a time in the
// order of b (which the committed GVG and GVnG records were made with):
// t, log det G and the updated G^-1 (which h enters through 1 + h), at every K from 1 to 13
// and at 50, where the rows fall into groups of four and a remainder.
func TestVolumeRankOneOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, k := range []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 50} {
		const rows = 60
		p := newVolumePrior(k, 1, true)
		p.x = make([]float64, rows*k)
		for i := range p.x {
			p.x[i] = rng.NormFloat64()
		}
		if err := p.beginPass(p.x); err != nil {
			t.Fatal(err)
		}
		u := make([]float64, k)
		for i := range u {
			u[i] = 0.3 * rng.NormFloat64()
		}
		// One row at a time, as before.
		want := make([]float64, k)
		var h float64
		for a := range k {
			var s float64
			for b, vb := range u {
				s += p.ginv[a*k+b] * vb
			}
			want[a] = s
			h += s * u[a]
		}
		wantLogdet := p.logdet + math.Log(1+h)
		wantInv := append([]float64(nil), p.ginv...)
		f := 1 / (1 + h)
		for a := range k {
			lineAxpy(wantInv[a*k:a*k+k], -(f * want[a]), want)
		}
		if !p.rankOne(u, 1) {
			t.Fatalf("K = %d: rank-one update refused", k)
		}
		for a := range k {
			if math.Float64bits(p.t[a]) != math.Float64bits(want[a]) {
				t.Fatalf("K = %d: t[%d] = %v, one row at a time %v", k, a, p.t[a], want[a])
			}
		}
		for q := range wantInv {
			if math.Float64bits(p.ginv[q]) != math.Float64bits(wantInv[q]) {
				t.Fatalf("K = %d: G^-1[%d] = %v, one row at a time %v", k, q, p.ginv[q], wantInv[q])
			}
		}
		if math.Float64bits(p.logdet) != math.Float64bits(wantLogdet) {
			t.Errorf("K = %d: log det %v, one row at a time %v", k, p.logdet, wantLogdet)
		}
	}
}
