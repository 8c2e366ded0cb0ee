package dataset

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/bnmf-lab/bnmf/sparse"
)

// TestCrossValidationFolds checks that the folds partition the entries,
// that every training part keeps an entry in every row and column, that
// fold sizes differ by at most one, and that stratified folds hold
// floor or ceil of c/k of every column with c entries.
func TestCrossValidationFolds(t *testing.T) {
	r := denseRatings(t)
	for _, strat := range []Stratify{StratifyNone, StratifyColumns} {
		for _, k := range []int{2, 5, 10} {
			fold, err := CrossValidationFolds(r.Rows, r.Cols, r.Entries, k, strat, 1000, rand.NewPCG(7, uint64(k)))
			if err != nil {
				t.Fatalf("%v, k=%d: %v", strat, k, err)
			}
			if len(fold) != len(r.Entries) {
				t.Fatalf("%v, k=%d: %d folds for %d entries", strat, k, len(fold), len(r.Entries))
			}
			size := make([]int, k)
			perCol := make([][]int, r.Cols)
			for i := range perCol {
				perCol[i] = make([]int, k)
			}
			for t2, f := range fold {
				if f < 0 || f >= k {
					t.Fatalf("%v, k=%d: entry %d in fold %d", strat, k, t2, f)
				}
				size[f]++
				perCol[r.Entries[t2].Col][f]++
			}
			if slices.Max(size)-slices.Min(size) > 1 {
				t.Errorf("%v, k=%d: fold sizes %v differ by more than one", strat, k, size)
			}
			for f := range k {
				var train, test []sparse.Entry
				for t2, e := range r.Entries {
					if fold[t2] == f {
						test = append(test, e)
					} else {
						train = append(train, e)
					}
				}
				checkPartition(t, r, train, test)
				if !covered(r, train, CoverageBoth) {
					t.Errorf("%v, k=%d: fold %d's training part misses a row or column", strat, k, f)
				}
			}
			if strat != StratifyColumns {
				continue
			}
			for j, counts := range perCol {
				c := 0
				for _, n := range counts {
					c += n
				}
				if slices.Max(counts)-slices.Min(counts) > 1 {
					t.Errorf("k=%d: column %d's %d entries spread as %v, want floor or ceil of c/k per fold", k, j, c, counts)
				}
			}
		}
	}
}

// denseRatings returns synthetic data dense enough (40 x 60 at density
// 0.3) that every row and column has several entries, so folds can keep
// each in training.
func denseRatings(t *testing.T) *Ratings {
	t.Helper()
	r, err := Synthetic(SyntheticOptions{Rows: 40, Cols: 60, Density: 0.3, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestCrossValidationFoldsDeterministic checks that the same source gives
// the same folds and another source other folds.
func TestCrossValidationFoldsDeterministic(t *testing.T) {
	r := denseRatings(t)
	for _, strat := range []Stratify{StratifyNone, StratifyColumns} {
		a, errA := CrossValidationFolds(r.Rows, r.Cols, r.Entries, 5, strat, 100, rand.NewPCG(1, 2))
		b, errB := CrossValidationFolds(r.Rows, r.Cols, r.Entries, 5, strat, 100, rand.NewPCG(1, 2))
		c, errC := CrossValidationFolds(r.Rows, r.Cols, r.Entries, 5, strat, 100, rand.NewPCG(1, 3))
		if errA != nil || errB != nil || errC != nil {
			t.Fatal(errA, errB, errC)
		}
		if !slices.Equal(a, b) {
			t.Errorf("%v: the same source gave different folds", strat)
		}
		if slices.Equal(a, c) {
			t.Errorf("%v: another source gave the same folds", strat)
		}
	}
}

// TestCrossValidationFoldsUniform checks that an unstratified partition
// puts each entry in each fold equally often: over 2000 draws of 3 folds
// of 6 entries, each count is Binomial(2000, 1/3), mean 666.7 and standard
// deviation 21.1; 5 standard deviations (105) bound all 18 counts with
// probability above 1 - 1e-5.
func TestCrossValidationFoldsUniform(t *testing.T) {
	entries := []sparse.Entry{{Row: 0, Col: 0}, {Row: 0, Col: 1}, {Row: 0, Col: 2}, {Row: 1, Col: 0}, {Row: 1, Col: 1}, {Row: 1, Col: 2}}
	src := rand.NewPCG(11, 12)
	const draws = 2000
	var count [6][3]int
	for range draws {
		// Each column has two entries and each fold two, so a fold that
		// holds a whole column is redrawn; by symmetry the accepted
		// partitions still put each entry in each fold equally often.
		fold, err := CrossValidationFolds(2, 3, entries, 3, StratifyNone, 1000, src)
		if err != nil {
			t.Fatal(err)
		}
		for t2, f := range fold {
			count[t2][f]++
		}
	}
	for t2, cs := range count {
		for f, n := range cs {
			if n < draws/3-105 || n > draws/3+105 {
				t.Errorf("entry %d in fold %d %d times of %d, want %d ± 105", t2, f, n, draws, draws/3)
			}
		}
	}
}

// TestCrossValidationFoldsErrors checks the errors of bad arguments and
// of a partition that cannot cover.
func TestCrossValidationFoldsErrors(t *testing.T) {
	two := []sparse.Entry{{Row: 0, Col: 0}, {Row: 0, Col: 1}}
	tests := []struct {
		name    string
		rows    int
		entries []sparse.Entry
		k       int
		src     rand.Source
		want    string
	}{
		{"nil source", 1, two, 2, nil, "random source"},
		{"one fold", 1, two, 1, rand.NewPCG(1, 1), "want from 2"},
		{"more folds than entries", 1, two, 3, rand.NewPCG(1, 1), "want from 2"},
		{"outside the grid", 1, []sparse.Entry{{Row: 1, Col: 0}, {Row: 0, Col: 1}}, 2, rand.NewPCG(1, 1), "outside"},
		// Each column has one entry, so the fold holding it empties it.
		{"cannot cover", 1, two, 2, rand.NewPCG(1, 1), "no 2-fold partition"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := CrossValidationFolds(tt.rows, 2, tt.entries, tt.k, StratifyNone, 10, tt.src)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want an error containing %q", err, tt.want)
			}
		})
	}
}
