package bnmf

// factorization is the part of a chain's state common to every model: the
// data, the factors W (M x K) and Z (stored transposed, N x K), and the
// residuals a_mn - w_m . z_n of the observed entries in row-major order.
type factorization struct {
	data      *Matrix
	k         int
	w, zt     []float64
	resid     []float64
	lineSS    []float64 // per-row sum of squared residuals
	residLine lineFunc  // bound residualsOfRow, set once
	ssLine    lineFunc  // bound squaresOfRow, set once
	// off holds the offsets mu + b_i + c_j (Biased), nil without them;
	// the residuals are then net of them too.
	off *offsets
}

func newFactorization(data *Matrix, k int) factorization {
	m, n := data.Dims()
	f := factorization{
		data:   data,
		k:      k,
		w:      make([]float64, m*k),
		zt:     make([]float64, n*k),
		resid:  make([]float64, data.Len()),
		lineSS: make([]float64, m),
	}
	// The sweeps reach rows of the factors and residuals in random
	// order; see backWithHugePages.
	backWithHugePages(f.w)
	backWithHugePages(f.zt)
	backWithHugePages(f.resid)
	return f
}

// factorSide is one factor matrix seen from the data: W with the rows of
// A, or Z (stored transposed, N x K) with the columns of A.
type factorSide struct {
	name  string    // "W" or "Z", for error messages
	x     []float64 // lines x K, row-major
	other []float64 // the other factor, also row-major with K columns
	start []int     // line i's entries are [start[i], start[i+1])
	index []int32   // for each entry, the line of the other factor
	pos   []int32   // for each entry, its row-major position; nil for rows
	prior prior
	line  lineFunc // bound update of one line, set once
	// real is set when prior is a realPrior, whose entries are drawn
	// from untruncated normals; global is prior as a globalPrior, or nil.
	real   bool
	global globalPrior
	// seq is prior as a sequentialPrior, or nil: the side's lines are
	// then updated one after another in line order.
	seq sequentialPrior
	// block is set when a gibbsChain draws each line as a block
	// (drawLinesAsBlocks) rather than entry by entry.
	block bool

	// With Settings.Float32Factors: float32 copies of x and of other,
	// the one written as x changes, the other read by the gather.
	x32, other32 []float32

	// With offsets (Biased): bias is b for W or c for Z, one per line,
	// and biasTau points at its precision tau_b or tau_c; nil without.
	bias    []float64
	biasTau *float64
}

// entry returns the row-major position of the side's p-th stored entry,
// where the residuals and the values of A are kept.
func (s *factorSide) entry(p int) int {
	if s.pos != nil {
		return int(s.pos[p])
	}
	return p
}

// gather copies the other factor's values at the entries [lo, hi) of one
// line into g, transposed so that each latent dimension is contiguous:
// g[kk*n+q] = other[index[lo+q]][kk] with n = hi - lo, from the float32
// copy other32 when the side has one (Settings.Float32Factors).
func (s *factorSide) gather(g []float64, lo, hi, k int) {
	if s.other32 != nil {
		gatherRows(g, s.index[lo:hi], s.other32, k)
	} else {
		gatherRows64(g, s.index[lo:hi], s.other, k)
	}
}

// gatherRows copies rows idx of other (K columns) into g transposed:
// g[kk*n+q] = other[idx[q]][kk] with n = len(idx). Four rows are copied at
// a time so that every store fills consecutive elements of g; one row at a
// time, the K stores of a row land n elements apart and the copy is bound
// by cache traffic.
func gatherRows[T float32 | float64](g []float64, idx []int32, other []T, k int) {
	n := len(idx)
	g = g[:n*k]
	q := 0
	for ; q+4 <= n; q += 4 {
		o0 := other[int(idx[q])*k:][:k]
		o1 := other[int(idx[q+1])*k:][:k]
		o2 := other[int(idx[q+2])*k:][:k]
		o3 := other[int(idx[q+3])*k:][:k]
		// b = kk*n + q, stepped rather than multiplied, and the stores
		// indexed rather than sliced: 4% off a GRRN K = 50 sweep on the
		// 100K shape (interleaved benchmark runs).
		b := q
		for kk := range k {
			_ = g[b+3]
			g[b], g[b+1], g[b+2], g[b+3] = float64(o0[kk]), float64(o1[kk]), float64(o2[kk]), float64(o3[kk])
			b += n
		}
	}
	for ; q < n; q++ {
		o := other[int(idx[q])*k:][:k]
		for kk, v := range o {
			g[kk*n+q] = float64(v)
		}
	}
}

