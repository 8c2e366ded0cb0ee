package bnmf

import (
	"fmt"
	"math"
)

// Name returns "GEE".
func (GEE) Name() string { return "GEE" }

// Name returns "GTT".
func (GTT) Name() string { return "GTT" }

// Name returns "GTTN".
func (GTTN) Name() string { return "GTTN" }

// Name returns "GRRN".
func (GRRN) Name() string { return "GRRN" }

// Name returns "NMF".
func (NMF) Name() string { return "NMF" }

// resolved returns the likelihood with defaults filled in.
func (l Likelihood) resolved(model string) (Likelihood, error) {
	l.AlphaSigma = orDefault(l.AlphaSigma, 1)
	l.BetaSigma = orDefault(l.BetaSigma, 1)
	if err := positive(model, "AlphaSigma", l.AlphaSigma); err != nil {
		return l, err
	}
	return l, positive(model, "BetaSigma", l.BetaSigma)
}

func (g GEE) newChain(train *Matrix, k int) (chain, error) {
	lik, err := g.Likelihood.resolved("GEE")
	if err != nil {
		return nil, err
	}
	lambda := orDefault(g.Lambda, 0.1)
	if err := positive("GEE", "Lambda", lambda); err != nil {
		return nil, err
	}
	p := exponentialPrior{lambda: lambda}
	return newGibbsChain(train, k, lik, p, p), nil
}

func (g GTT) newChain(train *Matrix, k int) (chain, error) {
	lik, err := g.Likelihood.resolved("GTT")
	if err != nil {
		return nil, err
	}
	tau := orDefault(g.Tau, 0.1)
	if err := positive("GTT", "Tau", tau); err != nil {
		return nil, err
	}
	if !isFinite(g.Mu) {
		return nil, fmt.Errorf("bnmf: GTT.Mu is %v; it must be finite", g.Mu)
	}
	p := truncNormalPrior{mu: g.Mu, tau: tau}
	return newGibbsChain(train, k, lik, p, p), nil
}

// hyper holds the resolved hyperparameters shared by GTTN and GRRN.
type hyper struct{ muMu, tauMu, a, b float64 }

func resolveHyper(model string, muMu, tauMu, a, b float64) (hyper, error) {
	h := hyper{muMu: muMu, tauMu: orDefault(tauMu, 0.1), a: orDefault(a, 1), b: orDefault(b, 1)}
	if !isFinite(h.muMu) {
		return h, fmt.Errorf("bnmf: %s.MuMu is %v; it must be finite", model, muMu)
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"TauMu", h.tauMu}, {"A", h.a}, {"B", h.b}} {
		if err := positive(model, f.name, f.v); err != nil {
			return h, err
		}
	}
	return h, nil
}

func (g GTTN) newChain(train *Matrix, k int) (chain, error) {
	lik, err := g.Likelihood.resolved("GTTN")
	if err != nil {
		return nil, err
	}
	h, err := resolveHyper("GTTN", g.MuMu, g.TauMu, g.A, g.B)
	if err != nil {
		return nil, err
	}
	m, n := train.Dims()
	pw := newHierarchicalPrior(m, k, h.muMu, h.tauMu, h.a, h.b)
	pz := newHierarchicalPrior(n, k, h.muMu, h.tauMu, h.a, h.b)
	return newGibbsChain(train, k, lik, pw, pz), nil
}

func (g GRRN) newChain(train *Matrix, k int) (chain, error) {
	lik, err := g.Likelihood.resolved("GRRN")
	if err != nil {
		return nil, err
	}
	h, err := resolveHyper("GRRN", g.MuMu, g.TauMu, g.A, g.B)
	if err != nil {
		return nil, err
	}
	alpha := orDefault(g.AlphaLambda, 1)
	beta := g.BetaLambda
	if beta == 0 {
		m0 := train.Mean()
		if !(m0 > 0) {
			return nil, fmt.Errorf("bnmf: GRRN.BetaLambda defaults to sqrt(m0/K), but the mean m0 of the training entries is %v; set BetaLambda", m0)
		}
		beta = math.Sqrt(m0 / float64(k))
	}
	if err := positive("GRRN", "AlphaLambda", alpha); err != nil {
		return nil, err
	}
	if err := positive("GRRN", "BetaLambda", beta); err != nil {
		return nil, err
	}
	m, n := train.Dims()
	pw := newHierarchicalPrior(m, k, h.muMu, h.tauMu, h.a, h.b).withLambda(alpha, beta)
	pz := newHierarchicalPrior(n, k, h.muMu, h.tauMu, h.a, h.b).withLambda(alpha, beta)
	return newGibbsChain(train, k, lik, pw, pz), nil
}

func (g NMF) newChain(train *Matrix, k int) (chain, error) {
	switch g.Objective {
	case SquaredError, IDivergence:
	default:
		return nil, fmt.Errorf("bnmf: NMF.Objective %d is not SquaredError or IDivergence", int(g.Objective))
	}
	// Multiplicative updates keep factors nonnegative only for
	// nonnegative data.
	_, _, values := train.RowStorage()
	for i, v := range values {
		if v < 0 {
			e := train.EntryAt(i)
			return nil, fmt.Errorf("bnmf: NMF needs nonnegative data; entry (%d, %d) is %v", e.Row, e.Col, v)
		}
	}
	return newNMFChain(train, k, g.Objective), nil
}
