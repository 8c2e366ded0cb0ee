package bnmf

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestGGGWHyperUpstream checks GGGW's HyperUpstream: its Psi_n is the
// full conditional's plus n xbar xbar^T (the reference code's uncentred
// scatter), its mean mu_n is the same, and newChain refuses an unknown
// HyperDraw.
func TestGGGWHyperUpstream(t *testing.T) {
	const k, n = 3, 7
	rng := rand.New(rand.NewPCG(3, 5))
	x := make([]float64, n*k)
	for i := range x {
		x[i] = 2*rng.NormFloat64() + 1
	}
	exact, upstream := newNIWPrior(k, 0.5, 2, 4, 1.5), newNIWPrior(k, 0.5, 2, 4, 1.5)
	upstream.uncentred = true
	if a, b := exact.conditional(x), upstream.conditional(x); a != n || b != n {
		t.Fatalf("rows %d and %d, want %d", a, b, n)
	}
	xbar := make([]float64, k)
	for i := range n {
		for a := range k {
			xbar[a] += x[i*k+a] / n
		}
	}
	for a := range k {
		if exact.mean[a] != upstream.mean[a] {
			t.Errorf("mu_n[%d]: %v exact, %v upstream; want the same", a, exact.mean[a], upstream.mean[a])
		}
		for b := 0; b <= a; b++ {
			got := upstream.psi[a*k+b] - exact.psi[a*k+b]
			if want := n * xbar[a] * xbar[b]; math.Abs(got-want) > 1e-9*math.Max(1, math.Abs(want)) {
				t.Errorf("Psi_n[%d][%d]: upstream minus exact %v, want n xbar xbar^T = %v", a, b, got, want)
			}
		}
	}
	train, _, _, _ := plantedBiased(t, 12, 15, 2, 0.5, 11)
	if _, err := (GGGW{HyperDraw: HyperUpstream}).newChain(train, 2); err != nil {
		t.Errorf("HyperUpstream: %v", err)
	}
	if _, err := (GGGW{HyperDraw: 5}).newChain(train, 2); err == nil {
		t.Error("HyperDraw(5) was accepted")
	}
}
