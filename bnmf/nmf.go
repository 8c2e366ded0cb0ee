package bnmf

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
)

var _ Model = NMF{}

// Objective selects the loss that NMF minimises.
type Objective int

const (
	// SquaredError is the masked squared error of the paper's Eq. 2.
	SquaredError Objective = iota
	// IDivergence is the generalised Kullback-Leibler (I-) divergence.
	IDivergence
)

// String returns the objective's name.
func (o Objective) String() string {
	switch o {
	case SquaredError:
		return "squared-error"
	case IDivergence:
		return "i-divergence"
	}
	return "unknown"
}

// UnmarshalText sets o from its name, as String returns it.
func (o *Objective) UnmarshalText(text []byte) error {
	for _, c := range []Objective{SquaredError, IDivergence} {
		if c.String() == string(text) {
			*o = c
			return nil
		}
	}
	return fmt.Errorf("unknown objective %q; want %q or %q", text, SquaredError, IDivergence)
}

// NMF is non-probabilistic NMF by Lee and Seung's (2001) multiplicative
// updates restricted to the observed entries. It is a point estimate: Run
// reports its final iterate as the posterior mean and zero predictive
// variance, and its Sigma2 is 0.
type NMF struct {
	// Objective is the loss minimised; the zero value is SquaredError.
	Objective Objective
}

// Name returns "NMF".
func (NMF) Name() string { return "NMF" }

func nmfSpec() Spec {
	return Spec{
		Name: "NMF", Zero: NMF{}, Default: true, Nonnegative: true, PointEstimate: true,
		Doc: "Lee and Seung's multiplicative updates on the observed entries (a point estimate)",
		Params: []Param{{
			Key: "objective", Field: "Objective", Support: Choice,
			Choices: []string{SquaredError.String(), IDivergence.String()},
			Default: SquaredError.String(), Doc: "the loss minimised",
		}},
	}
}

func (g NMF) newChain(train *Matrix, k int) (chain, error) {
	switch g.Objective {
	case SquaredError, IDivergence:
	default:
		return nil, fmt.Errorf("bnmf: NMF.Objective %d is not SquaredError or IDivergence", int(g.Objective))
	}
	// Multiplicative updates keep factors nonnegative only for
	// nonnegative data.
	_, _, values := train.RowStorage()
	for i, v := range values {
		if v < 0 {
			e := train.EntryAt(i)
			return nil, fmt.Errorf("bnmf: NMF needs nonnegative data; entry (%d, %d) is %v", e.Row, e.Col, v)
		}
	}
	return newNMFChain(train, k, g.Objective), nil
}

// nmfChain runs Lee and Seung's (2001) multiplicative updates restricted to
// the observed entries:
//
//	squared error: w_mk <- w_mk (sum_j a_mj z_kj) / (sum_j (w_m . z_j) z_kj)
//	I-divergence:  w_mk <- w_mk (sum_j z_kj a_mj / (w_m . z_j)) / (sum_j z_kj)
//
// with sums over the observed j of row m, and symmetrically for the columns
// of Z. An entry whose denominator is zero (a line with no observed
// entries) keeps its value.
type nmfChain struct {
	factorization
	objective Objective
	sides     *[2]factorSide
	initScale float64
	sweepNo   int
}

// nmfTiny guards the I-divergence ratio a/(w.z) against a zero prediction.
const nmfTiny = 1e-300

func newNMFChain(data *Matrix, k int, obj Objective) *nmfChain {
	c := &nmfChain{
		factorization: newFactorization(data, k),
		objective:     obj,
		// Uniform(0, 2 sqrt(m0/K)) entries make the expected initial
		// prediction K (m0/K) = m0, the mean of the data.
		initScale: 2 * math.Sqrt(math.Max(data.Mean(), 1e-12)/float64(k)),
	}
	c.sides = c.newSides(nil, nil, c.updateLine)
	return c
}

func (c *nmfChain) scratchSize() int { return 2 * c.k }

func (c *nmfChain) init(p *pool) error {
	for s := range c.sides {
		side := &c.sides[s]
		fn := func(wk *worker, i int) error {
			for k := range c.k {
				side.x[i*c.k+k] = c.initScale * (1 - wk.rng.Float64()) // in (0, scale]
			}
			return nil
		}
		if err := p.run(fn, len(side.start)-1, 0, s); err != nil {
			return err
		}
	}
	return c.recomputeResiduals(p, 0)
}

func (c *nmfChain) sweep(p *pool, s int) error {
	c.sweepNo = s
	for i := range c.sides {
		side := &c.sides[i]
		if err := p.run(side.line, len(side.start)-1, s, i); err != nil {
			return err
		}
		if err := c.recomputeResiduals(p, s); err != nil {
			return err
		}
	}
	return nil
}

// updateLine applies one multiplicative update to every entry of line i
// at once, using the residuals of the current iterate.
func (c *nmfChain) updateLine(side *factorSide, wk *worker, i int) error {
	k := c.k
	lo, hi := side.start[i], side.start[i+1]
	num, den := wk.scratch[:k], wk.scratch[k:2*k]
	clear(num)
	clear(den)
	_, _, values := c.data.RowStorage()
	for q := lo; q < hi; q++ {
		e := side.entry(q)
		a := values[e]
		pred := a - c.resid[e]
		o := side.other[int(side.index[q])*k : (int(side.index[q])+1)*k]
		switch c.objective {
		case IDivergence:
			floats.AddScaled(num, a/math.Max(pred, nmfTiny), o)
			floats.Add(den, o)
		default:
			// num += a o and den += pred o, as two axpys would.
			scaledSums(num, den, a, pred, o)
		}
	}
	x := side.x[i*k : (i+1)*k]
	for kk := range x {
		if den[kk] > 0 {
			v := x[kk] * num[kk] / den[kk]
			if !isFinite(v) {
				return fmt.Errorf("bnmf: NMF iteration %d: %s[%d][%d] became %v: %w", c.sweepNo, side.name, i, kk, v, ErrNonFinite)
			}
			x[kk] = v
		}
	}
	return nil
}

func (c *nmfChain) noiseVariance() float64 { return 0 }
func (c *nmfChain) pointEstimate() bool    { return true }
func (c *nmfChain) static() bool           { return false }
