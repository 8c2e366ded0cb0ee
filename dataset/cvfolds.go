package dataset

import (
	"fmt"
	"math/rand/v2"

	"github.com/bnmf-lab/bnmf/sparse"
)

// Stratify says how CrossValidationFolds spreads the entries over the
// folds.
type Stratify int

// The stratification rules.
const (
	// StratifyNone deals the shuffled entries into k contiguous blocks
	// of sizes differing by at most one.
	StratifyNone Stratify = iota
	// StratifyColumns spreads each column's entries as evenly as can be
	// over the folds, so that every fold holds the same share of every
	// column (up to one entry).
	StratifyColumns
)

// String names the rule: "none" or "columns".
func (s Stratify) String() string {
	switch s {
	case StratifyNone:
		return "none"
	case StratifyColumns:
		return "columns"
	}
	return fmt.Sprintf("Stratify(%d)", int(s))
}

// CrossValidationFolds partitions entries, a matrix's observed entries
// (or a subset of them) on a rows x cols grid, into k folds for
// cross-validation, drawing from src, and returns each entry's fold in
// [0, k), in the order of entries. Every entry is in exactly one fold, so
// every entry is tested once; fold f trains on all entries outside it.
//
// A partition is accepted only when every fold's training part keeps at
// least one entry in every row and every column that entries reach; a
// partition that fails this is redrawn from the same stream, up to
// attempts draws in all, and it is an error if none passes. This is the
// protocol of Brouwer & Lio's cross-validation (their mask.py redraws
// until no row or column of a training mask is empty: 100 attempts in
// their model selection, 1000 in their nested cross-validation).
//
// With StratifyNone the entries are shuffled and cut into k blocks at the
// positions floor(f n / k), as their unstratified folds are. With
// StratifyColumns each column's entries are shuffled and dealt to the
// folds in turn, continuing from the fold where the previous column
// stopped (the first column starts at a random fold): every fold gets
// floor or ceil of c/k of a column with c entries, and fold sizes differ
// by at most one. Their stratified folds use scikit-learn's
// StratifiedKFold with the column index as the label, which spreads each
// column the same way but hands a column's remainder to its first folds;
// which folds receive the remainders is the only difference.
//
// k must be at least 2 and at most len(entries), attempts at least 1,
// every entry inside the grid; a nil src is an error.
func CrossValidationFolds(rows, cols int, entries []sparse.Entry, k int, strat Stratify, attempts int, src rand.Source) ([]int, error) {
	if src == nil {
		return nil, errNilSource
	}
	if k < 2 || k > len(entries) {
		return nil, fmt.Errorf("dataset: %d folds; want from 2 to the %d entries", k, len(entries))
	}
	if attempts < 1 {
		return nil, fmt.Errorf("dataset: %d attempts to draw folds; want at least 1", attempts)
	}
	if strat != StratifyNone && strat != StratifyColumns {
		return nil, fmt.Errorf("dataset: unknown stratification %v", strat)
	}
	rowCount := make([]int, rows)
	colCount := make([]int, cols)
	for _, e := range entries {
		if e.Row < 0 || e.Row >= rows || e.Col < 0 || e.Col >= cols {
			return nil, fmt.Errorf("dataset: entry (%d, %d) outside the %d x %d grid", e.Row, e.Col, rows, cols)
		}
		rowCount[e.Row]++
		colCount[e.Col]++
	}
	var byCol [][]int // entry indices by column, for StratifyColumns
	if strat == StratifyColumns {
		byCol = make([][]int, cols)
		for t, e := range entries {
			byCol[e.Col] = append(byCol[e.Col], t)
		}
	}
	rng := rand.New(src)
	fold := make([]int, len(entries))
	for range attempts {
		switch strat {
		case StratifyNone:
			n := len(entries)
			for p, t := range rng.Perm(n) {
				// Position p lies in block f when floor(f n/k) <= p < floor((f+1) n/k).
				fold[t] = ((p+1)*k - 1) / n
			}
		case StratifyColumns:
			next := rng.IntN(k)
			for _, ts := range byCol {
				rng.Shuffle(len(ts), func(i, j int) { ts[i], ts[j] = ts[j], ts[i] })
				for _, t := range ts {
					fold[t] = next
					next = (next + 1) % k
				}
			}
		}
		if foldsCover(entries, fold, k, rowCount, colCount) {
			return fold, nil
		}
	}
	return nil, fmt.Errorf("dataset: no %d-fold partition (stratified by %v) of %d entries in %d attempts kept a training entry in every row and column",
		k, strat, len(entries), attempts)
}

// foldsCover reports whether every fold's training part (the entries of
// the other folds) keeps an entry in every row and column that has one.
func foldsCover(entries []sparse.Entry, fold []int, k int, rowCount, colCount []int) bool {
	rows, cols := len(rowCount), len(colCount)
	inRow := make([]int, k*rows)
	inCol := make([]int, k*cols)
	for t, e := range entries {
		inRow[fold[t]*rows+e.Row]++
		inCol[fold[t]*cols+e.Col]++
	}
	for f := range k {
		for i, c := range rowCount {
			if c > 0 && inRow[f*rows+i] == c {
				return false
			}
		}
		for j, c := range colCount {
			if c > 0 && inCol[f*cols+j] == c {
				return false
			}
		}
	}
	return true
}
