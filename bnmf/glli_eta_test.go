package bnmf

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestGLLIEtaUpstream checks GLLI's EtaUpstream against the exact draw:
// from the same state and random stream, each entry's variance draw is
// the same, and upstream's eta_ik is the reciprocal of the exact one (the
// same inverse-Gaussian draw, not inverted); and that a GLLI with
// EtaUpstream and one with an invalid EtaDraw are told apart by newChain.
func TestGLLIEtaUpstream(t *testing.T) {
	const lines, k = 4, 3
	x := []float64{0.3, -1.2, 0.05, 2.1, -0.4, 0.9, 1.5, -0.01, 0.7, -2.2, 0.2, 0.6}
	var prec [2][]float64
	var etas [2][]float64
	for i, upstream := range []bool{false, true} {
		p := newLaplacePrior(lines, k, 0).withInverseGaussian(1.0/k, k)
		p.upstreamEta = upstream
		for e := range p.etas {
			p.etas[e] = 1 + 0.1*float64(e)
		}
		rng := rand.New(rand.NewPCG(7, 11))
		for line := range lines {
			if bad := p.updateLine(line, x[line*k:(line+1)*k], rng); bad >= 0 {
				t.Fatalf("line %d entry %d left its support", line, bad)
			}
		}
		prec[i], etas[i] = p.prec, p.etas
	}
	for e := range prec[0] {
		if prec[0][e] != prec[1][e] {
			t.Errorf("entry %d: precision %v exact, %v upstream; want the same draw", e, prec[0][e], prec[1][e])
		}
		if r := etas[0][e] * etas[1][e]; math.Abs(r-1) > 1e-12 {
			t.Errorf("entry %d: eta %v exact, %v upstream, product %v; want reciprocals", e, etas[0][e], etas[1][e], r)
		}
	}
	train, _, _, _ := plantedBiased(t, 12, 15, 2, 0.5, 11)
	if _, err := (GLLI{EtaDraw: EtaUpstream}).newChain(train, 2); err != nil {
		t.Errorf("EtaUpstream: %v", err)
	}
	if _, err := (GLLI{EtaDraw: 7}).newChain(train, 2); err == nil {
		t.Error("EtaDraw(7) was accepted")
	}
}
