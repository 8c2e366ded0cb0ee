package bnmf

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// poissonChain is the Gibbs sampler of the Poisson models PGG and PGGG
// (Brouwer and Lio 2017): a_mn ~ Poi(w_m . z_n) over the observed entries,
// w_mk ~ Gamma(a, r_m) and z_nk ~ Gamma(a, r_n) (shape, rate), with the
// rates r fixed at b (PGG) or drawn per row of W and column of Z from
// Gamma(a', a'/b') (PGGG).
//
// The latent-count augmentation (Cemgil 2009; Zhou, Hannah, Dunson and
// Carin 2012) splits each count a_mn into a_mnk ~ Poi(w_mk z_nk), sum over
// k equal to a_mn; given a_mn the split is Multinomial(a_mn, p) with
// p_k proportional to w_mk z_nk, and given the split every factor's
// conditional is Gamma:
//
//	w_mk | ... ~ Gamma(a + sum_n a_mnk, r_m + sum_n z_nk),
//
// both sums over the observed entries of row m (and alike for z_nk and
// column n). A sweep draws the split of every count given W and Z, W
// given the split and Z, then Z given the split and W, as Brouwer and
// Lio's sampler does. The split itself is never stored, only what the
// conditionals need: the row tallies sum_n a_mnk, drawn and used by one
// row's update, and the column tallies sum_m a_mnk, which the rows add to
// a copy per worker (N x K floats each, in the worker's scratch space)
// summed into colTally after the rows. The tallies are integers, so
// these sums are exact whatever the order in which the workers took the
// rows, and the chain is the same for any number of workers.
//
// Drawing the split: a Multinomial(a_mn, p) is the tally of a_mn
// independent categorical draws; each is drawn by inversion, the first k
// whose cumulative sum c_k = sum_(l<=k) w_ml z_nl exceeds u c_K with u
// uniform on [0, 1), found by binary search. A row costs O(|Omega_m| K +
// a_m. log K) for a_m. the sum of its counts, a column O(|Omega_n| K); a
// sweep O(|Omega| K + sum a log K), allocation-free.
type poissonChain struct {
	data  *Matrix
	k     int
	w, zt []float64
	// a is the shape of the factors' Gamma priors, b their rate (PGG).
	a, b float64
	// hier is set for PGGG: rates h per row of W and column of Z, with
	// hyperprior Gamma(ap, apOverBp).
	hier         bool
	ap, apOverBp float64
	sides        [2]poissonSide
	// colTally holds the column tallies sum_m a_mnk of the current split,
	// N x K.
	colTally []float64
	// colSS and colLL are, per column of A, the sum of squared residuals
	// and sum of a_mn log(w_m . z_n) - w_m . z_n over its entries, for the
	// state at the end of the sweep; logFactorials is the sum of
	// log(a_mn!) over all training entries.
	colSS, colLL  []float64
	logFactorials float64
	sweepNo       int
}

// poissonSide is one factor matrix seen from the data (see factorSide).
type poissonSide struct {
	name     string
	x, other []float64
	// h holds the line's Gamma rate (PGGG); nil for PGG.
	h []float64
	// lineOf returns the indices into other and the values of line i's
	// entries (data.Row or data.Col).
	lineOf func(i int) ([]int32, []float64)
	lines  int
	line   lineFunc
	// cols is set for the side of Z: its update also refreshes colSS and
	// colLL.
	cols bool
}

// newPoissonChain returns the chain on data at rank k; hier selects PGGG.
// data must hold counts (checkCounts).
func newPoissonChain(data *Matrix, k int, a, b float64, hier bool, ap, bp float64) *poissonChain {
	m, n := data.Dims()
	c := &poissonChain{
		data:     data,
		k:        k,
		w:        make([]float64, m*k),
		zt:       make([]float64, n*k),
		a:        a,
		b:        b,
		hier:     hier,
		ap:       ap,
		apOverBp: ap / bp,
		colTally: make([]float64, n*k),
		colSS:    make([]float64, n),
		colLL:    make([]float64, n),
	}
	c.sides = [2]poissonSide{
		{name: "W", x: c.w, other: c.zt, lines: m},
		{name: "Z", x: c.zt, other: c.w, lines: n, cols: true},
	}
	c.setData(data)
	for s := range c.sides {
		side := &c.sides[s]
		if hier {
			side.h = make([]float64, side.lines)
		}
		side.line = func(wk *worker, i int) error { return c.updateLine(side, wk, i) }
	}
	return c
}

