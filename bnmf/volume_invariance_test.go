package bnmf

import (
	"math"
	"math/rand/v2"
	"testing"
)

// volumeTarget is the fixed part of the invariance test: a fully observed
// 4 x 6 matrix, Z (6 x 2, stored transposed) and sigma^2, and the
// Gaussian of each row of W under a flat prior, N(m_i, C) with
// C = sigma^2 (Z^T Z)^-1 and m_i = C Z^T a_i / sigma^2, with chol the
// lower Cholesky factor of C.
type volumeTarget struct {
	data   *Matrix
	zt     []float64
	sigma2 float64
	mean   [][2]float64
	chol   [3]float64 // l00, l10, l11
}

const volumeRows, volumeCols = 4, 6

func newVolumeTarget(t *testing.T) *volumeTarget {
	t.Helper()
	zt := []float64{1.0, 0.2, 0.4, 0.9, 0.8, 0.5, 0.3, 1.1, 0.7, 0.6, 1.2, 0.1}
	wTrue := []float64{0.9, 0.3, 0.2, 1.0, 0.7, 0.6, 1.1, 0.1}
	rng := rand.New(rand.NewPCG(3, 4))
	var entries []Entry
	for i := range volumeRows {
		for j := range volumeCols {
			v := wTrue[2*i]*zt[2*j] + wTrue[2*i+1]*zt[2*j+1] + 0.5*rng.NormFloat64()
			entries = append(entries, Entry{Row: i, Col: j, Value: v})
		}
	}
	data, err := NewMatrix(volumeRows, volumeCols, entries)
	if err != nil {
		t.Fatal(err)
	}
	vt := &volumeTarget{data: data, zt: zt, sigma2: 0.5}
	var g00, g01, g11 float64
	for j := range volumeCols {
		g00 += zt[2*j] * zt[2*j]
		g01 += zt[2*j] * zt[2*j+1]
		g11 += zt[2*j+1] * zt[2*j+1]
	}
	det := g00*g11 - g01*g01
	c00, c01, c11 := vt.sigma2*g11/det, -vt.sigma2*g01/det, vt.sigma2*g00/det
	for i := range volumeRows {
		var b0, b1 float64
		for j := range volumeCols {
			a := entries[i*volumeCols+j].Value
			b0 += zt[2*j] * a / vt.sigma2
			b1 += zt[2*j+1] * a / vt.sigma2
		}
		vt.mean = append(vt.mean, [2]float64{c00*b0 + c01*b1, c01*b0 + c11*b1})
	}
	l00 := math.Sqrt(c00)
	l10 := c01 / l00
	vt.chol = [3]float64{l00, l10, math.Sqrt(c11 - l10*l10)}
	return vt
}

// exact draws W from p(W | Z, sigma^2, A) ∝ prod_i N(w_i | m_i, C)
// exp(-gamma det(W^T W)) [1{W >= 0}] by rejection: the proposal is the
// product of Gaussians and the acceptance probability the rest, which is
// at most one since det(W^T W) >= 0.
func (vt *volumeTarget) exact(rng *rand.Rand, gamma float64, nonneg bool, w []float64) {
	for {
		ok := true
		for i, m := range vt.mean {
			n0, n1 := rng.NormFloat64(), rng.NormFloat64()
			w[2*i] = m[0] + vt.chol[0]*n0
			w[2*i+1] = m[1] + vt.chol[1]*n0 + vt.chol[2]*n1
			if nonneg && (w[2*i] < 0 || w[2*i+1] < 0) {
				ok = false
			}
		}
		if ok && rng.Float64() < math.Exp(-gamma*gram2Det(w)) {
			return
		}
	}
}

// volumeFuncs are the test functions of W: entries, a product and the
// bounded transform of the volume itself.
var volumeFuncs = []struct {
	name string
	f    func(w []float64) float64
}{
	{"W[0][0]", func(w []float64) float64 { return w[0] }},
	{"W[1][1]", func(w []float64) float64 { return w[3] }},
	{"W[3][0]", func(w []float64) float64 { return w[6] }},
	{"W[0][1]*W[2][0]", func(w []float64) float64 { return w[1] * w[4] }},
	{"det/(1+det)", func(w []float64) float64 { d := gram2Det(w); return d / (1 + d) }},
}

