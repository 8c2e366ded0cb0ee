package bnmf

import "fmt"

var _ Model = GTT{}

// GTT is the Gaussian likelihood with truncated-normal priors on W and Z
// (Brouwer and Lio 2017; the paper's Appendix B.2):
// w_mk ~ TN(Mu, 1/Tau) on [0, inf).
type GTT struct {
	// Mu is the parent mean of the truncated-normal priors (default 0).
	Mu float64
	// Tau is the parent precision. Zero means 0.1.
	Tau float64
	Likelihood
}

// Name returns "GTT".
func (GTT) Name() string { return "GTT" }

func gttSpec() Spec {
	return Spec{
		Name: "GTT", Zero: GTT{}, Default: true,
		Doc: "truncated-normal priors on W and Z (Brouwer and Lio 2017)",
		Params: append([]Param{
			{Key: "mu", Field: "Mu", Support: Real, Default: "0", Doc: "parent mean of the truncated-normal priors"},
			{Key: "tau", Field: "Tau", Support: Positive, Default: "0.1", Doc: "parent precision of the truncated-normal priors"},
		}, likelihoodParams()...),
	}
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
