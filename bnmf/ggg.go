package bnmf

import "math/rand/v2"

var _ Model = GGG{}

// GGG is the Gaussian likelihood with Gaussian priors on the rows of W and
// Z, each row drawn from its multivariate Gaussian conditional (Brouwer and
// Lio 2017, "GGG"):
//
//	a_ij ~ N(w_i . z_j, sigma^2), w_i ~ N(0, I/Lambda), z_j ~ N(0, I/Lambda),
//
// with sigma^2 ~ InvGamma(AlphaSigma, BetaSigma) (the reference's noise
// precision tau ~ Gamma(alpha, beta)). Its factors are real-valued. A
// sweep costs O(|Omega| K^2 + (M + N) K^3): each of the M + N rows needs
// its K x K conditional precision and a Cholesky factorisation of it (see
// mvnChain).
type GGG struct {
	// Lambda is the precision of the priors on the rows. Zero means 0.1,
	// the reference's value.
	Lambda float64
	Likelihood
}

// Name returns "GGG".
func (GGG) Name() string { return "GGG" }

func gggSpec() Spec {
	return Spec{
		Name: "GGG", Zero: GGG{}, RealValued: true,
		Doc: "real-valued Gaussian priors N(0, I/lambda) on the rows of W and Z, rows drawn jointly (Brouwer and Lio 2017)",
		Params: append([]Param{
			{Key: "lambda", Field: "Lambda", Support: Positive, Default: "0.1", Doc: "precision of the Gaussian priors on the rows"},
		}, likelihoodParams()...),
	}
}

func (g GGG) newChain(train *Matrix, k int) (chain, error) {
	lik, err := g.Likelihood.resolved("GGG")
	if err != nil {
		return nil, err
	}
	lambda := orDefault(g.Lambda, 0.1)
	if err := positive("GGG", "Lambda", lambda); err != nil {
		return nil, err
	}
	return newMVNChain(train, k, lik, isotropicPrior{k: k, lambda: lambda}), nil
}

// isotropicPrior is GGG's fixed prior N(0, I/lambda) on every row of W and
// Z.
type isotropicPrior struct {
	k      int
	lambda float64
}

func (p isotropicPrior) init(prec, lin *[2][]float64, _ *rand.Rand) error {
	for s := range prec {
		clear(prec[s])
		clear(lin[s])
		for a := range p.k {
			prec[s][a*p.k+a] = p.lambda
		}
	}
	return nil
}

func (isotropicPrior) beforeSide(int, []float64, *[2][]float64, *[2][]float64, *rand.Rand) error {
	return nil
}

func (isotropicPrior) afterSides([]float64, []float64, *[2][]float64, *[2][]float64, *rand.Rand) error {
	return nil
}
