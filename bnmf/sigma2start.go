package bnmf

import (
	"fmt"
	"math"
)

// Sigma2Start chooses how a Bayesian chain's noise variance sigma^2 starts,
// once the hyperparameters and factors have been drawn from their priors.
type Sigma2Start int

const (
	// Sigma2FromConditional draws sigma^2 from its full conditional given
	// the prior-drawn factors, as the published reference code does (the
	// default). With broad priors the factors' product is far from the
	// data, and sigma^2 starts huge: GEE at K = 50 starts near 1e6 on
	// MovieLens 100K.
	Sigma2FromConditional Sigma2Start = iota
	// Sigma2FromPrior draws sigma^2 from its InvGamma(AlphaSigma,
	// BetaSigma) prior.
	Sigma2FromPrior
	// Sigma2AtDataVariance sets sigma^2 to the variance of the observed
	// training values.
	Sigma2AtDataVariance
)

// String returns the start's name in configs: "conditional", "prior" or
// "data-variance".
func (s Sigma2Start) String() string {
	switch s {
	case Sigma2FromConditional:
		return "conditional"
	case Sigma2FromPrior:
		return "prior"
	case Sigma2AtDataVariance:
		return "data-variance"
	}
	return fmt.Sprintf("Sigma2Start(%d)", int(s))
}

// Sigma2Starts lists every start, the default first.
func Sigma2Starts() []Sigma2Start {
	return []Sigma2Start{Sigma2FromConditional, Sigma2FromPrior, Sigma2AtDataVariance}
}

// ParseSigma2Start returns the start with the given name (see String).
func ParseSigma2Start(name string) (Sigma2Start, error) {
	for _, s := range Sigma2Starts() {
		if s.String() == name {
			return s, nil
		}
	}
	return 0, fmt.Errorf("unknown sigma^2 start %q; want conditional, prior or data-variance", name)
}

// sigma2Starter is a chain whose initial sigma^2 can be chosen; the chains
// of NMF and the baselines have no sigma^2.
type sigma2Starter interface {
	setSigma2Start(Sigma2Start)
}

func (c *gibbsChain) setSigma2Start(s Sigma2Start) { c.sigma2Start = s }

// initSigma2 sets the initial sigma^2 as c.sigma2Start says, once the
// factors have their initial values.
func (c *gibbsChain) initSigma2(p *pool) error {
	switch c.sigma2Start {
	case Sigma2FromPrior:
		if err := c.recomputeResiduals(p, 0); err != nil {
			return err
		}
		wk := p.workers[0]
		wk.pcg.Seed(streamSeed(p.seed, 0, phaseSigma, 0))
		prec := gammaRand(wk.rng, c.alphaSigma, c.betaSigma)
		c.sigma2 = 1 / prec
		if !(prec > 0) || math.IsInf(c.sigma2, 0) {
			return fmt.Errorf("bnmf: initial sigma^2 from InvGamma(%g, %g) is %v: %w", c.alphaSigma, c.betaSigma, c.sigma2, ErrNonFinite)
		}
		return nil
	case Sigma2AtDataVariance:
		if err := c.recomputeResiduals(p, 0); err != nil {
			return err
		}
		c.sigma2 = c.data.Variance()
		if !(c.sigma2 > 0) {
			return fmt.Errorf("bnmf: the training values have variance %v, which cannot start sigma^2", c.sigma2)
		}
		return nil
	}
	if err := c.recomputeResiduals(p, 0); err != nil {
		return err
	}
	return c.drawSigma2(p, 0)
}