// setData makes data, of the chain's shape, the training data.
func (c *poissonChain) setData(data *Matrix) {
	c.data = data
	c.sides[0].lineOf, c.sides[1].lineOf = data.Row, data.Col
	_, _, values := data.RowStorage()
	c.logFactorials = 0
	for _, v := range values {
		lf, _ := math.Lgamma(v + 1)
		c.logFactorials += lf
	}
}

// scratchSize is three K-vectors, the cumulative products of one entry,
// the line's tallies and the line's rate sums, the worker's N x K column
// tallies, and three more K-vectors, the cumulative products of three
// more entries.
func (c *poissonChain) scratchSize() int { return 6*c.k + len(c.colTally) }

// init draws the rates h (PGGG) and the factors from their priors, then
// the end-of-sweep statistics of that state.
func (c *poissonChain) init(p *pool) error {
	for s := range c.sides {
		side := &c.sides[s]
		fn := func(wk *worker, i int) error {
			rate := c.b
			if side.h != nil {
				rate = gammaRand(wk.rng, c.ap, c.apOverBp)
				side.h[i] = rate
				if !(rate >= 0 && rate <= math.MaxFloat64) {
					return fmt.Errorf("bnmf: initial rate h of %s line %d is %v: %w", side.name, i, rate, ErrNonFinite)
				}
			}
			x := side.x[i*c.k : (i+1)*c.k]
			for kk := range x {
				x[kk] = gammaRand(wk.rng, c.a, rate)
				if !(x[kk] >= 0 && x[kk] <= math.MaxFloat64) {
					return fmt.Errorf("bnmf: initial %s[%d][%d] is %v: %w", side.name, i, kk, x[kk], ErrNonFinite)
				}
			}
			return nil
		}
		if err := p.run(fn, side.lines, 0, s); err != nil {
			return err
		}
	}
	return p.run(func(_ *worker, j int) error { c.columnStats(j); return nil }, c.sides[1].lines, 0, phaseOther)
}

// sweep splits every count and updates every row of W, sums the
// workers' column tallies, then updates every column of Z.
func (c *poissonChain) sweep(p *pool, s int) error {
	c.sweepNo = s
	rows, cols := &c.sides[0], &c.sides[1]
	if err := p.run(rows.line, rows.lines, s, phaseW); err != nil {
		return err
	}
	clear(c.colTally)
	for _, wk := range p.workers {
		mine := wk.scratch[3*c.k:][:len(c.colTally)]
		for e, v := range mine {
			c.colTally[e] += v
		}
		clear(mine)
	}
	return p.run(cols.line, cols.lines, s, phaseZ)
}

