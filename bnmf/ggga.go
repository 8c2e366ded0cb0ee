package bnmf

import (
	"fmt"
	"math/rand/v2"
)

var _ Model = GGGA{}

// GGGA is GGG with automatic relevance determination (Brouwer and Lio
// 2017, "GGGA"): each latent dimension k has its own precision lambda_k,
// shared by W and Z,
//
//	w_ik ~ N(0, 1/lambda_k), z_jk ~ N(0, 1/lambda_k), lambda_k ~ Gamma(Alpha0, Beta0)
//
// (shape and rate), with the Gaussian likelihood and sigma^2 prior of GGG.
// After both factors have been drawn, each lambda_k is drawn from its full
// conditional Gamma(Alpha0 + (M + N)/2, Beta0 + (sum_i w_ik^2 +
// sum_j z_jk^2)/2). Rows are drawn as in GGG, at the same cost.
type GGGA struct {
	// Alpha0 and Beta0 are the shape and rate of the Gamma hyperprior on
	// each lambda_k. Zero means 1, the reference's value.
	Alpha0, Beta0 float64
	Likelihood
}

// Name returns "GGGA".
func (GGGA) Name() string { return "GGGA" }

func gggaSpec() Spec {
	return Spec{
		Name: "GGGA", Zero: GGGA{}, RealValued: true,
		Doc: "GGG with automatic relevance determination: a Gamma-distributed precision per latent dimension (Brouwer and Lio 2017)",
		Params: append([]Param{
			{Key: "alpha0", Field: "Alpha0", Support: Positive, Default: "1", Doc: "shape of the Gamma hyperprior on each dimension's precision"},
			{Key: "beta0", Field: "Beta0", Support: Positive, Default: "1", Doc: "rate of the Gamma hyperprior on each dimension's precision"},
		}, likelihoodParams()...),
	}
}

func (g GGGA) newChain(train *Matrix, k int) (chain, error) {
	lik, err := g.Likelihood.resolved("GGGA")
	if err != nil {
		return nil, err
	}
	alpha0, beta0 := orDefault(g.Alpha0, 1), orDefault(g.Beta0, 1)
	if err := positive("GGGA", "Alpha0", alpha0); err != nil {
		return nil, err
	}
	if err := positive("GGGA", "Beta0", beta0); err != nil {
		return nil, err
	}
	m, n := train.Dims()
	p := &ardPrior{
		k: k, alpha0: alpha0, beta0: beta0,
		lambda: make([]float64, k),
		ss:     make([]float64, k),
		cond:   newGammaSampler(alpha0 + float64(m+n)/2),
	}
	return newMVNChain(train, k, lik, p), nil
}

// ardPrior is GGGA's prior: N(0, diag(1/lambda)) on every row of W and Z,
// with lambda_k ~ Gamma(alpha0, beta0).
type ardPrior struct {
	k             int
	alpha0, beta0 float64
	lambda        []float64
	ss            []float64 // scratch: sum of squares per dimension
	cond          gammaSampler
}

func (p *ardPrior) init(prec, lin *[2][]float64, rng *rand.Rand) error {
	for a := range p.lambda {
		p.lambda[a] = gammaRand(rng, p.alpha0, p.beta0)
	}
	for s := range prec {
		clear(prec[s])
		clear(lin[s])
	}
	return p.set(prec)
}

// set writes lambda into the diagonals of both sides' precisions, after
// checking that every lambda_k is positive and finite.
func (p *ardPrior) set(prec *[2][]float64) error {
	for a, v := range p.lambda {
		if !(v > 0) || !isFinite(v) {
			return fmt.Errorf("lambda[%d] is %v: %w", a, v, ErrNonFinite)
		}
		prec[0][a*p.k+a], prec[1][a*p.k+a] = v, v
	}
	return nil
}

func (*ardPrior) beforeSide(int, []float64, *[2][]float64, *[2][]float64, *rand.Rand) error {
	return nil
}

// afterSides draws each lambda_k from its full conditional given W and Z,
// summing the squares in row order.
func (p *ardPrior) afterSides(w, zt []float64, prec, _ *[2][]float64, rng *rand.Rand) error {
	clear(p.ss)
	for _, x := range [2][]float64{w, zt} {
		for i := 0; i < len(x); i += p.k {
			for a, v := range x[i : i+p.k] {
				p.ss[a] += v * v
			}
		}
	}
	for a := range p.lambda {
		p.lambda[a] = p.cond.rand(rng, p.beta0+p.ss[a]/2)
	}
	return p.set(prec)
}
