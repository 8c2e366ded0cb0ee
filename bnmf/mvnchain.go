package bnmf

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/floats"
)

// phaseHyper keys the random streams of the global hyperparameter steps of
// the row-wise Gaussian models: stream (seed, sweep, phaseHyper, s) for
// the step before side s (0: W, 1: Z) and s = 2 for the step after both.
const phaseHyper = phaseOther + 1

// rowHyperprior is the part of a row-wise Gaussian model (GGG, GGGA,
// GGGW) that sets the prior of the rows: every row of W has the prior
// N(mu_W, Lambda_W^-1) and every row of Z (a column of the paper's Z) the
// prior N(mu_Z, Lambda_Z^-1), given to the row updates by the precision
// Lambda (K x K, row-major; only its lower triangle is read) and the
// linear term Lambda mu (K) of each side. A hyperprior with random
// hyperparameters draws them in the global steps, serially, with the
// random stream it is given.
type rowHyperprior interface {
	// init draws the hyperparameters from their hyperprior and sets the
	// precisions and linear terms of both sides.
	init(prec, lin *[2][]float64, rng *rand.Rand) error
	// beforeSide draws the hyperparameters of side s given x, the side's
	// factor (lines x K, row-major), before the side's rows are drawn, and
	// updates prec[s] and lin[s].
	beforeSide(s int, x []float64, prec, lin *[2][]float64, rng *rand.Rand) error
	// afterSides draws the hyperparameters shared by the sides given both
	// factors, after both have been drawn, and updates prec and lin.
	afterSides(w, zt []float64, prec, lin *[2][]float64, rng *rand.Rand) error
}

// mvnChain is the Gibbs sampler of the models whose rows of W and of Z
// (stored transposed) are drawn jointly from their K-dimensional Gaussian
// full conditionals: GGG, GGGA and GGGW. Given sigma^2, the other factor
// and the row's prior N(mu, Lambda^-1), row i of W has the conditional
//
//	N(P^-1 b, P^-1), P = Lambda + sum_j z_j z_j^T / sigma^2,
//	b = Lambda mu + sum_j a_ij z_j / sigma^2,
//
// the sums over the row's observed entries (Brouwer and Lio 2017, the
// multivariate updates of their GGG; Salakhutdinov and Mnih 2008, Eq. 12
// for BPMF), and a column of Z the same with the roles swapped. A row
// costs about n K^2/2 multiply-adds for P (n observed entries), n K for b
// and K^3/3 for the Cholesky factorisation P = L L^T; the draw is
// x = L^-T (L^-1 b + e) with e ~ N(0, I), two triangular solves. A sweep
// is so O(|Omega| K^2 + (M + N) K^3), against O(|Omega| K) for the
// entry-wise samplers.
//
// It shares the likelihood's state and code (sigma^2, its start, the
// residuals, the float32 copies of Settings.Float32Factors) with
// gibbsChain; the residuals are needed only for sigma^2, so the rows of W
// leave them alone and each column of Z stores its own exact.
type mvnChain struct {
	*gibbsChain
	hyper rowHyperprior
	// prec and lin are each side's row prior: its precision Lambda (K x K)
	// and linear term Lambda mu (K).
	prec, lin [2][]float64
}

// newMVNChain returns the chain of a row-wise Gaussian model with the
// likelihood lik and row priors set by hyper.
func newMVNChain(data *Matrix, k int, lik Likelihood, hyper rowHyperprior) *mvnChain {
	c := &mvnChain{gibbsChain: newGibbsChain(data, k, lik, nil, nil), hyper: hyper}
	for s := range c.sides {
		side := &c.sides[s]
		side.line = func(wk *worker, i int) error { return c.updateRow(side, s, wk, i) }
		c.prec[s] = make([]float64, k*k)
		c.lin[s] = make([]float64, k)
	}
	return c
}

// scratchSize is the scratch one worker needs: blockScratchSize.
func (c *mvnChain) scratchSize() int { return c.blockScratchSize() }