// updateLine updates line i: for a row of W it draws the split of the
// row's counts (adding the column tallies to the worker's copy), for a
// column of Z it takes the column tallies of colTally; then it draws the
// line's factors from their Gamma conditionals and, for PGGG, the line's
// rate h_i from Gamma(a' + K a, a'/b' + sum_k x_ik).
func (c *poissonChain) updateLine(side *poissonSide, wk *worker, i int) error {
	k := c.k
	x := side.x[i*k : (i+1)*k]
	rates := wk.scratch[2*k : 3*k]
	clear(rates)
	idx, vals := side.lineOf(i)
	var tally []float64
	if side.cols {
		tally = c.colTally[i*k : (i+1)*k]
		for _, o := range idx {
			// rates[kk] + 1*v is rates[kk] + v, as the loop
			// rates[kk] += v adds.
			lineAxpy(rates, 1, side.other[int(o)*k:][:k])
		}
	} else {
		cum := wk.scratch[:k]
		cums := wk.scratch[3*k+len(c.colTally):][:3*k]
		cum1, cum2, cum3 := cums[:k], cums[k:2*k], cums[2*k:]
		tally = wk.scratch[k : 2*k]
		clear(tally)
		colTally := wk.scratch[3*k:][:len(c.colTally)]
		// Four entries at a time: the cumulative sums of each are a chain
		// of K dependent additions, and four chains run side by side; the
		// rate sums take the four rows in the entries' order (adding 1*v
		// adds v). Each sum, each rate sum and the order of the splits
		// (and so of the random numbers) are those of one entry at a time.
		x, rates := x[:k], rates[:k]
		cum, cum1, cum2, cum3 = cum[:len(x)], cum1[:len(x)], cum2[:len(x)], cum3[:len(x)]
		q := 0
		for ; q+3 < len(idx); q += 4 {
			o0, o1 := side.other[int(idx[q])*k:][:k], side.other[int(idx[q+1])*k:][:k]
			o2, o3 := side.other[int(idx[q+2])*k:][:k], side.other[int(idx[q+3])*k:][:k]
			lineAxpy(rates, 1, o0)
			lineAxpy(rates, 1, o1)
			lineAxpy(rates, 1, o2)
			lineAxpy(rates, 1, o3)
			o0, o1, o2, o3 = o0[:len(x)], o1[:len(x)], o2[:len(x)], o3[:len(x)]
			var s0, s1, s2, s3 float64
			for kk, xk := range x {
				s0 += xk * o0[kk]
				cum[kk] = s0
				s1 += xk * o1[kk]
				cum1[kk] = s1
				s2 += xk * o2[kk]
				cum2[kk] = s2
				s3 += xk * o3[kk]
				cum3[kk] = s3
			}
			for e, ce := range [4][]float64{cum, cum1, cum2, cum3} {
				if err := c.splitEntry(side, wk, i, q+e, idx[q+e], vals[q+e], ce, tally, colTally); err != nil {
					return err
				}
			}
		}
		for ; q < len(idx); q++ {
			var s float64
			for kk, v := range side.other[int(idx[q])*k:][:k] {
				rates[kk] += v
				s += x[kk] * v
				cum[kk] = s
			}
			if err := c.splitEntry(side, wk, i, q, idx[q], vals[q], cum, tally, colTally); err != nil {
				return err
			}
		}
	}
	rate := c.b
	if side.h != nil {
		rate = side.h[i]
	}
	var sum float64
	for kk := range x {
		v := gammaRand(wk.rng, c.a+tally[kk], rate+rates[kk])
		if !(v >= 0 && v <= math.MaxFloat64) {
			return fmt.Errorf("bnmf: sweep %d: %s[%d][%d]: Gamma(%g, %g) gave %v: %w", c.sweepNo, side.name, i, kk, c.a+tally[kk], rate+rates[kk], v, ErrNonFinite)
		}
		x[kk] = v
		sum += v
	}
	if side.h != nil {
		h := gammaRand(wk.rng, c.ap+float64(k)*c.a, c.apOverBp+sum)
		if !(h > 0 && h <= math.MaxFloat64) {
			return fmt.Errorf("bnmf: sweep %d: rate h of %s line %d is %v: %w", c.sweepNo, side.name, i, h, ErrNonFinite)
		}
		side.h[i] = h
	}
	if side.cols {
		c.columnStats(i)
	}
	return nil
}

// splitEntry splits the count y of entry q (other line o) of line i of
// side, whose cumulative products are cum, adding the split to the line's
// tally and to the column tallies colTally (N x K); a count of 0 has
// nothing to split.
func (c *poissonChain) splitEntry(side *poissonSide, wk *worker, i, q int, o int32, y float64, cum, tally, colTally []float64) error {
	if y == 0 {
		return nil
	}
	k := c.k
	if s := cum[k-1]; !(s > 0 && s <= math.MaxFloat64) {
		return fmt.Errorf("bnmf: sweep %d: %s line %d: the rate of entry %d is %v but its count is %v: %w", c.sweepNo, side.name, i, q, s, y, ErrNonFinite)
	}
	splitCount(&wk.pcg, cum, int(y), tally, colTally[int(o)*k:][:k])
	return nil
}

