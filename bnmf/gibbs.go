package bnmf

import (
	"fmt"
	"math"
)

// gibbsChain is the state of a Gibbs sampler for GEE, GTT, GTTN, GRRN and
// the other models whose entries are drawn one at a time from normal full
// conditionals, truncated or not (GGGU, GEG, GEEA, GLL, GLLI): the
// factors, the priors' hyperparameters, sigma^2 and the residuals
// a_mn - w_m . z_n of the observed entries in row-major order, which keep
// a sweep at O(|Omega| K). With a real-valued prior a side may instead
// draw each line as a block (drawLinesAsBlocks; GEG's, GVG's and GVnG's
// ZDraw and GLL's Draw).
type gibbsChain struct {
	factorization
	sides      *[2]factorSide
	sigma2     float64
	alphaSigma float64
	betaSigma  float64
	// sigma2Start chooses the initial sigma^2.
	sigma2Start Sigma2Start
	invSigma2   float64
	sweepNo     int
	// blocks is set when a side's lines are drawn as blocks
	// (drawLinesAsBlocks), whose scratch is larger.
	blocks bool
}

func newGibbsChain(data *Matrix, k int, lik Likelihood, pw, pz prior) *gibbsChain {
	c := &gibbsChain{
		factorization: newFactorization(data, k),
		alphaSigma:    lik.AlphaSigma,
		betaSigma:     lik.BetaSigma,
	}
	c.sides = c.newSides(pw, pz, c.updateLine)
	return c
}

// scratchSize is the scratch space one worker needs: the residuals of the
// longest line and the other factor's values gathered for it, or, when a
// side is drawn by blocks (drawLinesAsBlocks), blockScratchSize.
func (c *gibbsChain) scratchSize() int {
	if c.blocks {
		return c.blockScratchSize()
	}
	return c.longestLine() * (c.k + 1)
}

// init draws the priors' shared hyperparameters, then each line's
// hyperparameters and factors from their priors, then sigma^2 as
// sigma2Start says (by default from its full conditional given them).
func (c *gibbsChain) init(p *pool) error {
	for s := range c.sides {
		if g := c.sides[s].global; g != nil {
			wk := p.workers[0]
			wk.pcg.Seed(streamSeed(p.seed, 0, phaseGlobal, s))
			if err := g.initGlobal(wk.rng); err != nil {
				return fmt.Errorf("bnmf: initial shared hyperparameters of %s: %w", c.sides[s].name, err)
			}
		}
	}
	for s := range c.sides {
		side := &c.sides[s]
		fn := func(wk *worker, i int) error {
			x := side.x[i*c.k : (i+1)*c.k]
			if bad := side.prior.initLine(i, x, wk.rng); bad >= 0 {
				return fmt.Errorf("bnmf: initial hyperparameters of %s[%d][%d] are not finite and nonnegative: %w", side.name, i, bad, ErrNonFinite)
			}
			for k, v := range x {
				if !isFinite(v) {
					return fmt.Errorf("bnmf: initial %s[%d][%d] is %v: %w", side.name, i, k, v, ErrNonFinite)
				}
			}
			return nil
		}
		if err := p.run(fn, len(side.start)-1, 0, s); err != nil {
			return err
		}
	}
	c.fillFloat32()
	if c.off != nil {
		if err := c.initOffsets(); err != nil {
			return err
		}
	}
	return c.initSigma2(p)
}

// sweep updates every row of W, every column of Z (each with its
// hyperparameters, and after each side its prior's shared
// hyperparameters, if any) and then sigma^2, as the paper's Algorithm 1
// but with W and Z updated block by block: rows of W are conditionally
// independent given Z, and columns of Z given W.
func (c *gibbsChain) sweep(p *pool, s int) error {
	c.sweepNo = s
	c.invSigma2 = 1 / c.sigma2
	for i := range c.sides {
		side := &c.sides[i]
		if side.seq != nil {
			if err := c.sweepInOrder(p, side, s, i); err != nil {
				return err
			}
		} else if err := p.run(side.line, len(side.start)-1, s, i); err != nil {
			return err
		}
		if side.global != nil {
			wk := p.workers[0]
			wk.pcg.Seed(streamSeed(p.seed, s, phaseGlobal, i))
			if err := side.global.updateGlobal(c.w, c.zt, wk.rng); err != nil {
				return fmt.Errorf("bnmf: sweep %d: shared hyperparameters after %s: %w", s, side.name, err)
			}
		}
	}
	// With offsets, b and c were drawn with the lines; mu, tau_b and
	// tau_c follow.
	if c.off != nil {
		if err := c.drawShared(p, s); err != nil {
			return err
		}
	}
	// The update of Z left every residual exact (see exactResiduals);
	// sigma^2 needs their sums of squares.
	if err := c.sumSquares(p, s); err != nil {
		return err
	}
	if c.off != nil {
		c.off.shift = 0
	}
	return c.drawSigma2(p, s)
}

// exactResiduals stores the residuals a_ij - w_i . z_j of the entries of
// column j of A once z_j (x) has its new values, which with W fixed during
// the update of Z are final for the sweep. They are computed as
// recomputeResiduals computes them, with the same dot product of the same
// two slices, so they are the same numbers, bit for bit; doing it here,
// while the column's rows of W are in cache, spares a pass over the data.
func (c *gibbsChain) exactResiduals(side *factorSide, j int, x []float64) {
	k := c.k
	lo, hi := side.start[j], side.start[j+1]
	_, vals := c.data.Col(j)
	for q, row := range side.index[lo:hi] {
		c.resid[side.pos[lo+q]] = vals[q] - dot(c.w[int(row)*k:(int(row)+1)*k], x)
	}
}

