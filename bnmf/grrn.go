package bnmf

import (
	"fmt"
	"math"
)

var _ Model = GRRN{}

// GRRN is the paper's model: Gaussian likelihood, rectified-normal priors
// w_mk ~ RN(mu_mk, 1/tau_mk, lambda_mk) = TN((tau mu - lambda)/tau, 1/tau)
// and a per-entry RN-scaled-normal-Gamma hyperprior on (mu, tau, lambda)
// (the paper's Section 3 and Appendix A): mu ~ N(MuMu, 1/TauMu),
// tau ~ Gamma(A, B), lambda ~ Gamma(AlphaLambda, BetaLambda), all Gamma
// densities shape and rate.
type GRRN struct {
	// MuMu is the mean of the normal hyperprior on mu (default 0).
	MuMu float64
	// TauMu is the precision of the normal hyperprior on mu. Zero means 0.1.
	TauMu float64
	// A and B are the shape and rate of the Gamma hyperprior on tau. Zero
	// means 1.
	A, B float64
	// AlphaLambda is the shape of the Gamma hyperprior on lambda. Zero
	// means 1.
	AlphaLambda float64
	// BetaLambda is the rate of the Gamma hyperprior on lambda. Zero means
	// sqrt(m0/K), with m0 the mean of the observed training entries and K
	// the rank (the paper's uninformative choice).
	BetaLambda float64
	Likelihood
}

// Name returns "GRRN".
func (GRRN) Name() string { return "GRRN" }

func grrnSpec() Spec {
	params := append(hierarchicalParams(),
		Param{Key: "alpha_lambda", Field: "AlphaLambda", Support: Positive, Default: "1", Doc: "shape of the Gamma hyperprior on lambda"},
		Param{Key: "beta_lambda", Field: "BetaLambda", Support: Positive, Default: "sqrt(m0/K)", Doc: "rate of the Gamma hyperprior on lambda"},
	)
	return Spec{
		Name: "GRRN", Zero: GRRN{}, Default: true,
		Doc:    "rectified-normal priors with a hierarchical RN-scaled-normal-Gamma hyperprior (Lu and Ye 2022)",
		Params: append(params, likelihoodParams()...),
	}
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
