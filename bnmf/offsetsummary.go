package bnmf

import (
	"fmt"
	"math"
	"strings"
)

// OffsetSummary holds the posterior summaries of the offsets of a model
// with biases (Biased) over the kept sweeps, in the data's units.
type OffsetSummary struct {
	// Mu and MuSD are the posterior mean and standard deviation of the
	// overall level mu.
	Mu, MuSD float64
	// B and BSD (one per row), C and CSD (one per column) are those of
	// the row offsets b_i and the column offsets c_j.
	B, BSD, C, CSD []float64
	// TauB and TauC are the posterior means of the offsets' precisions.
	TauB, TauC float64
	// EmptyRows and EmptyCols count the rows and columns with no
	// training entry, whose offsets are drawn from their prior
	// N(0, 1/tau) alone: their posterior mean is near 0 and their
	// standard deviation near 1/sqrt(tau).
	EmptyRows, EmptyCols int
}

// offsetAcc accumulates the offsets' kept draws: running means and sums
// of squared deviations (Welford 1962) of mu, b and c, sums of tau_b and
// tau_c.
type offsetAcc struct {
	n              int
	mu, muM2       float64
	b, bM2, c, cM2 []float64
	tauB, tauC     float64
}

func newOffsetAcc(o *offsets) *offsetAcc {
	return &offsetAcc{b: make([]float64, len(o.b)), bM2: make([]float64, len(o.b)), c: make([]float64, len(o.c)), cM2: make([]float64, len(o.c))}
}

// welford folds x into the running means and sums of squared deviations
// after n-1 values.
func welford(mean, m2, x []float64, n float64) {
	for i, v := range x {
		d := v - mean[i]
		mean[i] += d / n
		m2[i] += d * (v - mean[i])
	}
}

// add folds the current offsets in.
func (a *offsetAcc) add(o *offsets) {
	a.n++
	n := float64(a.n)
	d := o.mu - a.mu
	a.mu += d / n
	a.muM2 += d * (o.mu - a.mu)
	welford(a.b, a.bM2, o.b, n)
	welford(a.c, a.cM2, o.c, n)
	a.tauB += o.tauB
	a.tauC += o.tauC
}

// summary returns the accumulated summaries of the offsets on train.
func (a *offsetAcc) summary(train *Matrix) *OffsetSummary {
	inv := 1 / float64(a.n)
	sd := func(m2 []float64) []float64 {
		s := make([]float64, len(m2))
		for i, v := range m2 {
			s[i] = math.Sqrt(v * inv)
		}
		return s
	}
	rows, cols := emptyCounts(train)
	return &OffsetSummary{
		Mu: a.mu, MuSD: math.Sqrt(a.muM2 * inv),
		B: a.b, BSD: sd(a.bM2), C: a.c, CSD: sd(a.cM2),
		TauB: a.tauB * inv, TauC: a.tauC * inv,
		EmptyRows: rows, EmptyCols: cols,
	}
}

// at returns the posterior mean of mu + b_i + c_j.
func (s *OffsetSummary) at(i, j int) float64 { return s.Mu + s.B[i] + s.C[j] }

// emptyCounts counts the rows and columns of train with no entry.
func emptyCounts(train *Matrix) (rows, cols int) {
	m, n := train.Dims()
	for i := range m {
		if c, _ := train.Row(i); len(c) == 0 {
			rows++
		}
	}
	for j := range n {
		if r, _ := train.Col(j); len(r) == 0 {
			cols++
		}
	}
	return rows, cols
}