// gram2Det returns det(W^T W) for W with two columns, as
// |w_0|^2 |w_1|^2 - (w_0 . w_1)^2.
func gram2Det(w []float64) float64 {
	var a, b, c float64
	for i := 0; i < len(w); i += 2 {
		a += w[i] * w[i]
		b += w[i] * w[i+1]
		c += w[i+1] * w[i+1]
	}
	return a*c - b*b
}

// TestVolumeInvariance runs passes over W (the chain's own sweepInOrder,
// Z and sigma^2 fixed) from an exact draw of p(W | Z, sigma^2, A) and
// compares the means of volumeFuncs along the run (batch means) with
// their means over independent exact draws. A correct pass leaves the
// target invariant; upstream's conditional, that of Gamma/2, must be
// rejected. At |z| < gewekeZLimit for 5 functions a correct sampler fails
// with probability about 3e-5 per model.
func TestVolumeInvariance(t *testing.T) {
	const gamma = 0.3
	// Sizes: the mutants' largest |z| is about 140 at full size and 30
	// under -short.
	nExact, nPasses := 100000, 200000
	if testing.Short() {
		nExact, nPasses = 20000, 40000
	}
	const batches = 50
	vt := newVolumeTarget(t)
	cases := []struct {
		name   string
		model  Model
		nonneg bool
		mutant bool
	}{
		{"GVG", GVG{Gamma: gamma}, false, false},
		{"GVnG", GVnG{Gamma: gamma}, true, false},
		{"GVG/upstream-half-gamma", GVG{Gamma: gamma / 2}, false, true},
		{"GVnG/upstream-half-gamma", GVnG{Gamma: gamma / 2}, true, true},
	}
	for ci, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(700+ci), 1))
			w := make([]float64, 2*volumeRows)
			nf := len(volumeFuncs)
			sum, sum2 := make([]float64, nf), make([]float64, nf)
			for range nExact {
				vt.exact(rng, gamma, tc.nonneg, w)
				for q, fn := range volumeFuncs {
					v := fn.f(w)
					sum[q] += v
					sum2[q] += v * v
				}
			}
			ch, err := tc.model.newChain(vt.data, 2)
			if err != nil {
				t.Fatal(err)
			}
			c := ch.(*gibbsChain)
			copy(c.zt, vt.zt)
			vt.exact(rng, gamma, tc.nonneg, c.w)
			c.sigma2, c.invSigma2 = vt.sigma2, 1/vt.sigma2
			p := newPool(1, uint64(800+ci), c.scratchSize())
			defer p.close()
			if err := c.recomputeResiduals(p, 0); err != nil {
				t.Fatal(err)
			}
			batch := nPasses / batches
			bsum := make([][]float64, nf)
			for q := range bsum {
				bsum[q] = make([]float64, batches)
			}
			for s := range batch * batches {
				if err := c.sweepInOrder(p, &c.sides[0], s+1, 0); err != nil {
					t.Fatal(err)
				}
				for q, fn := range volumeFuncs {
					bsum[q][s/batch] += fn.f(c.w)
				}
			}
			var maxZ float64
			for q, fn := range volumeFuncs {
				n := float64(nExact)
				em := sum[q] / n
				ese := math.Sqrt((sum2[q] - sum[q]*em) / (n - 1) / n)
				var bs, bs2 float64
				for _, v := range bsum[q] {
					m := v / float64(batch)
					bs += m
					bs2 += m * m
				}
				cm := bs / batches
				cse := math.Sqrt((bs2 - bs*cm) / (batches - 1) / batches)
				z := (cm - em) / math.Hypot(ese, cse)
				t.Logf("%-16s exact %.4f±%.4f chain %.4f±%.4f z=%+.2f", fn.name, em, ese, cm, cse, z)
				maxZ = max(maxZ, math.Abs(z))
				if !tc.mutant && !(math.Abs(z) < gewekeZLimit) {
					t.Errorf("%s: chain mean %.4f and exact mean %.4f differ by z = %.2f (limit %v)", fn.name, cm, em, z, gewekeZLimit)
				}
			}
			if tc.mutant && !(maxZ > gewekeMutantZ) {
				t.Errorf("upstream's conditional went undetected: largest |z| is %.2f, want > %v", maxZ, gewekeMutantZ)
			}
		})
	}
}