// newSides returns W (with the rows of A) and Z (with its columns), with
// priors pw and pz, each bound to update, the chain's update of one line.
func (f *factorization) newSides(pw, pz prior, update func(*factorSide, *worker, int) error) *[2]factorSide {
	rowStart, rowCol, _ := f.data.RowStorage()
	colStart, colRow, colPos := f.data.ColStorage()
	sides := &[2]factorSide{
		{name: "W", x: f.w, other: f.zt, start: rowStart, index: rowCol, prior: pw},
		{name: "Z", x: f.zt, other: f.w, start: colStart, index: colRow, pos: colPos, prior: pz},
	}
	for s := range sides {
		side := &sides[s]
		side.line = func(wk *worker, i int) error { return update(side, wk, i) }
		_, side.real = side.prior.(realPrior)
		side.global, _ = side.prior.(globalPrior)
		side.seq, _ = side.prior.(sequentialPrior)
	}
	return sides
}

// residualsOfRow recomputes the residuals of row i exactly, so that the
// rounding errors of incremental updates never accumulate, and stores
// their sum of squares.
func (f *factorization) residualsOfRow(_ *worker, i int) error {
	k := f.k
	cols, vals := f.data.Row(i)
	start, _, _ := f.data.RowStorage()
	lo := start[i]
	wi := f.w[i*k : (i+1)*k]
	var ss float64
	if f.off != nil {
		for q, j := range cols {
			r := vals[q] - f.off.at(i, int(j)) - dot(wi, f.zt[int(j)*k:(int(j)+1)*k])
			f.resid[lo+q] = r
			ss += r * r
		}
		f.lineSS[i] = ss
		return nil
	}
	// Four entries at a time (their dot products side by side), the
	// residuals and their squares summed in the entries' order.
	resid := f.resid[lo : lo+len(cols)]
	q := 0
	for ; q+3 < len(cols); q += 4 {
		d0, d1, d2, d3 := dotsRows4(wi, f.zt, int(cols[q])*k, int(cols[q+1])*k, int(cols[q+2])*k, int(cols[q+3])*k)
		r0, r1, r2, r3 := vals[q]-d0, vals[q+1]-d1, vals[q+2]-d2, vals[q+3]-d3
		resid[q], resid[q+1], resid[q+2], resid[q+3] = r0, r1, r2, r3
		ss += r0 * r0
		ss += r1 * r1
		ss += r2 * r2
		ss += r3 * r3
	}
	for ; q < len(cols); q++ {
		r := vals[q] - dot(wi, f.zt[int(cols[q])*k:(int(cols[q])+1)*k])
		resid[q] = r
		ss += r * r
	}
	f.lineSS[i] = ss
	return nil
}

// recomputeResiduals refreshes every residual and the per-row sums of
// squares on the pool.
func (f *factorization) recomputeResiduals(p *pool, sweep int) error {
	if f.residLine == nil {
		f.residLine = f.residualsOfRow
	}
	return p.run(f.residLine, len(f.lineSS), sweep, phaseOther)
}

// squaresOfRow stores the sum of squares of row i's residuals, summed in
// the order residualsOfRow sums them. With offsets it first moves the
// residuals by the pending change of mu (offsets.shift).
func (f *factorization) squaresOfRow(_ *worker, i int) error {
	start, _, _ := f.data.RowStorage()
	var ss float64
	if f.off != nil {
		d := f.off.shift
		r := f.resid[start[i]:start[i+1]]
		for q, v := range r {
			v -= d
			r[q] = v
			ss += v * v
		}
		f.lineSS[i] = ss
		return nil
	}
	for _, r := range f.resid[start[i]:start[i+1]] {
		ss += r * r
	}
	f.lineSS[i] = ss
	return nil
}

// sumSquares refreshes the per-row sums of squared residuals on the pool,
// for residuals that are already exact.
func (f *factorization) sumSquares(p *pool, sweep int) error {
	if f.ssLine == nil {
		f.ssLine = f.squaresOfRow
	}
	return p.run(f.ssLine, len(f.lineSS), sweep, phaseOther)
}

// trainSS returns the sum of squared residuals, summed in row order so
// that it does not depend on the number of workers.
func (f *factorization) trainSS() float64 {
	var ss float64
	for _, v := range f.lineSS {
		ss += v
	}
	return ss
}

func (f *factorization) factors() (w, zt []float64) { return f.w, f.zt }
