package posterior

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/bnmf-lab/bnmf/predictive"
)

// DefaultMinObserved is the default of bnmf predict --min-observed and a
// sensible TopOptions.MinObserved: a column needs this many observed
// entries in the data file to be ranked. A column rated once or twice
// has a factor that its ratings pin down in one or two of the K
// directions only; in the others its posterior is its prior, whose
// spread lets its predictions rise far above any rating (bnmf's
// TestSparseColumnPosterior checks that this is the posterior, not a
// sampler's fault).
const DefaultMinObserved = 10

// ColumnCounts returns the number of observed entries of every column.
func (m *Model) ColumnCounts() []int32 {
	counts := make([]int32, m.Cols)
	for _, j := range m.ObservedCol {
		counts[j]++
	}
	return counts
}

// Ranked is one column of a row's ranking, with its prediction.
type Ranked struct {
	Col int
	Prediction
}

// TopOptions are the choices of a ranking (see Ranker).
type TopOptions struct {
	// N is the number of columns per row, at least 1.
	N int
	// Level is the level of the central intervals, in (0, 1).
	Level float64
	// IncludeObserved ranks a row's observed entries too.
	IncludeObserved bool
	// ByLower ranks by the lower end of the interval at Level instead of
	// the predictive mean: a column whose prediction is uncertain ranks
	// below one as good on average whose prediction is sure.
	ByLower bool
	// MinObserved is the number of observed entries a column needs in the
	// data file to be ranked; 0 or 1 ranks every column (see
	// DefaultMinObserved).
	MinObserved int
}

// Ranker ranks the columns of a model's rows. A Ranker holds scratch
// space and is not safe for concurrent use: give each goroutine its own
// (Clone).
type Ranker struct {
	m      *Model
	o      TopOptions
	counts []int32 // observed entries of every column, shared by clones

	mean, bound, sq []float64 // one per column
	mu              []float64 // one per sample
	sdz             []float64 // one per sample: sigma_s z
}

// NewRanker returns a Ranker of the columns of m's rows as o says. It
// panics if o.N is less than 1 or o.Level is not in (0, 1).
func (m *Model) NewRanker(o TopOptions) *Ranker {
	if o.N < 1 || predictive.CheckLevel(o.Level) != nil {
		panic(fmt.Sprintf("bnmf: ranking %d columns at level %v; want at least 1 at a level in (0, 1)", o.N, o.Level))
	}
	return newRanker(m, o, m.ColumnCounts())
}

func newRanker(m *Model, o TopOptions, counts []int32) *Ranker {
	return &Ranker{
		m: m, o: o, counts: counts,
		mean: make([]float64, m.Cols), bound: make([]float64, m.Cols), sq: make([]float64, m.Cols),
		mu: make([]float64, len(m.W)), sdz: make([]float64, len(m.W)),
	}
}

// Clone returns a Ranker of the same model and options with scratch
// space of its own, for another goroutine.
func (r *Ranker) Clone() *Ranker { return newRanker(r.m, r.o, r.counts) }

// Top returns the o.N best columns of row with their predictions, best
// first, as NewRanker(o).Top(row) does.
func (m *Model) Top(row int, o TopOptions) []Ranked { return m.NewRanker(o).Top(row) }

// Top returns the N columns of row with the highest predictive mean, or
// lower interval end if ByLower (ties to the lower column), leaving out
// the row's observed ones unless IncludeObserved and those with fewer
// than MinObserved observed entries, with their predictions, best first;
// fewer if fewer columns are eligible. It costs S K N operations for S
// samples of K factors and N columns. By the lower end, only the columns
// that could enter the top N have their quantiles computed: a column's
// lower end is at most max_s (w_m . z_n + sigma_s z), z the standard
// normal quantile at (1-Level)/2. It panics if row is out of range.
func (r *Ranker) Top(row int) []Ranked {
	m, o := r.m, r.o
	k, S := m.Rank, len(m.W)
	mean, bound, sq := r.mean, r.bound, r.sq
	clear(mean)
	clear(sq)
	// The lower end of a column's interval, the mixture's q-quantile with
	// q = (1-level)/2, is at most max_s (mu_s + sigma_s z) with z the
	// normal q-quantile: there every component's CDF is at least q.
	z := distuv.UnitNormal.Quantile((1 - o.Level) / 2)
	poisson := m.Poisson()
	for s, v := range m.Sigma2 {
		r.sdz[s] = math.Sqrt(v) * z
		if poisson {
			// For a mixture of Poissons the lower end, a quantile below
			// the median, is at most the largest component's median,
			// which is below its rate plus 1/3 (Choi 1994, "Medians of
			// gamma distributions and an equation of Ramanujan", Proc.
			// AMS 121).
			r.sdz[s] = 1.0 / 3
		}
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
			d := floats.Dot(wm, zt[j*k:(j+1)*k]) + m.offset(s, row, j)
			mean[j] += d * inv
			if o.ByLower {
				sq[j] += d * d * inv
				bound[j] = max(bound[j], d+r.sdz[s])
			}
		}
	}
	observed := m.ObservedCol[m.ObservedPtr[row]:m.ObservedPtr[row+1]]
	cand := make([]int, 0, m.Cols)
	for j := range m.Cols {
		if o.MinObserved > 1 && int(r.counts[j]) < o.MinObserved {
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
			out[i] = Ranked{Col: j, Prediction: m.predict(row, j, o.Level, r.mu)}
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
		c := Ranked{Col: j, Prediction: m.predict(row, j, o.Level, r.mu)}
		at, _ := slices.BinarySearchFunc(best, c, func(a, b Ranked) int {
			if c := cmp.Compare(b.Lower, a.Lower); c != 0 {
				return c
			}
			return cmp.Compare(a.Col, b.Col)
		})
		best = slices.Insert(best, at, c)
		if len(best) > o.N {
			best = best[:o.N]
		}
	}
	return best
}
