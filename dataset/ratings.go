package dataset

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/bnmf-lab/bnmf/sparse"
)

// Ratings is a cleaned, indexed matrix of observed ratings.
type Ratings struct {
	// Name identifies the data, such as "movielens-100k" or a file name.
	Name string
	// Rows and Cols are the dimensions M and N of the rating matrix.
	Rows, Cols int
	// Entries holds the observed ratings with zero-based indices, sorted by
	// row and then column.
	Entries []sparse.Entry
	// RowIDs and ColIDs map indices to the identifiers in the source: row i
	// is RowIDs[i]. Indices follow the sorted identifiers (see Open).
	RowIDs, ColIDs []string
	// Format is the format OpenFile read a file in, the one given or the
	// one DetectFormat found; "" for data that Open read by name.
	Format string
}

// FractionObserved returns the share of the Rows x Cols grid that is
// observed, the last column of the paper's Table 1 (0.072 for MovieLens
// 100K). It is 0 for an empty grid.
func (r *Ratings) FractionObserved() float64 {
	if r.Rows == 0 || r.Cols == 0 {
		return 0
	}
	return float64(len(r.Entries)) / (float64(r.Rows) * float64(r.Cols))
}

// Matrix returns the ratings as a sparse sparse.Matrix.
func (r *Ratings) Matrix() (*sparse.Matrix, error) {
	m, err := sparse.NewMatrix(r.Rows, r.Cols, r.Entries)
	if err != nil {
		return nil, fmt.Errorf("dataset %s: %w", r.Name, err)
	}
	return m, nil
}

// Summary is one row of the paper's Table 1.
type Summary struct {
	Name       string
	Rows, Cols int
	// Observed is the number of observed entries.
	Observed int
	// FractionObserved is Observed / (Rows * Cols).
	FractionObserved float64
}

// Summary returns the Table 1 row of r.
func (r *Ratings) Summary() Summary {
	return Summary{
		Name:             r.Name,
		Rows:             r.Rows,
		Cols:             r.Cols,
		Observed:         len(r.Entries),
		FractionObserved: r.FractionObserved(),
	}
}

// RatingCount is one bar of a rating distribution (the paper's Fig. 3):
// how many observed entries have the given value.
type RatingCount struct {
	Value float64
	Count int
}

// Distribution counts the observed entries of r by value, in increasing
// order of value. For MovieLens 100K it gives five counts, for the stars 1
// to 5.
func Distribution(r *Ratings) []RatingCount {
	counts := make(map[float64]int)
	for _, e := range r.Entries {
		counts[e.Value]++
	}
	out := make([]RatingCount, 0, len(counts))
	for v, n := range counts {
		out = append(out, RatingCount{Value: v, Count: n})
	}
	slices.SortFunc(out, func(a, b RatingCount) int {
		switch {
		case a.Value < b.Value:
			return -1
		case a.Value > b.Value:
			return 1
		}
		return 0
	})
	return out
}

// errNothingLeft is returned when cleaning removes every rating.
var errNothingLeft = errors.New("no ratings are left after cleaning")

// clean applies the paper's cleaning to r and indexes the result. With
// minRatings > 0 it removes the rows with fewer than minRatings entries,
// then the columns with fewer than minRatings among the remaining rows,
// then the rows again, exactly these three passes (Section 5: "user
// vectors or movie vectors with less than 3 observed entries are
// cleaned"). With minRatings <= 0 every row and column is kept, empty ones
// included. The kept rows and columns keep their order, which is that of
// their sorted identifiers. Its loops check ctx every checkEvery steps;
// when it is cancelled, clean returns an error wrapping ctx.Err().
func clean(ctx context.Context, r *raw, name string, minRatings int) (*Ratings, error) {
	keepRow := make([]bool, r.rows)
	keepCol := make([]bool, r.cols)
	for i := range keepRow {
		keepRow[i] = true
	}
	for j := range keepCol {
		keepCol[j] = true
	}
	stopped := func(err error) (*Ratings, error) {
		return nil, fmt.Errorf("%s: cleaning stopped: %w", r.file, err)
	}
	if minRatings > 0 {
		for _, pass := range []struct {
			byCol       bool
			keep, other []bool
		}{{false, keepRow, keepCol}, {true, keepCol, keepRow}, {false, keepRow, keepCol}} {
			if err := prune(ctx, r.cells, pass.byCol, pass.keep, pass.other, minRatings); err != nil {
				return stopped(err)
			}
		}
	}
	rowIdx, rowIDs, err := renumber(ctx, keepRow, r.rowID)
	if err != nil {
		return stopped(err)
	}
	colIdx, colIDs, err := renumber(ctx, keepCol, r.colID)
	if err != nil {
		return stopped(err)
	}
	entries := make([]sparse.Entry, 0, len(r.cells))
	for i, c := range r.cells {
		if i%checkEvery == 0 && ctx.Err() != nil {
			return stopped(ctx.Err())
		}
		if keepRow[c.row] && keepCol[c.col] {
			entries = append(entries, sparse.Entry{Row: int(rowIdx[c.row]), Col: int(colIdx[c.col]), Value: c.value})
		}
	}
	if len(entries) == 0 {
		return nil, fmt.Errorf("%s: %w with at least %d ratings per row and column", r.file, errNothingLeft, minRatings)
	}
	return &Ratings{Name: name, Rows: len(rowIDs), Cols: len(colIDs), Entries: entries, RowIDs: rowIDs, ColIDs: colIDs}, nil
}

// prune clears keep[i] for every row i (every column i when byCol is
// set) with fewer than minCount entries in the kept lines of the other
// dimension. It returns ctx.Err() if ctx is cancelled meanwhile.
func prune(ctx context.Context, cells []cell, byCol bool, keep, keepOther []bool, minCount int) error {
	count := make([]int, len(keep))
	for i, c := range cells {
		if i%checkEvery == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		line, other := c.row, c.col
		if byCol {
			line, other = c.col, c.row
		}
		if keep[line] && keepOther[other] {
			count[line]++
		}
	}
	for i, n := range count {
		if n < minCount {
			keep[i] = false
		}
	}
	return nil
}

// renumber gives the kept lines consecutive indices in their current
// order and returns the old-to-new map and the kept identifiers, or
// ctx.Err() if ctx is cancelled meanwhile.
func renumber(ctx context.Context, keep []bool, id func(int32) string) ([]int32, []string, error) {
	idx := make([]int32, len(keep))
	var ids []string
	for i, k := range keep {
		if i%checkEvery == 0 && ctx.Err() != nil {
			return nil, nil, ctx.Err()
		}
		idx[i] = -1
		if k {
			idx[i] = int32(len(ids))
			ids = append(ids, id(int32(i)))
		}
	}
	return idx, ids, nil
}
