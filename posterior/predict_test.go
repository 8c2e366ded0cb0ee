package posterior

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

// TestTopByLowerNearTie checks the margin of --by lower's pruning
// on a near-tie that the quantile search's error reverses. Column 0's
// two components (sigma 1 and 3) both have their 5% quantile at 0, so
// the mixture's is 0 too, and the bound max_s(mu_s + sigma_s z) is 0
// exactly; the search stops within its tolerance, at L0 just above 0
// (1.6e-7 sd). Column 1's components have their 5% quantiles at L0/2
// and 4 L0 below it, so its bound is L0/2, above column 0's, and its
// lower end L1 (about L0/2) lies in (0, L0). So column 1 is computed
// first, and
// without the margin column 0, whose bound 0 is below L1, would be
// pruned, though its computed lower end L0 is the larger and brute force
// ranks it first.
func TestTopByLowerNearTie(t *testing.T) {
	const level = 0.9
	z := distuv.UnitNormal.Quantile((1 - level) / 2)
	model := func(c1, e float64) *Model {
		// Sample s predicts mu_s = z_s for each column (W = 1, K = 1).
		return &Model{Header: Header{Rank: 1, Rows: 1, Cols: 2, Samples: 2},
			W:           [][]float64{{1}, {1}},
			Zt:          [][]float64{{-z, c1 - z}, {-3 * z, c1 - e - 3*z}},
			Sigma2:      []float64{1, 9},
			ObservedPtr: []int64{0, 0},
		}
	}
	mu := make([]float64, 2)
	l0 := model(0, 0).predict(0, 0, level, mu).Lower
	m := model(l0/2, 4*l0)
	l1 := m.predict(0, 1, level, mu).Lower
	if !(l0 > 0 && l1 > 0 && l1 < l0) {
		t.Fatalf("no near-tie: lower ends %v and %v, want 0 < L1 < L0", l0, l1)
	}
	sc := m.NewRanker(TopOptions{N: 1, Level: level, ByLower: true})
	top := sc.Top(0)
	if len(top) != 1 || top[0].Col != 0 || top[0].Lower != l0 {
		t.Errorf("--top 1 --by lower gave %+v, want column 0 with lower end %v (column 1's is %v)", top, l0, l1)
	}
	if sc.bound[1] <= sc.bound[0] {
		t.Errorf("bounds %v: column 1's should be the larger, so that it is computed first", sc.bound)
	}
}

// TestTopMoreThanColumns checks that --top N with N beyond the
// number of columns ranks them all, by the mean and by the lower end,
// allocating for the columns rather than for N (--top
// 9223372036854775807 --by lower panicked making room for N + 1).
func TestTopMoreThanColumns(t *testing.T) {
	m := testModel() // 3 x 2; row 0 observes both columns, row 1 none
	for _, n := range []int{3, 1 << 40, math.MaxInt} {
		for _, byLower := range []bool{false, true} {
			for row, want := range []int{0, 2, 1} {
				top := m.Top(row, TopOptions{N: n, Level: 0.9, ByLower: byLower})
				if len(top) != want {
					t.Errorf("--top %d, by lower %v, row %d: %d columns, want %d", n, byLower, row, len(top), want)
				}
			}
		}
	}
}

// TestRangeFlag checks the flag at and beyond both ends of the range.
func TestRangeFlag(t *testing.T) {
	m := &Model{Header: Header{TrainRange: []float64{0.5, 5}}}
	for _, tc := range []struct {
		mean float64
		want string
	}{
		{0.49, "below"}, {0.5, "in"}, {3, "in"}, {5, "in"}, {5.01, "above"}, {7.68, "above"},
	} {
		if got := m.RangeFlag(tc.mean); got != tc.want {
			t.Errorf("mean %v: %q, want %q", tc.mean, got, tc.want)
		}
	}
	if got := (&Model{}).RangeFlag(9); got != "" {
		t.Errorf("without a recorded range: %q, want \"\"", got)
	}
}

