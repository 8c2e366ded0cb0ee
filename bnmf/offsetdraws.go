package bnmf

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/floats"
)

// phaseOffsets keys the random streams of the draws of mu, tau_b and
// tau_c (line 0); the offsets' start draws nothing (initOffsets). It is
// set apart from the phases of pool.go so that a phase added there
// cannot share its streams.
const phaseOffsets = 64

// offsets is the state of the bias terms of a chain: mu, b (one per row
// of A), c (one per column) and the precisions tau_b, tau_c. The chain's
// residuals are net of them, a_ij - mu - b_i - c_j - w_i . z_j, so the
// factors' updates see the data less the offsets without knowing of
// them. Each b_i is drawn right after row i of W, from the row's
// residuals in the worker's scratch, and each c_j right after column j
// of Z, before its residuals are recomputed exactly; mu is drawn from the
// sums of the exact residuals of the columns, and shifting every residual
// by its change is folded into the sum of squares that sigma^2 needs. The
// extra work of a sweep is thus a few operations per observed entry on
// data already in cache, and O(M + N) for the precisions.
type offsets struct {
	Offsets
	mu         float64
	b, c       []float64
	tauB, tauC float64
	// colSum[j] is the sum of column j's exact residuals after its
	// update; shift is the change of mu that the residuals have yet to
	// take in (by squaresOfRow).
	colSum []float64
	shift  float64
	n      int // |Omega|
}

// withOffsets gives the chain offsets with the resolved hyperparameters
// o.
func (c *gibbsChain) withOffsets(o Offsets) error {
	m, n := c.data.Dims()
	off := &offsets{Offsets: o, b: make([]float64, m), c: make([]float64, n), colSum: make([]float64, n), n: c.data.Len()}
	c.off = off
	c.sides[0].bias, c.sides[0].biasTau = off.b, &off.tauB
	c.sides[1].bias, c.sides[1].biasTau = off.c, &off.tauC
	return nil
}

// at returns mu + b_i + c_j.
func (o *offsets) at(i, j int) float64 { return o.mu + o.b[i] + o.c[j] }

// initOffsets starts the offsets at fixed values: mu at M0, every b_i and
// c_j at 0 and tau_b and tau_c at their hyperpriors' means AlphaB/BetaB
// and AlphaC/BetaC. It draws nothing. A start drawn from the priors would
// put some chains where they cannot leave: with an exponential hyperprior
// a draw of tau_c a thousand times below its mean (probability 0.001)
// gives column offsets of tens of rating points, and with nonnegative
// factors (GRRN's, say) the factors cancel a large negative c_j in the
// training entries rather than letting the Gibbs steps pull it back (one
// entry at a time they barely move along that ridge). Such a chain fits the
// training entries as well as any and predicts that column's held-out
// entries tens of points off; on MovieLens 100K one GRRN+b cell in 80
// did so (results/README.md, "against the bias baseline"). Every chain
// of a cell thus starts its offsets at the same values (the factors'
// starts still differ), which makes R-hat over the offsets less
// conservative than over a dispersed start.
func (c *gibbsChain) initOffsets() error {
	o := c.off
	o.tauB = o.AlphaB / o.BetaB
	o.tauC = o.AlphaC / o.BetaC
	o.mu = o.M0
	clear(o.b)
	clear(o.c)
	return o.check(0)
}

// check returns an error if a scalar of the offsets' state is not finite
// or a precision is not positive.
func (o *offsets) check(sweep int) error {
	if !isFinite(o.mu) || !(o.tauB > 0) || !(o.tauC > 0) || math.IsInf(o.tauB, 0) || math.IsInf(o.tauC, 0) {
		return fmt.Errorf("bnmf: sweep %d: offsets: mu = %v, tau_b = %v, tau_c = %v: %w", sweep, o.mu, o.tauB, o.tauC, ErrNonFinite)
	}
	return nil
}

// drawLineOffset draws the offset x of a line (b_i of row i or c_j of
// column j) from its full conditional given everything else,
//
//	N(lin/prec, 1/prec), prec = tau + n/sigma^2,
//	lin = sum_q (r_q + x)/sigma^2,
//
// where r holds the line's n residuals, net of the old x, and moves r by
// the change. A line with no entries draws from the prior N(0, 1/tau).
func drawLineOffset(r []float64, x *float64, tau, invSigma2 float64, rng *rand.Rand) float64 {
	old := *x
	var s float64
	for _, v := range r {
		s += v
	}
	n := float64(len(r))
	prec := tau + n*invSigma2
	v := (s+n*old)*invSigma2/prec + rng.NormFloat64()/math.Sqrt(prec)
	if d := v - old; d != 0 {
		for q := range r {
			r[q] -= d
		}
	}
	*x = v
	return v
}

