package bnmf

var _ Model = GTTN{}

// GTTN is GTT with a per-entry hierarchical TN-scaled-normal-Gamma prior on
// each entry's (mu, tau) (Schmidt and Mohamed 2009; the paper's Appendix
// B.3): mu_mk ~ N(MuMu, 1/TauMu), tau_mk ~ Gamma(A, B) (shape, rate).
//
// The paper's TNSNG density carries a factor 1/sqrt(tau) that its own tau
// conditional, Gamma(A + 1/2, B + (w - mu)^2 / 2), ignores. This package
// implements the conditionals as stated; they are the exact conditionals of
// the joint N(w | mu, 1/tau) u(w) N(mu | MuMu, 1/TauMu) Gamma(tau | A, B),
// i.e. the TNSNG without the 1/sqrt(tau) factor.
type GTTN struct {
	// MuMu is the mean of the normal hyperprior on mu (default 0).
	MuMu float64
	// TauMu is the precision of the normal hyperprior on mu. Zero means 0.1.
	TauMu float64
	// A and B are the shape and rate of the Gamma hyperprior on tau. Zero
	// means 1.
	A, B float64
	Likelihood
}

// Name returns "GTTN".
func (GTTN) Name() string { return "GTTN" }

func gttnSpec() Spec {
	return Spec{
		Name: "GTTN", Zero: GTTN{}, Default: true,
		Doc:    "truncated-normal priors with a hierarchical TN-scaled-normal-Gamma hyperprior (Schmidt and Mohamed 2009)",
		Params: append(hierarchicalParams(), likelihoodParams()...),
	}
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