// randomModel returns a model of s samples of a rows x cols matrix at
// rank k, drawn from rng as a posterior is: factors in [0, 1) and [0, 2)
// that each sample moves by up to 0.05, sigma^2 in [0.1, 0.11), and row
// i observing the columns j with (i + j) % 3 == 0.
func randomModel(rng *rand.Rand, s, rows, cols, k int) *Model {
	m := &Model{Header: Header{Rank: k, Rows: rows, Cols: cols, Samples: s, Chains: 1, Scale: 1}}
	w0 := make([]float64, rows*k)
	zt0 := make([]float64, cols*k)
	for i := range w0 {
		w0[i] = rng.Float64()
	}
	for i := range zt0 {
		zt0[i] = 2 * rng.Float64()
	}
	for range s {
		w := make([]float64, rows*k)
		zt := make([]float64, cols*k)
		for i := range w {
			w[i] = w0[i] + 0.05*rng.Float64()
		}
		for i := range zt {
			zt[i] = zt0[i] + 0.05*rng.Float64()
		}
		m.W, m.Zt = append(m.W, w), append(m.Zt, zt)
		m.Sigma2 = append(m.Sigma2, 0.1+0.01*rng.Float64())
	}
	m.ObservedPtr = make([]int64, rows+1)
	for i := range rows {
		for j := range cols {
			if (i+j)%3 == 0 {
				m.ObservedCol = append(m.ObservedCol, int32(j))
			}
		}
		m.ObservedPtr[i+1] = int64(len(m.ObservedCol))
	}
	return m
}

// TestTopByLowerBound checks the bound behind --by lower's pruning on a
// model with 40 samples and 60 columns: every column's lower end lies
// below its bound, the bound leaves columns out, and the ranking is
// brute force's (every eligible column's prediction, ranked by its lower
// end, ties to the lower column).
func TestTopByLowerBound(t *testing.T) {
	t.Run("normal", func(t *testing.T) {
		checkTopByLowerBound(t, randomModel(rand.New(rand.NewPCG(6, 6)), 40, 20, 60, 3))
	})
	// A Poisson model (sigma^2 0, whole-count intervals) is bounded by
	// its largest rate plus 1/3.
	t.Run("poisson", func(t *testing.T) {
		m := randomModel(rand.New(rand.NewPCG(7, 7)), 40, 20, 60, 3)
		m.Model = "PGG"
		clear(m.Sigma2)
		if !m.Poisson() {
			t.Fatal("a model named PGG is not a Poisson model")
		}
		checkTopByLowerBound(t, m)
	})
}

// checkTopByLowerBound checks m's ranking by lower end against every
// column's, and the pruning bound of every column.
func checkTopByLowerBound(t *testing.T, m *Model) {
	t.Helper()
	const n, level = 5, 0.8
	pruned, eligible := 0, 0
	for _, incl := range []bool{false, true} {
		for row := range m.Rows {
			observed := m.ObservedCol[m.ObservedPtr[row]:m.ObservedPtr[row+1]]
			var all []Ranked
			for j := range m.Cols {
				if _, obs := slices.BinarySearch(observed, int32(j)); incl || !obs {
					all = append(all, Ranked{Col: j, Prediction: m.Predict(row, j, level)})
				}
			}
			slices.SortStableFunc(all, func(a, b Ranked) int { return cmp.Compare(b.Lower, a.Lower) })
			sc := m.NewRanker(TopOptions{N: n, Level: level, IncludeObserved: incl, ByLower: true})
			top := sc.Top(row)
			if !slices.Equal(top, all[:n]) {
				t.Fatalf("include observed %v, row %d: %+v, want %+v", incl, row, top, all[:n])
			}
			for _, c := range all {
				if c.Lower > sc.bound[c.Col] {
					t.Fatalf("row %d, column %d: lower end %v above its bound %v", row, c.Col, c.Lower, sc.bound[c.Col])
				}
				if sc.bound[c.Col] < top[n-1].Lower {
					pruned++
				}
			}
			eligible += len(all)
		}
	}
	if pruned == 0 {
		t.Errorf("the bound left out none of %d columns", eligible)
	}
	t.Logf("the bound left out %d of %d columns", pruned, eligible)
}