// init draws the hyperparameters from their hyperprior, every row of W and
// Z from its prior given them, and then sigma^2 as sigma2Start says.
func (c *mvnChain) init(p *pool) error {
	wk := p.workers[0]
	wk.pcg.Seed(streamSeed(p.seed, 0, phaseHyper, 2))
	if err := c.hyper.init(&c.prec, &c.lin, wk.rng); err != nil {
		return fmt.Errorf("bnmf: initial hyperparameters: %w", err)
	}
	for s := range c.sides {
		side := &c.sides[s]
		fn := func(wk *worker, i int) error { return c.drawRow(side, s, wk, i, 0) }
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

// sweep draws the hyperparameters of W, every row of W, those of Z, every
// column of Z, the hyperparameters shared by both, and then sigma^2: the
// order of the reference code (Brouwer and Lio 2017). Rows of W are
// conditionally independent given Z, and columns of Z given W.
func (c *mvnChain) sweep(p *pool, s int) error {
	c.sweepNo = s
	c.invSigma2 = 1 / c.sigma2
	wk := p.workers[0]
	for i := range c.sides {
		side := &c.sides[i]
		wk.pcg.Seed(streamSeed(p.seed, s, phaseHyper, i))
		if err := c.hyper.beforeSide(i, side.x, &c.prec, &c.lin, wk.rng); err != nil {
			return fmt.Errorf("bnmf: sweep %d: hyperparameters of %s: %w", s, side.name, err)
		}
		if err := p.run(side.line, len(side.start)-1, s, i); err != nil {
			return err
		}
	}
	wk.pcg.Seed(streamSeed(p.seed, s, phaseHyper, 2))
	if err := c.hyper.afterSides(c.w, c.zt, &c.prec, &c.lin, wk.rng); err != nil {
		return fmt.Errorf("bnmf: sweep %d: hyperparameters: %w", s, err)
	}
	// With offsets (Biased), b and c were drawn with the rows; mu, tau_b
	// and tau_c follow.
	if c.off != nil {
		if err := c.drawShared(p, s); err != nil {
			return err
		}
	}
	// The update of Z left every residual exact.
	if err := c.sumSquares(p, s); err != nil {
		return err
	}
	if c.off != nil {
		c.off.shift = 0
	}
	return c.drawSigma2(p, s)
}

// updateRow draws line i of one side from its full conditional (see
// mvnChain) and then finishes it (finishBlock).
func (c *mvnChain) updateRow(side *factorSide, s int, wk *worker, i int) error {
	if err := c.drawRow(side, s, wk, i, c.invSigma2); err != nil {
		return err
	}
	c.finishBlock(side, wk, i)
	return nil
}

// drawRow draws line i of side s from N(P^-1 b, P^-1) with
// P = Lambda + invSigma2 G G^T and b = Lambda mu + invSigma2 G a, the
// side's row prior (Lambda, Lambda mu) in prec[s] and lin[s] (see
// drawBlock). With invSigma2 = 0 it draws from the prior.
func (c *mvnChain) drawRow(side *factorSide, s int, wk *worker, i int, invSigma2 float64) error {
	k := c.k
	pm := wk.scratch[:k*k]
	b := wk.scratch[k*k : k*k+k]
	prec, lin := c.prec[s], c.lin[s]
	copy(b, lin)
	for a := range k {
		copy(pm[a*k:a*k+a+1], prec[a*k:a*k+a+1])
	}
	return c.drawBlock(side, wk, i, invSigma2)
}

// blockScratchSize is the scratch one worker needs for drawBlock and
// finishBlock: the precision P (K x K), two vectors of K, the other
// factor's rows gathered for the longest line and, with
// Settings.Float32Factors or offsets, that line's residuals.
func (c *gibbsChain) blockScratchSize() int {
	return c.k*c.k + 2*c.k + c.longestLine()*(c.k+1)
}

// longestLine returns the number of observed entries of the longest row
// or column of the data.
func (c *gibbsChain) longestLine() int {
	longest := 0
	for _, s := range c.sides {
		for i := 0; i+1 < len(s.start); i++ {
			longest = max(longest, s.start[i+1]-s.start[i])
		}
	}
	return longest
}

// drawBlock draws the K entries of line i of side together from their
// Gaussian full conditional N(P^-1 b, P^-1),
//
//	P = Lambda + invSigma2 G G^T,  b = Lambda mu + invSigma2 G a,
//
// G the other factor's rows at the line's observed entries (K x n) and a
// their values (net of the offsets, with them), given the line's prior
// N(mu, Lambda^-1), which the caller has put into the worker's scratch:
// the lower triangle of Lambda (K x K, row-major) in scratch[:K*K] and
// Lambda mu in scratch[K*K:K*K+K]. With invSigma2 = 0 it draws from the
// prior. The gathered rows stay in the scratch after it, at K*K + 2K,
// followed, with offsets, by the values net of them.
func (c *gibbsChain) drawBlock(side *factorSide, wk *worker, i int, invSigma2 float64) error {
	k := c.k
	lo, hi := side.start[i], side.start[i+1]
	n := hi - lo
	pm := wk.scratch[:k*k]
	b := wk.scratch[k*k : k*k+k]
	e := wk.scratch[k*k+k : k*k+2*k]
	if n > 0 && invSigma2 != 0 {
		var vals []float64
		if side.pos == nil {
			_, vals = c.data.Row(i)
		} else {
			_, vals = c.data.Col(i)
		}
		if c.off != nil {
			vals = c.netOfOffsets(side, i, vals, wk.scratch[k*k+2*k+n*k:][:n])
		}
		g := wk.scratch[k*k+2*k:][:n*k]
		side.gather(g, lo, hi, k)
		// Two rows of the lower triangle at a time against four columns
		// (dots2x4), each dot product the number floats.Dot gives; each
		// element of the precision gets its one term.
		a := 0
		for ; a+1 < k; a += 2 {
			ga, ga1 := g[a*n:(a+1)*n], g[(a+1)*n:(a+2)*n]
			b[a] += invSigma2 * dot(ga, vals)
			b[a+1] += invSigma2 * dot(ga1, vals)
			row, row1 := pm[a*k:a*k+a+1], pm[(a+1)*k:(a+1)*k+a+2]
			bb := 0
			for ; bb+4 <= len(row); bb += 4 {
				d00, d01, d02, d03, d10, d11, d12, d13 := dots2x4(g[a*n:], g[bb*n:], n, n)
				row[bb] += invSigma2 * d00
				row[bb+1] += invSigma2 * d01
				row[bb+2] += invSigma2 * d02
				row[bb+3] += invSigma2 * d03
				row1[bb] += invSigma2 * d10
				row1[bb+1] += invSigma2 * d11
				row1[bb+2] += invSigma2 * d12
				row1[bb+3] += invSigma2 * d13
			}
			for ; bb < len(row); bb++ {
				gb := g[bb*n : (bb+1)*n]
				row[bb] += invSigma2 * dot(ga, gb)
				row1[bb] += invSigma2 * dot(ga1, gb)
			}
			row1[a+1] += invSigma2 * dot(ga1, ga1)
		}
		if a < k {
			ga := g[a*n : (a+1)*n]
			b[a] += invSigma2 * dot(ga, vals)
			row := pm[a*k : a*k+a+1]
			bb := 0
			for ; bb+4 <= len(row); bb += 4 {
				d0, d1, d2, d3 := dots4(ga, g[bb*n:], n)
				row[bb] += invSigma2 * d0
				row[bb+1] += invSigma2 * d1
				row[bb+2] += invSigma2 * d2
				row[bb+3] += invSigma2 * d3
			}
			for ; bb < len(row); bb++ {
				row[bb] += invSigma2 * dot(ga, g[bb*n:(bb+1)*n])
			}
		}
	}
	if !choleskyLower(pm, k) {
		return fmt.Errorf("bnmf: sweep %d: %s[%d]: the precision of the full conditional is not positive definite: %w",
			c.sweepNo, side.name, i, ErrNonFinite)
	}
	solveLower(pm, k, b)
	for a := range e {
		e[a] = b[a] + wk.rng.NormFloat64()
	}
	solveLowerT(pm, k, e)
	x := side.x[i*k : (i+1)*k]
	for a, v := range e {
		if !isFinite(v) {
			return fmt.Errorf("bnmf: sweep %d: %s[%d][%d] is %v: %w", c.sweepNo, side.name, i, a, v, ErrNonFinite)
		}
		x[a] = v
	}
	if side.x32 != nil {
		for a, v := range x {
			side.x32[i*k+a] = float32(v)
		}
	}
	return nil
}

// finishBlock completes the draw of line i of side by drawBlock: with
// offsets it draws the line's offset (rowOffset); a column of Z stores
// the exact residuals of its entries. A row of W leaves its residuals
// stale, so the lines of Z must be drawn by blocks too, which need none
// and leave every residual exact.
func (c *gibbsChain) finishBlock(side *factorSide, wk *worker, i int) {
	if c.off != nil {
		c.rowOffset(side, wk, i)
		return
	}
	if side.pos == nil {
		return
	}
	k := c.k
	x := side.x[i*k : (i+1)*k]
	if side.other32 != nil {
		// The gathered rows of W are still in the scratch, followed by
		// room for the column's residuals.
		n := side.start[i+1] - side.start[i]
		g := wk.scratch[k*k+2*k:][:n*k]
		c.exactResidualsFromGather(side, i, x, g, wk.scratch[k*k+2*k+n*k:][:n])
		return
	}
	c.exactResiduals(side, i, x)
}

// choleskyLower overwrites the lower triangle of the symmetric k x k
// matrix a (row-major; the upper triangle is neither read nor written)
// with L of a = L L^T, by the row-oriented Cholesky-Banachiewicz order,
// whose inner products run along contiguous rows. It reports false, with
// a partly overwritten, when a is not numerically positive definite or
// holds a non-finite value. It does not allocate.
func choleskyLower(a []float64, k int) bool {
	for j := range k {
		rj := a[j*k : j*k+j]
		d := a[j*k+j] - floats.Dot(rj, rj)
		if !(d > 0) || math.IsInf(d, 0) {
			return false
		}
		d = math.Sqrt(d)
		a[j*k+j] = d
		// Rows i of column j four at a time (dots4), each dot product
		// the number floats.Dot gives.
		i := j + 1
		for ; i+4 <= k; i += 4 {
			d0, d1, d2, d3 := dots4(rj, a[i*k:], k)
			a[i*k+j] = (a[i*k+j] - d0) / d
			a[(i+1)*k+j] = (a[(i+1)*k+j] - d1) / d
			a[(i+2)*k+j] = (a[(i+2)*k+j] - d2) / d
			a[(i+3)*k+j] = (a[(i+3)*k+j] - d3) / d
		}
		for ; i < k; i++ {
			a[i*k+j] = (a[i*k+j] - floats.Dot(a[i*k:i*k+j], rj)) / d
		}
	}
	return true
}

// solveLower overwrites x with L^-1 x for the lower triangle L of l
// (k x k, row-major), by forward substitution.
func solveLower(l []float64, k int, x []float64) {
	for i := range k {
		x[i] = (x[i] - floats.Dot(l[i*k:i*k+i], x[:i])) / l[i*k+i]
	}
}

// solveLowerT overwrites x with L^-T x for the lower triangle L of l
// (k x k, row-major), by back substitution along L's rows.
func solveLowerT(l []float64, k int, x []float64) {
	for i := k - 1; i >= 0; i-- {
		x[i] /= l[i*k+i]
		floats.AddScaled(x[:i], -x[i], l[i*k:i*k+i])
	}
}