// drawShared draws mu given the residuals (whose column sums are in
// colSum), then tau_b given b and tau_c given c:
//
//	mu | . ~ N((TauMu M0 + sum e/sigma^2)/prec, 1/prec), prec = TauMu + |Omega|/sigma^2,
//	tau_b | b ~ Gamma(AlphaB + M/2, BetaB + sum_i b_i^2/2), likewise tau_c,
//
// with e the residuals plus mu. The residuals take in the change of mu
// through shift.
func (c *gibbsChain) drawShared(p *pool, s int) error {
	o := c.off
	wk := p.workers[0]
	wk.pcg.Seed(streamSeed(p.seed, s, phaseOffsets, 0))
	rng := wk.rng
	var sum float64
	for _, v := range o.colSum {
		sum += v
	}
	n := float64(o.n)
	prec := o.TauMu + n*c.invSigma2
	mu := (o.TauMu*o.M0+(sum+n*o.mu)*c.invSigma2)/prec + rng.NormFloat64()/math.Sqrt(prec)
	o.shift = mu - o.mu
	o.mu = mu
	o.tauB = gammaRand(rng, o.AlphaB+float64(len(o.b))/2, o.BetaB+sumSquares(o.b)/2)
	o.tauC = gammaRand(rng, o.AlphaC+float64(len(o.c))/2, o.BetaC+sumSquares(o.c)/2)
	return o.check(s)
}

func sumSquares(x []float64) float64 {
	var s float64
	for _, v := range x {
		s += v * v
	}
	return s
}

// offsetState returns the chain's offsets, nil without them.
func (c *gibbsChain) offsetState() *offsets { return c.off }

// offsetChain is a chain that may carry offsets.
type offsetChain interface {
	offsetState() *offsets
}

// chainOffsets returns ch's offsets, or nil.
func chainOffsets(ch chain) *offsets {
	if oc, ok := ch.(offsetChain); ok {
		return oc.offsetState()
	}
	return nil
}

// exactResidualsOffsets is exactResiduals (or, with float32 factors,
// exactResidualsFromGather) with offsets: it stores the residuals
// a_ij - mu - b_i - c_j - w_i . z_j of column j's entries, z_j = x, and
// their sum in colSum[j] for mu's conditional. g holds W's gathered
// values and r is scratch of the column's length.
func (c *gibbsChain) exactResidualsOffsets(side *factorSide, j int, x, g, r []float64) {
	o := c.off
	lo, hi := side.start[j], side.start[j+1]
	n := hi - lo
	rows, vals := c.data.Col(j)
	base := o.mu + o.c[j]
	var sum float64
	if side.other32 != nil {
		for q, row := range rows {
			r[q] = vals[q] - base - o.b[row]
		}
		for kk, v := range x {
			floats.AddScaled(r[:n], -v, g[kk*n:(kk+1)*n])
		}
		for q, e := range side.pos[lo:hi] {
			c.resid[e] = r[q]
			sum += r[q]
		}
		o.colSum[j] = sum
		return
	}
	k := c.k
	for q, row := range side.index[lo:hi] {
		v := vals[q] - base - o.b[row] - floats.Dot(c.w[int(row)*k:(int(row)+1)*k], x)
		c.resid[side.pos[lo+q]] = v
		sum += v
	}
	o.colSum[j] = sum
}

// netOfOffsets stores in y the values vals of line i of side (a row of A
// for W, a column for Z) less their offsets, a - mu - b - c, for the
// conditionals of the block draws (drawBlock), and returns y.
func (c *gibbsChain) netOfOffsets(side *factorSide, i int, vals, y []float64) []float64 {
	o := c.off
	idx := side.index[side.start[i]:side.start[i+1]]
	if side.pos == nil {
		base := o.mu + o.b[i]
		for q, j := range idx {
			y[q] = vals[q] - base - o.c[j]
		}
		return y
	}
	base := o.mu + o.c[i]
	for q, r := range idx {
		y[q] = vals[q] - base - o.b[r]
	}
	return y
}

// rowOffset draws the offset of line i of side (b_i after row i of W, c_j
// after column j of Z) drawn as a block, once drawBlock has left the
// other factor's gathered rows and the values net of the offsets
// (netOfOffsets) in the worker's scratch, and for a column of Z stores
// its exact residuals.
func (c *gibbsChain) rowOffset(side *factorSide, wk *worker, i int) {
	k := c.k
	n := side.start[i+1] - side.start[i]
	g := wk.scratch[k*k+2*k:][:n*k]
	r := wk.scratch[k*k+2*k+n*k:][:n]
	x := side.x[i*k : (i+1)*k]
	for a, v := range x {
		floats.AddScaled(r, -v, g[a*n:(a+1)*n])
	}
	drawLineOffset(r, &side.bias[i], *side.biasTau, c.invSigma2, wk.rng)
	if side.pos != nil {
		c.exactResidualsOffsets(side, i, x, g, r)
	}
}
