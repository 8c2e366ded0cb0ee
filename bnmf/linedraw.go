package bnmf

import "fmt"

// LineDraw chooses how the Gibbs sampler of a model with real-valued
// priors (GEG's, GVG's and GVnG's Z, GLL's and GLLI's W and Z) draws a
// line of a factor: a row of W, or the K entries z_1n, ..., z_Kn of
// column n of Z. Either way
// the chain has the model's posterior as its stationary law; the ways
// differ in how fast the chain moves through it and in the cost of a
// sweep.
type LineDraw int

const (
	// DrawEntries draws the K entries of a line one after another, each
	// from its one-dimensional normal full conditional given the others:
	// O(n K) for a line with n observed entries. It is the zero value.
	DrawEntries LineDraw = iota
	// DrawRows draws the K entries of a line together, as a block from
	// their K-dimensional normal full conditional (drawBlock): O(n K^2 +
	// K^3) for a line with n observed entries. When the other factor's
	// columns are nearly parallel, the entries of a line are strongly
	// correlated given the rest, and entry-by-entry draws cross the
	// posterior along that direction in small steps; a block draw does
	// not.
	DrawRows
)

// String returns the draw's name, as a study config spells it: "entries"
// or "rows".
func (d LineDraw) String() string { return choiceName(d, "LineDraw", "entries", "rows") }

// UnmarshalText sets d from its name, as String returns it.
func (d *LineDraw) UnmarshalText(text []byte) error {
	c, err := parseChoice[LineDraw](text, "line draw", DrawEntries.String(), DrawRows.String())
	if err == nil {
		*d = c
	}
	return err
}

// check returns an error that names the model and its field unless d is
// DrawEntries or DrawRows.
func (d LineDraw) check(model, field string) error {
	return checkChoice(d, model, field, "DrawEntries", "DrawRows")
}

// lineDrawParam is the Param of a LineDraw field, with the given config
// key, field name and doc. Its default stays out of config hashes
// (OmitDefault): the option came after studies had run, and "entries"
// is the sampler they ran.
func lineDrawParam(key, field, doc string) Param {
	return choiceParam(key, field, doc, DrawEntries.String(), DrawRows.String())
}

// drawLinesAsBlocks makes the chain of model draw each row of W (with w)
// and each column of Z (with z) as a block from its K-dimensional normal
// full conditional (updateBlock) in place of entry by entry. Such a side
// needs a realPrior whose lines are independent given their
// hyperparameters (not a sequentialPrior): its natural parameters are
// then the diagonal of the line's prior precision and its linear term.
// The rows of W by blocks need the columns of Z by blocks too: a row of W
// drawn as a block leaves its residuals stale (finishBlock), which the
// entry-by-entry draws of Z would read.
func (c *gibbsChain) drawLinesAsBlocks(model string, w, z bool) error {
	if w && !z {
		return fmt.Errorf("bnmf: %s: the rows of W drawn as blocks need the columns of Z drawn as blocks too", model)
	}
	for s, on := range [2]bool{w, z} {
		if !on {
			continue
		}
		side := &c.sides[s]
		if !side.real || side.seq != nil {
			return fmt.Errorf("bnmf: %s: the lines of %s cannot be drawn as blocks: their prior is not a Gaussian (or scale mixture of Gaussians) independent across lines", model, side.name)
		}
		side.block = true
		side.line = func(wk *worker, i int) error { return c.updateBlock(side, wk, i, c.invSigma2) }
		c.blocks = true
	}
	return nil
}

// updateBlock draws line i of side as a block from its normal full
// conditional given sigma^2 = 1/invSigma2, the other factor and the
// line's hyperparameters, whose prior has the natural parameters
// (prec_ik, lin_ik) of side.prior for each entry k:
//
//	P = diag(prec_i1, ..., prec_iK) + invSigma2 sum_j g_j g_j^T,
//	mean P^-1 (lin_i + invSigma2 sum_j a_ij g_j),
//
// the sums over the line's observed entries j, g_j the other factor's
// line there (drawBlock). It then draws the line's offset and stores the
// residuals of a column of Z (finishBlock), and last draws the line's
// hyperparameters given its new values, as updateLine does after its
// entries.
func (c *gibbsChain) updateBlock(side *factorSide, wk *worker, i int, invSigma2 float64) error {
	k := c.k
	pm, b := wk.scratch[:k*k], wk.scratch[k*k:k*k+k]
	for a := range k {
		clear(pm[a*k : a*k+a])
		pm[a*k+a], b[a] = side.prior.natural(i, a)
	}
	if err := c.drawBlock(side, wk, i, invSigma2); err != nil {
		return err
	}
	c.finishBlock(side, wk, i)
	x := side.x[i*k : (i+1)*k]
	if bad := side.prior.updateLine(i, x, wk.rng); bad >= 0 {
		return fmt.Errorf("bnmf: sweep %d: hyperparameters of %s[%d][%d] left their support (x = %g): %w",
			c.sweepNo, side.name, i, bad, x[bad], ErrNonFinite)
	}
	return nil
}