// splitCount adds to tally and to tally2 the split of a count y over the
// K categories with cumulative weights cum (nondecreasing, cum[K-1] > 0):
// y categorical draws, each the first k with cum[k] > u cum[K-1] for u
// uniform on [0, 1) (u cum[K-1] can round up to cum[K-1] with
// probability about 2^-53, which then counts for the last category). u
// is drawn from src as rand.Rand.Float64 draws it, without the call
// through the Source interface. The search bisects without a branch on
// the comparison (a conditional move), which the processor cannot
// mispredict: with a branch, it took two thirds of a K = 10 sweep's time
// on the 100K shape. (Counting the k < K-1 with cum[k] <= u, each
// comparison independent of the others, took as long at K = 10: 27 ns
// for three draws either way, in CPU time.)
func splitCount(src *rand.PCG, cum []float64, y int, tally, tally2 []float64) {
	total := cum[len(cum)-1]
	for range y {
		u := float64(src.Uint64()<<11>>11) / (1 << 53) * total
		// The answer lies in [k, k+n); each step halves n.
		k, n := 0, len(cum)
		for n > 1 {
			half := n >> 1
			k += half * b2i(cum[k+half-1] <= u)
			n -= half
		}
		tally[k]++
		tally2[k]++
	}
}

// b2i returns 1 for true and 0 for false, without a branch.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// columnStats stores column j's sum of squared residuals and its part of
// the log-likelihood, sum a log(mu) - mu over its entries with mu =
// w_m . z_j.
func (c *poissonChain) columnStats(j int) {
	k := c.k
	zj := c.zt[j*k : (j+1)*k]
	rows, vals := c.data.Col(j)
	var ss, ll float64
	add := func(y, mu float64) {
		d := y - mu
		ss += d * d
		if y > 0 {
			ll += y * math.Log(mu)
		}
		ll -= mu
	}
	// The predictions of four entries at a time, four chains of K
	// dependent additions side by side, each summed in the order of one
	// at a time; ss and ll take them in the entries' order.
	q := 0
	for ; q+3 < len(rows); q += 4 {
		w0, w1 := c.w[int(rows[q])*k:][:k], c.w[int(rows[q+1])*k:][:k]
		w2, w3 := c.w[int(rows[q+2])*k:][:k], c.w[int(rows[q+3])*k:][:k]
		var mu0, mu1, mu2, mu3 float64
		for kk, v := range zj {
			mu0 += w0[kk] * v
			mu1 += w1[kk] * v
			mu2 += w2[kk] * v
			mu3 += w3[kk] * v
		}
		add(vals[q], mu0)
		add(vals[q+1], mu1)
		add(vals[q+2], mu2)
		add(vals[q+3], mu3)
	}
	for ; q < len(rows); q++ {
		wr := c.w[int(rows[q])*k:][:k]
		var mu float64
		for kk, v := range zj {
			mu += wr[kk] * v
		}
		add(vals[q], mu)
	}
	c.colSS[j], c.colLL[j] = ss, ll
}

// trainSS returns the sum of squared residuals, summed in column order.
func (c *poissonChain) trainSS() float64 {
	var ss float64
	for _, v := range c.colSS {
		ss += v
	}
	return ss
}

// logLikelihood returns the Poisson log-likelihood of the training
// entries, sum a log(mu) - mu - log(a!).
func (c *poissonChain) logLikelihood() float64 {
	var ll float64
	for _, v := range c.colLL {
		ll += v
	}
	return ll - c.logFactorials
}

func (c *poissonChain) factors() (w, zt []float64) { return c.w, c.zt }
func (c *poissonChain) noiseVariance() float64     { return 0 }
func (c *poissonChain) pointEstimate() bool        { return false }
func (c *poissonChain) static() bool               { return false }
func (c *poissonChain) family() Family             { return Poisson }
