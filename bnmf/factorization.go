package bnmf

import "gonum.org/v1/gonum/floats"

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
	return f
}

// residualsOfRow recomputes the residuals of row i exactly, so that the
// rounding errors of incremental updates never accumulate, and stores
// their sum of squares.
func (f *factorization) residualsOfRow(_ *worker, i int) error {
	k := f.k
	cols, vals := f.data.Row(i)
	lo := f.data.rowStart[i]
	wi := f.w[i*k : (i+1)*k]
	var ss float64
	for q, j := range cols {
		r := vals[q] - floats.Dot(wi, f.zt[int(j)*k:(int(j)+1)*k])
		f.resid[lo+q] = r
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
