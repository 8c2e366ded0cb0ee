package bnmf

import (
	"fmt"
	"math/rand/v2"
)

var _ Model = GEEA{}

// GEEA is GEE with automatic relevance determination (Brouwer and Lio
// 2017): exponential priors whose rate is shared by the k-th column of W
// and the k-th row of Z and has a Gamma hyperprior,
//
//	w_mk ~ Exp(lambda_k), z_kn ~ Exp(lambda_k), lambda_k ~ Gamma(Alpha0, Beta0)
//
// (rates; shape and rate). Each lambda_k is drawn after Z in every sweep
// from its full conditional
//
//	lambda_k | W, Z ~ Gamma(Alpha0 + M + N, Beta0 + sum_m w_mk + sum_n z_kn).
//
// A dimension the data do not need gets a large lambda_k, which pulls its
// factors towards zero: the posterior of lambda_k, in Result.Hyper under
// "lambda", says which dimensions the model kept.
type GEEA struct {
	// Alpha0 is the shape of the Gamma hyperprior on each lambda_k. Zero
	// means 1.
	Alpha0 float64
	// Beta0 is the rate of the Gamma hyperprior on each lambda_k. Zero
	// means 1.
	Beta0 float64
	Likelihood
}

// Name returns "GEEA".
func (GEEA) Name() string { return "GEEA" }

func geeaSpec() Spec {
	return Spec{
		Name: "GEEA", Zero: GEEA{},
		Doc: "exponential priors with a rate per dimension and a Gamma ARD hyperprior (Brouwer and Lio 2017)",
		Params: append([]Param{
			{Key: "alpha0", Field: "Alpha0", Support: Positive, Default: "1", Doc: "shape of the Gamma hyperprior on each dimension's rate lambda_k"},
			{Key: "beta0", Field: "Beta0", Support: Positive, Default: "1", Doc: "rate of the Gamma hyperprior on each dimension's rate lambda_k"},
		}, likelihoodParams()...),
	}
}

func (g GEEA) newChain(train *Matrix, k int) (chain, error) {
	lik, err := g.Likelihood.resolved("GEEA")
	if err != nil {
		return nil, err
	}
	alpha0, beta0 := orDefault(g.Alpha0, 1), orDefault(g.Beta0, 1)
	if err := positive("GEEA", "Alpha0", alpha0); err != nil {
		return nil, err
	}
	if err := positive("GEEA", "Beta0", beta0); err != nil {
		return nil, err
	}
	m, n := train.Dims()
	ard := &ardRates{k: k, lambda: make([]float64, k), alpha0: alpha0, beta0: beta0,
		cond: newGammaSampler(alpha0 + float64(m) + float64(n))}
	// The rates are drawn with the last side, after Z, and first of all
	// at the start.
	return newGibbsChain(train, k, lik, ardExponentialPrior{ard}, ardExponentialLast{ardExponentialPrior{ard}}), nil
}

// ardRates holds GEEA's rates lambda_k, shared by both sides.
type ardRates struct {
	k             int
	lambda        []float64 // K
	alpha0, beta0 float64
	// cond samples the conditional's Gamma shape, Alpha0 + M + N.
	cond gammaSampler
}

// ardExponentialPrior is GEEA's prior on one side: x_ik ~ Exp(lambda_k).
type ardExponentialPrior struct{ *ardRates }

// ardExponentialLast is the prior of the side updated last (Z), which
// also draws the rates.
type ardExponentialLast struct{ ardExponentialPrior }

var (
	_ prior         = ardExponentialPrior{}
	_ globalPrior   = ardExponentialLast{}
	_ reportedPrior = ardExponentialLast{}
)

// reported returns the rates lambda_k, once (from the side that draws
// them).
func (p ardExponentialLast) reported() (string, []float64) { return "lambda", p.lambda }

func (p ardExponentialPrior) initLine(_ int, x []float64, rng *rand.Rand) int {
	for k := range x {
		x[k] = rng.ExpFloat64() / p.lambda[k]
	}
	return -1
}

func (p ardExponentialPrior) natural(_, k int) (prec, lin float64) { return 0, -p.lambda[k] }

func (ardExponentialPrior) updateLine(int, []float64, *rand.Rand) int { return -1 }

// initGlobal draws each lambda_k from Gamma(Alpha0, Beta0).
func (p ardExponentialLast) initGlobal(rng *rand.Rand) error {
	for k := range p.lambda {
		p.lambda[k] = gammaRand(rng, p.alpha0, p.beta0)
		if !(p.lambda[k] > 0 && isFinite(p.lambda[k])) {
			return fmt.Errorf("lambda[%d] from Gamma(%g, %g) is %v: %w", k, p.alpha0, p.beta0, p.lambda[k], ErrNonFinite)
		}
	}
	return nil
}

// updateGlobal draws each lambda_k from its full conditional (see GEEA),
// summing the factors in line order.
func (p ardExponentialLast) updateGlobal(w, zt []float64, rng *rand.Rand) error {
	k := p.k
	for kk := range p.lambda {
		var sum float64
		for i := kk; i < len(w); i += k {
			sum += w[i]
		}
		for j := kk; j < len(zt); j += k {
			sum += zt[j]
		}
		lam := p.cond.rand(rng, p.beta0+sum)
		if !(lam > 0 && isFinite(lam)) {
			return fmt.Errorf("lambda[%d] from Gamma(%g, %g) is %v: %w", kk, p.cond.shape, p.beta0+sum, lam, ErrNonFinite)
		}
		p.lambda[kk] = lam
	}
	return nil
}
