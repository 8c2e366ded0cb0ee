package dataset

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/bnmf-lab/bnmf/sparse"
)

func TestKFold(t *testing.T) {
	r := syntheticRatings(t)
	for _, cov := range []Coverage{CoverageNone, CoverageColumns, CoverageRows, CoverageBoth} {
		for _, k := range []int{2, 7} {
			folds, err := KFold(r, k, cov, rand.NewPCG(3, 0))
			if err != nil {
				t.Fatalf("%v, k=%d: %v", cov, k, err)
			}
			if len(folds) != k {
				t.Fatalf("%v: %d folds, want %d", cov, len(folds), k)
			}
			tests := make([][]sparse.Entry, 0, k)
			held := 0
			for f, fold := range folds {
				checkPartition(t, r, fold.Train, fold.Test)
				if !covered(r, fold.Train, cov) {
					t.Errorf("%v, k=%d: fold %d's training set misses a row or column", cov, k, f)
				}
				tests = append(tests, fold.Test)
				held += len(fold.Test)
			}
			// Entries kept out of every test set for coverage complete the
			// partition; every row and column of the synthetic data has at
			// least 3 entries, so few are needed.
			never := len(r.Entries) - held
			if cov == CoverageNone && never != 0 || never > len(r.Entries)/100 {
				t.Errorf("%v, k=%d: %d entries are never tested", cov, k, never)
			}
			if never == 0 {
				checkPartition(t, r, tests...)
			}
			// Dealt in turn, the test sets differ in size by at most one
			// before coverage moves entries out of them.
			sizes := make([]int, k)
			for f := range folds {
				sizes[f] = len(folds[f].Test)
			}
			if slices.Max(sizes)-slices.Min(sizes) > 1+never {
				t.Errorf("%v, k=%d: test sizes %v are unbalanced", cov, k, sizes)
			}
		}
	}
}

// TestKFoldSingleEntryColumn checks that an entry alone in its column is
// never tested under column coverage but is under none.
func TestKFoldSingleEntryColumn(t *testing.T) {
	r := &Ratings{Name: "toy", Rows: 2, Cols: 3, Entries: []sparse.Entry{
		{Row: 0, Col: 0, Value: 1}, {Row: 0, Col: 1, Value: 2}, {Row: 0, Col: 2, Value: 9},
		{Row: 1, Col: 0, Value: 3}, {Row: 1, Col: 1, Value: 4},
	}}
	lone := sparse.Entry{Row: 0, Col: 2, Value: 9}
	for s := range uint64(20) {
		for _, cov := range []Coverage{CoverageNone, CoverageColumns} {
			folds, err := KFold(r, 2, cov, rand.NewPCG(s, 1))
			if err != nil {
				t.Fatal(err)
			}
			tested := slices.Contains(folds[0].Test, lone) || slices.Contains(folds[1].Test, lone)
			if tested != (cov == CoverageNone) {
				t.Errorf("seed %d, %v: lone entry tested = %v", s, cov, tested)
			}
		}
	}
}

func TestKFoldDeterministic(t *testing.T) {
	r := syntheticRatings(t)
	a, err := KFold(r, 5, CoverageBoth, rand.NewPCG(4, 4))
	if err != nil {
		t.Fatal(err)
	}
	b, err := KFold(r, 5, CoverageBoth, rand.NewPCG(4, 4))
	if err != nil {
		t.Fatal(err)
	}
	c, err := KFold(r, 5, CoverageBoth, rand.NewPCG(5, 4))
	if err != nil {
		t.Fatal(err)
	}
	for f := range a {
		if !slices.Equal(a[f].Test, b[f].Test) || !slices.Equal(a[f].Train, b[f].Train) {
			t.Fatalf("equal seeds gave different fold %d", f)
		}
	}
	if slices.Equal(a[0].Test, c[0].Test) {
		t.Error("different seeds gave the same fold")
	}
}

func TestKFoldErrors(t *testing.T) {
	r := &Ratings{Name: "toy", Rows: 2, Cols: 3, Entries: []sparse.Entry{{Row: 0, Col: 0, Value: 1}, {Row: 1, Col: 1, Value: 2}}}
	tests := []struct {
		name string
		k    int
		cov  Coverage
		src  rand.Source
		want string
	}{
		{"one fold", 1, CoverageNone, rand.NewPCG(1, 1), "1 folds"},
		{"more folds than entries", 3, CoverageNone, rand.NewPCG(1, 1), "3 folds"},
		{"nil source", 2, CoverageNone, nil, "random source"},
		{"empty column", 2, CoverageColumns, rand.NewPCG(1, 1), "column(s) 2 have no observed entries"},
		{"empty column, both", 2, CoverageBoth, rand.NewPCG(1, 1), "column(s) 2 have no observed entries"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := KFold(r, tt.k, tt.cov, tt.src)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

func TestParseCoverage(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want Coverage
	}{{"", CoverageColumns}, {"columns", CoverageColumns}, {"none", CoverageNone}, {"rows", CoverageRows}, {"both", CoverageBoth}} {
		got, err := ParseCoverage(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("ParseCoverage(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
		if tt.in != "" && got.String() != tt.in {
			t.Errorf("%v.String() = %q, want %q", got, got.String(), tt.in)
		}
	}
	if _, err := ParseCoverage("cols"); err == nil {
		t.Error(`ParseCoverage("cols") gave no error`)
	}
	if s := Coverage(7).String(); s != "Coverage(7)" {
		t.Errorf("Coverage(7).String() = %q", s)
	}
}
