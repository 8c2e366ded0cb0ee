package bnmf

var _ Model = GEE{}

// GEE is the Gaussian likelihood with exponential priors on W and Z
// (Schmidt et al. 2009; the paper's Appendix B.1):
// w_mk ~ Exp(Lambda), z_kn ~ Exp(Lambda).
type GEE struct {
	// Lambda is the rate of the exponential priors. Zero means 0.1.
	Lambda float64
	Likelihood
}

// Name returns "GEE".
func (GEE) Name() string { return "GEE" }

func geeSpec() Spec {
	return Spec{
		Name: "GEE", Zero: GEE{}, Default: true,
		Doc: "exponential priors on W and Z (Schmidt et al. 2009)",
		Params: append([]Param{
			{Key: "lambda", Field: "Lambda", Support: Positive, Default: "0.1", Doc: "rate of the exponential priors"},
		}, likelihoodParams()...),
	}
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