// updateLine samples the K entries of line i of one factor in turn from
// their truncated-normal full conditionals (the paper's Eq.
// (posterior_grrn_wmk), with the inner sum over i != k of w_mi z_ij), or,
// for a realPrior, from the untruncated normals with the same natural
// parameters, then the line's hyperparameters.
func (c *gibbsChain) updateLine(side *factorSide, wk *worker, i int) error {
	lo, hi := side.start[i], side.start[i+1]
	n := hi - lo
	k := c.k
	x := side.x[i*k : (i+1)*k]
	r := wk.scratch[:n]
	g := wk.scratch[n : n+n*k]
	if side.pos == nil {
		copy(r, c.resid[lo:hi])
	} else {
		for q, e := range side.pos[lo:hi] {
			r[q] = c.resid[e]
		}
	}
	side.gather(g, lo, hi, k)
	// gg and gr are g_kk . g_kk and g_kk . r, for kk = 0 here and then
	// for each next dimension in the pass that updates r (lineAxpyDots).
	var gg, gr float64
	if k > 0 {
		gg, gr = lineDots(g[:n], r)
	}
	for kk := 0; kk < k; kk++ {
		gk := g[kk*n : (kk+1)*n]
		s2 := gg
		xk := x[kk]
		lin := gr + xk*s2
		prec0, lin0 := side.prior.natural(i, kk)
		prec := s2*c.invSigma2 + prec0
		l := lin*c.invSigma2 + lin0
		var v float64
		if side.real {
			v = l/prec + wk.rng.NormFloat64()/math.Sqrt(prec)
		} else {
			v = truncNormalNat(wk.rng, l, prec)
		}
		if !isFinite(v) {
			return fmt.Errorf("bnmf: sweep %d: %s[%d][%d]: full conditional with precision %g and linear term %g gave %v: %w",
				c.sweepNo, side.name, i, kk, prec, l, v, ErrNonFinite)
		}
		switch d := v - xk; {
		case kk+1 < k && d != 0:
			gg, gr = lineAxpyDots(r, -d, gk, g[(kk+1)*n:(kk+2)*n])
		case kk+1 < k:
			gg, gr = lineDots(g[(kk+1)*n:(kk+2)*n], r)
		case d != 0:
			lineAxpy(r, -d, gk)
		}
		x[kk] = v
	}
	if side.bias != nil {
		drawLineOffset(r, &side.bias[i], *side.biasTau, c.invSigma2, wk.rng)
	}
	if side.x32 != nil {
		for kk, v := range x {
			side.x32[i*k+kk] = float32(v)
		}
	}
	// A row of W stores its updated residuals; a column of Z, the last
	// update of the sweep to touch its entries, stores them exact.
	switch {
	case side.pos == nil:
		copy(c.resid[lo:hi], r)
	case c.off != nil:
		c.exactResidualsOffsets(side, i, x, g, r)
	case side.other32 != nil:
		c.exactResidualsFromGather(side, i, x, g, r)
	default:
		c.exactResidualsGathered(side, i, x, g, r)
	}
	if bad := side.prior.updateLine(i, x, wk.rng); bad >= 0 {
		return fmt.Errorf("bnmf: sweep %d: hyperparameters of %s[%d][%d] left their support (x = %g): %w",
			c.sweepNo, side.name, i, bad, x[bad], ErrNonFinite)
	}
	return nil
}

// drawSigma2 samples sigma^2 from InvGamma(alphaSigma + |Omega|/2,
// betaSigma + SS/2), the paper's Eq. (posterior_grrn_sigma2) with the shape
// counting observed entries only, given up-to-date per-row sums of squared
// residuals.
func (c *gibbsChain) drawSigma2(p *pool, s int) error {
	ss := c.trainSS()
	wk := p.workers[0]
	wk.pcg.Seed(streamSeed(p.seed, s, phaseSigma, 0))
	shape := c.alphaSigma + float64(c.data.Len())/2
	rate := c.betaSigma + ss/2
	prec := gammaRand(wk.rng, shape, rate)
	sigma2 := 1 / prec
	if !(prec > 0) || math.IsInf(sigma2, 0) || math.IsNaN(sigma2) {
		return fmt.Errorf("bnmf: sweep %d: sigma^2 from InvGamma(%g, %g) is %v (sum of squared residuals %g): %w",
			s, shape, rate, sigma2, ss, ErrNonFinite)
	}
	c.sigma2 = sigma2
	return nil
}

func (c *gibbsChain) noiseVariance() float64 { return c.sigma2 }
func (c *gibbsChain) pointEstimate() bool    { return false }
func (c *gibbsChain) static() bool           { return false }

// sweepInOrder updates the lines of a side with a sequentialPrior one
// after another in line order (see sequentialPrior).
func (c *gibbsChain) sweepInOrder(p *pool, side *factorSide, s, phase int) error {
	if err := side.seq.beginPass(side.x); err != nil {
		return fmt.Errorf("bnmf: sweep %d: prior of %s: %w", s, side.name, err)
	}
	return p.runInOrder(side.line, len(side.start)-1, s, phase)
}
