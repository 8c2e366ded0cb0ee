package bnmf

import (
	"math"
	"math/rand/v2"
)

var _ Model = GL21{}

// GL21 is the Gaussian likelihood with the L21-norm prior on W and Z
// (Brouwer and Lio 2017): for x = w (lines the rows of W) and x = z (lines
// the columns of Z),
//
//	p(x) ∝ exp(-Lambda/2 sum_i (sum_k x_ik)^2),  x_ik >= 0,
//
// the squared L1 norm of each line, summed over the lines: the entries of
// a line compete for one budget, which favours lines with few nonzero
// entries. The full conditional of x_ik is the truncated normal with
// precision Lambda + sum_n z_kn^2/sigma^2 and linear term
// -Lambda sum_{k' != k} x_ik' plus the likelihood's, the conditional of
// the upstream sampler (which draws a column of W at a time; here a
// line's entries are drawn in turn, with the same stationary law).
//
// Unlike upstream, which cannot sample the prior and starts from TN(0, 1)
// draws, the prior is sampled exactly: the line sum s = sum_k x_ik has
// density proportional to s^(K-1) exp(-Lambda s^2/2) (so Lambda s^2 is
// chi-square with K degrees of freedom), and given s the line is s times a
// uniform point of the simplex (normalised Exp(1) draws).
type GL21 struct {
	// Lambda is the weight of the squared L1 norms. Zero means 0.1, the
	// upstream experiments' value.
	Lambda float64
	Likelihood
}

// Name returns "GL21".
func (GL21) Name() string { return "GL21" }

func gl21Spec() Spec {
	return Spec{
		Name: "GL21", Zero: GL21{},
		Doc: "L21-norm priors on W and Z, nonnegative (Brouwer and Lio 2017)",
		Params: append([]Param{
			{Key: "lambda", Field: "Lambda", Support: Positive, Default: "0.1", Doc: "weight of each line's squared L1 norm in the prior"},
		}, likelihoodParams()...),
	}
}

func (g GL21) newChain(train *Matrix, k int) (chain, error) {
	lik, err := g.Likelihood.resolved("GL21")
	if err != nil {
		return nil, err
	}
	lambda := orDefault(g.Lambda, 0.1)
	if err := positive("GL21", "Lambda", lambda); err != nil {
		return nil, err
	}
	pw, pz := &l21Prior{k: k, lambda: lambda}, &l21Prior{k: k, lambda: lambda}
	c := newGibbsChain(train, k, lik, pw, pz)
	pw.x, pz.x = c.w, c.zt
	return c, nil
}

// l21Prior is GL21's prior on one side. Its natural parameters for entry
// (i, k) depend on the line's other entries, which it reads from x, the
// side's factor (bound once the chain exists): the chain draws a line's
// entries in turn and stores each before asking for the next one's
// parameters, so the sum is always over current values. Lines are
// independent under the prior, so they may be drawn in parallel.
type l21Prior struct {
	k      int
	lambda float64
	x      []float64 // the side's factor, lines x K
}

var _ prior = (*l21Prior)(nil)

// initLine draws line i exactly from the prior (see GL21).
func (p *l21Prior) initLine(_ int, x []float64, rng *rand.Rand) int {
	s := math.Sqrt(2 * gammaRand(rng, float64(len(x))/2, 1) / p.lambda)
	var sum float64
	for k := range x {
		x[k] = rng.ExpFloat64()
		sum += x[k]
	}
	for k := range x {
		x[k] *= s / sum
	}
	return -1
}

// natural returns precision Lambda and linear term -Lambda times the sum
// of the line's other entries.
func (p *l21Prior) natural(i, k int) (prec, lin float64) {
	line := p.x[i*p.k : (i+1)*p.k]
	// The entries before k, then those after it: the order of the sum
	// over kk != k, without a test per term.
	var others float64
	for _, v := range line[:k] {
		others += v
	}
	for _, v := range line[k+1:] {
		others += v
	}
	return p.lambda, -p.lambda * others
}

func (*l21Prior) updateLine(int, []float64, *rand.Rand) int { return -1 }
