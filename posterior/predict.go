package posterior

import (
	"cmp"
	"math"
	"slices"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/bnmf-lab/bnmf/predictive"
)

// Prediction is the posterior predictive distribution of one entry,
// summarised.
type Prediction struct {
	Mean, SD, Lower, Upper float64
}

// PredictEntry returns the Prediction of entry (row, col) at interval
// level a; mu is scratch space of one float per sample.
func (m *Model) PredictEntry(row, col int, a float64, mu []float64) Prediction {
	k := m.Rank
	for s := range m.W {
		mu[s] = floats.Dot(m.W[s][row*k:(row+1)*k], m.Zt[s][col*k:(col+1)*k])
	}
	mix := predictive.Mixture{Mu: mu, Sigma2: m.Sigma2}
	lo, hi := mix.Interval(a, 0)
	return Prediction{Mean: mix.Mean(), SD: math.Sqrt(mix.Variance()), Lower: lo, Upper: hi}
}

// PredictPairs returns the predictions of the (row, col) index pairs.
func (m *Model) PredictPairs(pairs [][2]int, a float64) []Prediction {
	mu := make([]float64, len(m.W))
	out := make([]Prediction, len(pairs))
	for i, p := range pairs {
		out[i] = m.PredictEntry(p[0], p[1], a, mu)
	}
	return out
}

// Ranked is one column of a row's ranking.
type Ranked struct {
	Col int
	Prediction
}

// TopOptions are the choices of a --top ranking.
type TopOptions struct {
	N               int     // columns per row
	Level           float64 // of the central intervals
	IncludeObserved bool    // rank observed entries too
	ByLower         bool    // rank by the interval's lower end, not the mean
	// MinObserved is the number of observed entries a column needs to
	// be ranked, and Counts those of every column (see ColumnCounts).
	MinObserved int
	Counts      []int32
}

// TopScratch is one worker's scratch space for TopColumns.
type TopScratch struct {
	mean, bound, sq []float64 // N each
	mu              []float64 // S
	sdz             []float64 // S: sigma_s z
}

// NewTopScratch returns scratch space for TopColumns on m.
func NewTopScratch(m *Model) *TopScratch {
	return &TopScratch{
		mean: make([]float64, m.Cols), bound: make([]float64, m.Cols), sq: make([]float64, m.Cols),
		mu: make([]float64, len(m.W)), sdz: make([]float64, len(m.W)),
	}
}

// TopColumns returns the o.N columns of row with the highest predictive
// mean, or lower interval end if o.ByLower (ties to the lower column),
// leaving out the row's observed ones unless o.IncludeObserved, with their
// predictions.
func (m *Model) TopColumns(row int, o TopOptions, sc *TopScratch) []Ranked {
	k, S := m.Rank, len(m.W)
	mean, bound, sq := sc.mean, sc.bound, sc.sq
	clear(mean)
	clear(sq)
	// The lower end of a column's interval, the mixture's q-quantile with
	// q = (1-level)/2, is at most max_s (mu_s + sigma_s z) with z the
	// normal q-quantile: there every component's CDF is at least q.
	z := distuv.UnitNormal.Quantile((1 - o.Level) / 2)
	for s, v := range m.Sigma2 {
		sc.sdz[s] = math.Sqrt(v) * z
	}
	if o.ByLower {
		for j := range bound {
			bound[j] = math.Inf(-1)
		}
	}
	inv := 1 / float64(S)
	for s, w := range m.W {
		wm := w[row*k : (row+1)*k]
		zt := m.Zt[s]
		for j := range m.Cols {
			d := floats.Dot(wm, zt[j*k:(j+1)*k])
			mean[j] += d * inv
			if o.ByLower {
				sq[j] += d * d * inv
				bound[j] = max(bound[j], d+sc.sdz[s])
			}
		}
	}
	observed := m.ObservedCol[m.ObservedPtr[row]:m.ObservedPtr[row+1]]
	cand := make([]int, 0, m.Cols)
	for j := range m.Cols {
		if o.MinObserved > 1 && int(o.Counts[j]) < o.MinObserved {
			continue
		}
		if o.IncludeObserved {
			cand = append(cand, j)
		} else if _, ok := slices.BinarySearch(observed, int32(j)); !ok {
			cand = append(cand, j)
		}
	}
	key := mean
	if o.ByLower {
		// A computed lower end may exceed the true one by the quantile
		// search's tolerance, DefaultTol of the mixture's sd: the bound
		// allows twice that, with sd from the mixture's moments. Without
		// it, a column whose bound is tight could be pruned although its
		// computed lower end beats the n-th best's: a near-tie within the
		// search's error (TestTopByLowerNearTie).
		var meanVar float64
		for _, v := range m.Sigma2 {
			meanVar += v * inv
		}
		for _, j := range cand {
			sd := math.Sqrt(max(0, meanVar+sq[j]-mean[j]*mean[j]))
			bound[j] += 2 * predictive.DefaultTol * sd
		}
		key = bound
	}
	slices.SortFunc(cand, func(x, y int) int {
		if c := cmp.Compare(key[y], key[x]); c != 0 {
			return c
		}
		return cmp.Compare(x, y)
	})
	if !o.ByLower {
		cand = cand[:min(o.N, len(cand))]
		out := make([]Ranked, len(cand))
		for i, j := range cand {
			out[i] = Ranked{Col: j, Prediction: m.PredictEntry(row, j, o.Level, sc.mu)}
		}
		return out
	}
	// Best first by lower end; a column whose bound is below the n-th
	// best lower end found so far cannot enter, nor can any after it.
	best := make([]Ranked, 0, min(o.N, len(cand))+1) // --top may exceed the columns
	for _, j := range cand {
		if len(best) == o.N && bound[j] < best[o.N-1].Lower {
			break
		}
		r := Ranked{Col: j, Prediction: m.PredictEntry(row, j, o.Level, sc.mu)}
		at, _ := slices.BinarySearchFunc(best, r, func(a, b Ranked) int {
			if c := cmp.Compare(b.Lower, a.Lower); c != 0 {
				return c
			}
			return cmp.Compare(a.Col, b.Col)
		})
		best = slices.Insert(best, at, r)
		if len(best) > o.N {
			best = best[:o.N]
		}
	}
	return best
}

// DefaultMinObserved is the default of predict --min-observed: a column
// needs this many observed entries in the data file to be Ranked by
// --top. A column rated once or twice has a factor that its ratings pin
// down in one or two of the K directions only; in the others its
// posterior is its prior, whose spread lets its predictions rise far
// above any rating (bnmf's TestSparseColumnPosterior checks that this is
// the posterior, not a sampler's fault).
const DefaultMinObserved = 10

// ColumnCounts returns the number of observed entries of every column.
func (m *Model) ColumnCounts() []int32 {
	counts := make([]int32, m.Cols)
	for _, j := range m.ObservedCol {
		counts[j]++
	}
	return counts
}

// RangeFlag says where a predictive mean lies relative to the training
// values' range: "above" their largest, "below" their smallest, else
// "in"; "" for a model file that does not record the range.
func (m *Model) RangeFlag(mean float64) string {
	if len(m.TrainRange) != 2 {
		return ""
	}
	switch {
	case mean > m.TrainRange[1]:
		return "above"
	case mean < m.TrainRange[0]:
		return "below"
	}
	return "in"
}
