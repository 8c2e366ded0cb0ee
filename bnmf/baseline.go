package bnmf

// baselineChain is the chain of a baseline: a rule with no sampler that
// sets the factors once, at initialisation, so that w_i . z_j is its
// prediction for entry (i, j); its sweeps change nothing. Like NMF it is a
// point estimate: Run reports its factors as the posterior mean, with zero
// predictive variance and a sigma^2 of 0. A baseline draws no random
// numbers.
type baselineChain struct {
	factorization
	// fit writes the rule's factors into w (M x K) and zt (N x K), both
	// zero on entry, from the training data.
	fit func(data *Matrix, k int, w, zt []float64)
}

func newBaselineChain(train *Matrix, k int, fit func(data *Matrix, k int, w, zt []float64)) *baselineChain {
	return &baselineChain{factorization: newFactorization(train, k), fit: fit}
}

func (c *baselineChain) scratchSize() int { return 0 }

func (c *baselineChain) init(p *pool) error {
	c.fit(c.data, c.k, c.w, c.zt)
	return c.recomputeResiduals(p, 0)
}

func (c *baselineChain) sweep(*pool, int) error { return nil }

func (c *baselineChain) noiseVariance() float64 { return 0 }

func (c *baselineChain) pointEstimate() bool { return true }

func (c *baselineChain) static() bool { return true }

// lineMeans returns the mean of each line's values, with fallback for a
// line that has none; values(i) gives line i's values.
func lineMeans(lines int, values func(i int) []float64, fallback float64) []float64 {
	means := make([]float64, lines)
	for i := range means {
		vals := values(i)
		if len(vals) == 0 {
			means[i] = fallback
			continue
		}
		var s float64
		for _, v := range vals {
			s += v
		}
		means[i] = s / float64(len(vals))
	}
	return means
}