// poolOffsets combines the chains' offset summaries, equally weighted:
// the means' mean, and by the law of total variance the mean of the
// variances plus the variance of the means.
func poolOffsets(rs []*Result) *OffsetSummary {
	first := rs[0].Offsets
	if first == nil {
		return nil
	}
	inv := 1 / float64(len(rs))
	p := &OffsetSummary{
		B: make([]float64, len(first.B)), BSD: make([]float64, len(first.B)),
		C: make([]float64, len(first.C)), CSD: make([]float64, len(first.C)),
		EmptyRows: first.EmptyRows, EmptyCols: first.EmptyCols,
	}
	var muVar float64
	for _, r := range rs {
		o := r.Offsets
		p.Mu += o.Mu * inv
		muVar += o.MuSD * o.MuSD * inv
		p.TauB += o.TauB * inv
		p.TauC += o.TauC * inv
		for i := range p.B {
			p.B[i] += o.B[i] * inv
			p.BSD[i] += o.BSD[i] * o.BSD[i] * inv
		}
		for j := range p.C {
			p.C[j] += o.C[j] * inv
			p.CSD[j] += o.CSD[j] * o.CSD[j] * inv
		}
	}
	for _, r := range rs {
		o := r.Offsets
		d := o.Mu - p.Mu
		muVar += d * d * inv
		for i := range p.B {
			d := o.B[i] - p.B[i]
			p.BSD[i] += d * d * inv
		}
		for j := range p.C {
			d := o.C[j] - p.C[j]
			p.CSD[j] += d * d * inv
		}
	}
	p.MuSD = math.Sqrt(muVar)
	for i, v := range p.BSD {
		p.BSD[i] = math.Sqrt(v)
	}
	for j, v := range p.CSD {
		p.CSD[j] = math.Sqrt(v)
	}
	return p
}

// rescale maps the summaries of values divided by s back to the values'
// units.
func (o *OffsetSummary) rescale(s float64) {
	o.Mu *= s
	o.MuSD *= s
	for _, x := range [][]float64{o.B, o.BSD, o.C, o.CSD} {
		for i := range x {
			x[i] *= s
		}
	}
	o.TauB /= s * s
	o.TauC /= s * s
}

// offsetWarning says how many rows and columns take their offsets from
// the prior alone, or "" when none do.
func offsetWarning(o *OffsetSummary, m, n int) string {
	if o == nil || o.EmptyRows+o.EmptyCols == 0 {
		return ""
	}
	return fmt.Sprintf("offsets: %d of %d rows and %d of %d columns have no training entries; their offsets b_i, c_j come from the prior N(0, 1/tau) alone", o.EmptyRows, m, o.EmptyCols, n)
}

// caughtOffsetsLimit is how far, in standard deviations of the training
// values, a posterior mean offset may lie from the mean of its side's
// offsets before caughtOffsetsWarning names it. Offsets that explain
// ratings lie within a few such deviations; one ten beyond the mean is
// cancelled by the factors rather than fitted.
const caughtOffsetsLimit = 10

// caughtOffsetsWarning names the row offset and the column offset
// farthest from their side's mean, each when it lies more than
// caughtOffsetsLimit standard deviations sd of the training values from
// it, or returns "": the sign of a chain whose offsets and factors cancel
// each other (as a start drawn far out can leave them), which fits the
// training entries as well as any and predicts held-out entries of that
// line far off, without the noise's sigma^2 showing it. Lines are
// numbered from 0 in the order of the training matrix, and the offsets
// and sd are in the units the chain was fitted in: under standardize,
// the values divided by their standard deviation. (Stored records hold
// this text, which bnmf verify compares; a change of its wording is a
// change of every record that carries it.)
func caughtOffsetsWarning(o *OffsetSummary, sd float64) string {
	if o == nil || !(sd > 0) {
		return ""
	}
	far := func(x []float64) (int, float64) {
		if len(x) == 0 {
			return -1, 0
		}
		mean := 0.0
		for _, v := range x {
			mean += v
		}
		mean /= float64(len(x))
		at, dev := -1, 0.0
		for i, v := range x {
			if d := math.Abs(v - mean); d > dev {
				at, dev = i, d
			}
		}
		return at, dev / sd
	}
	var parts []string
	if i, d := far(o.B); d > caughtOffsetsLimit {
		parts = append(parts, fmt.Sprintf("row %d's b_i %.3g", i, o.B[i]))
	}
	if j, d := far(o.C); d > caughtOffsetsLimit {
		parts = append(parts, fmt.Sprintf("column %d's c_j %.3g", j, o.C[j]))
	}
	if len(parts) == 0 {
		return ""
	}
	return fmt.Sprintf("offsets: %s lie more than %d standard deviations of the training values (%.3g) from their side's mean offset; the factors may be cancelling them, and held-out entries of that line may be predicted far off", strings.Join(parts, " and "), caughtOffsetsLimit, sd)
}
