package bnmf

var _ Model = GEG{}

// GEG is the semi-nonnegative model of Brouwer and Lio (2017): Gaussian
// likelihood, exponential priors on W and Gaussian priors on Z,
//
//	w_mk ~ Exp(Lambda) (rate), z_kn ~ N(0, 1/Lambda),
//
// with every entry drawn from its one-dimensional full conditional: a
// normal truncated to [0, inf) for W (as in GEE), an untruncated normal
// for Z. W is nonnegative; Z and the predictions may be negative.
// Upstream draws each column of Z as a block from its multivariate
// normal conditional; the chain here has the same stationary law.
type GEG struct {
	// Lambda is both the rate of the exponential prior on W and the
	// precision of the Gaussian prior on Z. Zero means 0.1.
	Lambda float64
	Likelihood
}

// Name returns "GEG".
func (GEG) Name() string { return "GEG" }

func gegSpec() Spec {
	return Spec{
		Name: "GEG", Zero: GEG{}, RealValued: true,
		Doc: "exponential priors on W, Gaussian priors on Z: semi-nonnegative (Brouwer and Lio 2017)",
		Params: append([]Param{
			{Key: "lambda", Field: "Lambda", Support: Positive, Default: "0.1", Doc: "rate of the exponential prior on W and precision of the Gaussian prior on Z"},
		}, likelihoodParams()...),
	}
}

func (g GEG) newChain(train *Matrix, k int) (chain, error) {
	lik, err := g.Likelihood.resolved("GEG")
	if err != nil {
		return nil, err
	}
	lambda := orDefault(g.Lambda, 0.1)
	if err := positive("GEG", "Lambda", lambda); err != nil {
		return nil, err
	}
	return newGibbsChain(train, k, lik, exponentialPrior{lambda: lambda}, gaussianPrior{lambda: lambda}), nil
}
