package dataset

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/bnmf-lab/bnmf/sparse"
)

// syntheticRatings returns the default synthetic data (300 x 500, 10,500
// ratings).
func syntheticRatings(t *testing.T) *Ratings {
	t.Helper()
	r, err := Synthetic(SyntheticOptions{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// covered reports whether every row (and/or column) that cov requires has
// an entry in train.
func covered(r *Ratings, train []sparse.Entry, cov Coverage) bool {
	rows := make([]bool, r.Rows)
	cols := make([]bool, r.Cols)
	for _, e := range train {
		rows[e.Row], cols[e.Col] = true, true
	}
	all := func(b []bool) bool { return !slices.Contains(b, false) }
	return (!cov.rows() || all(rows)) && (!cov.cols() || all(cols))
}

// checkPartition checks that parts are sorted and together hold exactly
// the entries of r.
func checkPartition(t *testing.T, r *Ratings, parts ...[]sparse.Entry) {
	t.Helper()
	var all []sparse.Entry
	for _, p := range parts {
		if !slices.IsSortedFunc(p, compareEntries) {
			t.Fatal("a part is not sorted by row and column")
		}
		all = append(all, p...)
	}
	slices.SortFunc(all, compareEntries)
	if !slices.Equal(all, r.Entries) {
		t.Fatalf("parts hold %d entries that differ from the %d of the data", len(all), len(r.Entries))
	}
}

func compareEntries(a, b sparse.Entry) int {
	if a.Row != b.Row {
		return a.Row - b.Row
	}
	return a.Col - b.Col
}

func TestSplitUnobservedSizesAndCoverage(t *testing.T) {
	r := syntheticRatings(t)
	grid := float64(r.Rows * r.Cols)
	for _, cov := range []Coverage{CoverageNone, CoverageColumns, CoverageRows, CoverageBoth} {
		// 0.93 is the data's own level (1 - 0.07); 0.996 leaves 600
		// training entries, barely more than the 500 columns.
		for _, f := range []float64{0.93, 0.95, 0.98, 0.996} {
			train, test, err := SplitUnobserved(r, f, cov, rand.NewPCG(7, 0))
			if err != nil {
				t.Fatalf("%v, f=%v: %v", cov, f, err)
			}
			if want := int(math.Round((1 - f) * grid)); len(train) != want {
				t.Errorf("%v, f=%v: %d training entries, want %d", cov, f, len(train), want)
			}
			checkPartition(t, r, train, test)
			if !covered(r, train, cov) {
				t.Errorf("%v, f=%v: training set misses a row or column", cov, f)
			}
		}
	}
}

func TestSplitUnobservedDeterministic(t *testing.T) {
	r := syntheticRatings(t)
	a, _, err := SplitUnobserved(r, 0.97, CoverageColumns, rand.NewPCG(1, 2))
	if err != nil {
		t.Fatal(err)
	}
	b, _, err := SplitUnobserved(r, 0.97, CoverageColumns, rand.NewPCG(1, 2))
	if err != nil {
		t.Fatal(err)
	}
	c, _, err := SplitUnobserved(r, 0.97, CoverageColumns, rand.NewPCG(2, 2))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(a, b) {
		t.Error("equal seeds gave different splits")
	}
	if slices.Equal(a, c) {
		t.Error("different seeds gave the same split")
	}
}

func TestSplitUnobservedErrors(t *testing.T) {
	r := syntheticRatings(t) // 300 x 500 with 10,500 entries: f from 0.93
	tests := []struct {
		name     string
		fraction float64
		cov      Coverage
		src      rand.Source
		want     string
	}{
		{"below data", 0.92, CoverageNone, rand.NewPCG(1, 1), "allowed range [0.930000, 0.999993]"},
		{"whole grid", 1, CoverageNone, rand.NewPCG(1, 1), "allowed range [0.930000, 0.999993]"},
		{"columns need 500", 0.997, CoverageColumns, rand.NewPCG(1, 1), "allowed range [0.930000, 0.996666]"},
		{"rows need 300", 0.9985, CoverageRows, rand.NewPCG(1, 1), "allowed range [0.930000, 0.998000]"},
		{"NaN", math.NaN(), CoverageNone, rand.NewPCG(1, 1), "allowed range"},
		{"negative", -0.5, CoverageNone, rand.NewPCG(1, 1), "allowed range"},
		{"nil source", 0.95, CoverageNone, nil, "random source"},
		{"bad coverage", 0.95, Coverage(9), rand.NewPCG(1, 1), "invalid coverage"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := SplitUnobserved(r, tt.fraction, tt.cov, tt.src)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

// TestSplitUnobservedUniform checks that without coverage every entry is
// in training with probability size/entries.
func TestSplitUnobservedUniform(t *testing.T) {
	var entries []sparse.Entry
	for c := range 12 {
		entries = append(entries, sparse.Entry{Row: c / 5, Col: c % 5, Value: float64(c)})
	}
	r := &Ratings{Name: "toy", Rows: 4, Cols: 5, Entries: entries}
	const draws = 4000
	count := make(map[float64]int)
	for s := range uint64(draws) {
		train, _, err := SplitUnobserved(r, 0.7, CoverageNone, rand.NewPCG(s, 3)) // 6 of 12
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range train {
			count[e.Value]++
		}
	}
	// Each count is Binomial(4000, 1/2): standard error 31.6; allow 4.
	for c := range 12 {
		if d := math.Abs(float64(count[float64(c)]) - draws/2); d > 4*31.6 {
			t.Errorf("entry %d in training %d times of %d, want about %d", c, count[float64(c)], draws, draws/2)
		}
	}
}

// TestEdgeCoverMinimal checks CoverageBoth on graphs whose minimum edge
// cover is known, for many orders of the edges.
func TestEdgeCoverMinimal(t *testing.T) {
	tests := []struct {
		name       string
		rows, cols int
		cells      [][2]int
		want       int // rows + cols - maximum matching
	}{
		// A greedy matching that takes (0,0) first finds 1 edge; the
		// maximum is 2, (0,1) and (1,0).
		{"path", 2, 2, [][2]int{{0, 0}, {0, 1}, {1, 0}}, 2},
		{"full 2x3", 2, 3, [][2]int{{0, 0}, {0, 1}, {0, 2}, {1, 0}, {1, 1}, {1, 2}}, 3},
		{"star", 1, 4, [][2]int{{0, 0}, {0, 1}, {0, 2}, {0, 3}}, 4},
		// Rows 0-2 all reach only columns 0 and 1: matching 2 + row 3-col 2.
		{"bottleneck", 4, 3, [][2]int{{0, 0}, {0, 1}, {1, 0}, {1, 1}, {2, 0}, {2, 1}, {3, 2}, {3, 1}}, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var entries []sparse.Entry
			for _, c := range tt.cells {
				entries = append(entries, sparse.Entry{Row: c[0], Col: c[1], Value: 1})
			}
			slices.SortFunc(entries, compareEntries)
			r := &Ratings{Name: tt.name, Rows: tt.rows, Cols: tt.cols, Entries: entries}
			for s := range uint64(50) {
				order := rand.New(rand.NewPCG(s, 0)).Perm(len(entries))
				cover := edgeCover(tt.rows, tt.cols, entries, order)
				var train []sparse.Entry
				for _, i := range cover {
					train = append(train, entries[i])
				}
				if len(cover) != tt.want || !covered(r, train, CoverageBoth) {
					t.Fatalf("order %v: cover %v of size %d, want a cover of size %d", order, train, len(cover), tt.want)
				}
			}
		})
	}
}

func TestSplitMovieLens100K(t *testing.T) {
	r, err := Open("movielens-100k", testDataDir(t, "movielens-100k"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := MinFractionUnobserved(r); math.Abs(got-0.928) > 0.0005 {
		t.Errorf("MinFractionUnobserved = %v, want 0.928 to 3 decimals (Fig. 5 caption)", got)
	}
	train, test, err := SplitUnobserved(r, 0.98, CoverageColumns, rand.NewPCG(1, 0))
	if err != nil {
		t.Fatal(err)
	}
	// round(0.02 * 943 * 1473) = round(27780.78)
	if len(train) != 27781 || len(test) != 99723-27781 {
		t.Errorf("%d training and %d test entries, want 27781 and %d", len(train), len(test), 99723-27781)
	}
	if !covered(r, train, CoverageColumns) {
		t.Error("a column has no training entry")
	}
}

func TestSplitObserved(t *testing.T) {
	r := syntheticRatings(t) // 300 x 500 with 10,500 entries
	for _, cov := range []Coverage{CoverageNone, CoverageBoth} {
		for _, f := range []float64{0.001, 0.1, 0.5, 0.9} {
			train, test, err := SplitObserved(r, f, cov, rand.NewPCG(3, 0))
			if err != nil {
				t.Fatalf("%v, f=%v: %v", cov, f, err)
			}
			if want := int(math.Round(f * 10500)); len(test) != want {
				t.Errorf("%v, f=%v: %d test entries, want %d", cov, f, len(test), want)
			}
			checkPartition(t, r, train, test)
			if !covered(r, train, cov) {
				t.Errorf("%v, f=%v: training set misses a row or column", cov, f)
			}
		}
	}
	a, _, _ := SplitObserved(r, 0.1, CoverageBoth, rand.NewPCG(1, 2))
	b, _, _ := SplitObserved(r, 0.1, CoverageBoth, rand.NewPCG(1, 2))
	if !slices.Equal(a, b) {
		t.Error("equal seeds gave different splits")
	}
}

func TestSplitObservedErrors(t *testing.T) {
	r := syntheticRatings(t) // 300 x 500 with 10,500 entries; both needs 500 or more
	tests := []struct {
		fraction float64
		cov      Coverage
		want     string
	}{
		{0, CoverageNone, "must be in (0, 1)"},
		{1, CoverageNone, "must be in (0, 1)"},
		{math.NaN(), CoverageNone, "must be in (0, 1)"},
		{1e-5, CoverageNone, "leaves no test entry"},
		{0.99, CoverageBoth, `leaves 105 for training; coverage "both" needs at least`},
	}
	for _, tt := range tests {
		_, _, err := SplitObserved(r, tt.fraction, tt.cov, rand.NewPCG(1, 1))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("fraction %v, %v: error %v, want one containing %q", tt.fraction, tt.cov, err, tt.want)
		}
	}
	if _, _, err := SplitObserved(r, 0.1, CoverageNone, nil); err == nil {
		t.Error("nil source accepted")
	}
}
