package report

import (
	"math"

	"gonum.org/v1/gonum/stat"
)

// Stat summarises one metric over the repeats of a group. Only finite
// values enter the statistics; the others (including the +-MaxFloat64 the
// store writes for NaN and infinities) are counted in NonFinite.
type Stat struct {
	// N counts the finite values the statistics are computed from.
	N int
	// NonFinite counts the values left out because they were NaN or
	// infinite.
	NonFinite int
	// Mean is the sample mean, NaN when N is 0.
	Mean float64
	// SD is the sample standard deviation (divisor N-1) and SE = SD/√N the
	// standard error of the mean; both are NaN when N < 2.
	SD, SE float64
}

// newStat summarises xs.
func newStat(xs []float64) Stat {
	s := Stat{Mean: math.NaN(), SD: math.NaN(), SE: math.NaN()}
	finite := make([]float64, 0, len(xs))
	for _, x := range xs {
		if isFinite(x) {
			finite = append(finite, x)
		} else {
			s.NonFinite++
		}
	}
	s.N = len(finite)
	switch s.N {
	case 0:
	case 1:
		s.Mean = finite[0]
	default:
		s.Mean, s.SD = stat.MeanStdDev(finite, nil)
		s.SE = s.SD / math.Sqrt(float64(s.N))
	}
	return s
}

// TraceStats summarises a per-sweep trace over repeats: element i
// describes sweep i+1.
type TraceStats struct {
	// Mean and SD are the per-sweep mean and sample standard deviation of
	// the finite values; SD is NaN where fewer than two repeats reach the
	// sweep, and Mean is NaN where none does.
	Mean, SD []float64
	// N counts the finite values at each sweep.
	N []int
	// NonFinite counts the trace values left out, over all sweeps.
	NonFinite int
}

// newTraceStats summarises traces of possibly different lengths.
func newTraceStats(traces [][]float64) TraceStats {
	n := 0
	for _, t := range traces {
		n = max(n, len(t))
	}
	ts := TraceStats{Mean: make([]float64, n), SD: make([]float64, n), N: make([]int, n)}
	col := make([]float64, 0, len(traces))
	for i := range n {
		col = col[:0]
		for _, t := range traces {
			if i < len(t) {
				col = append(col, t[i])
			}
		}
		s := newStat(col)
		ts.Mean[i], ts.SD[i], ts.N[i] = s.Mean, s.SD, s.N
		ts.NonFinite += s.NonFinite
	}
	return ts
}

// isFinite reports whether x is a usable number. The result store writes
// NaN and infinities, which JSON cannot hold, as +-math.MaxFloat64 with a
// warning on the record; those count as non-finite here too.
func isFinite(x float64) bool { return !math.IsNaN(x) && math.Abs(x) < math.MaxFloat64 }
