package bnmf

import (
	"math"
	"math/rand/v2"
)

var _ Model = GGGU{}

// GGGU is the Gaussian likelihood with independent Gaussian priors on
// every entry of W and Z (Brouwer and Lio 2017, whose univariate sampler
// it is):
//
//	w_mk ~ N(0, 1/Lambda), z_kn ~ N(0, 1/Lambda),
//
// with each entry drawn from its one-dimensional normal full conditional,
// precision Lambda + sum_n z_kn^2 / sigma^2 over the observed entries of
// its row. The factors are real: W, Z and the predictions may be
// negative. GGG is the same model with each row drawn as a block.
type GGGU struct {
	// Lambda is the precision of the Gaussian priors. Zero means 0.1.
	Lambda float64
	Likelihood
}

// Name returns "GGGU".
func (GGGU) Name() string { return "GGGU" }

func ggguSpec() Spec {
	return Spec{
		Name: "GGGU", Zero: GGGU{}, RealValued: true,
		Doc: "Gaussian priors on W and Z, entries drawn one at a time (Brouwer and Lio 2017)",
		Params: append([]Param{
			{Key: "lambda", Field: "Lambda", Support: Positive, Default: "0.1", Doc: "precision of the Gaussian priors"},
		}, likelihoodParams()...),
	}
}

func (g GGGU) newChain(train *Matrix, k int) (chain, error) {
	lik, err := g.Likelihood.resolved("GGGU")
	if err != nil {
		return nil, err
	}
	lambda := orDefault(g.Lambda, 0.1)
	if err := positive("GGGU", "Lambda", lambda); err != nil {
		return nil, err
	}
	p := gaussianPrior{lambda: lambda}
	return newGibbsChain(train, k, lik, p, p), nil
}

// gaussianPrior is the prior x ~ N(0, 1/lambda) on the real line (GGGU,
// and Z of GEG).
type gaussianPrior struct{ lambda float64 }

var _ realPrior = gaussianPrior{}

func (gaussianPrior) realValued() {}

func (p gaussianPrior) initLine(_ int, x []float64, rng *rand.Rand) int {
	sd := 1 / math.Sqrt(p.lambda)
	for k := range x {
		x[k] = sd * rng.NormFloat64()
	}
	return -1
}

func (p gaussianPrior) natural(int, int) (prec, lin float64) { return p.lambda, 0 }

func (gaussianPrior) updateLine(int, []float64, *rand.Rand) int { return -1 }
