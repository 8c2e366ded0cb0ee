package dataset

import (
	"slices"
	"strings"
	"testing"

	"github.com/bnmf-lab/bnmf/sparse"
)

// TestCleanPasses checks that cleaning makes exactly three passes, rows,
// columns, rows. With a threshold of 2: pass 1 drops r4 (1 rating); pass 2
// drops column w (only r3 left on it); pass 3 drops r3 (only z left).
// Column z then has 1 rating but stays, as there is no fourth pass.
func TestCleanPasses(t *testing.T) {
	content := strings.Join([]string{
		"r1,x,1", "r1,y,2",
		"r2,x,3", "r2,y,4", "r2,z,5",
		"r3,z,1", "r3,w,2",
		"r4,w,3",
	}, "\n")
	path := writeFile(t, "", content)
	tests := []struct {
		min            int
		rowIDs, colIDs []string
		entries        []sparse.Entry
	}{
		{min: 2, rowIDs: []string{"r1", "r2"}, colIDs: []string{"x", "y", "z"},
			entries: []sparse.Entry{{Row: 0, Col: 0, Value: 1}, {Row: 0, Col: 1, Value: 2}, {Row: 1, Col: 0, Value: 3}, {Row: 1, Col: 1, Value: 4}, {Row: 1, Col: 2, Value: 5}}},
		{min: 1, rowIDs: []string{"r1", "r2", "r3", "r4"}, colIDs: []string{"w", "x", "y", "z"},
			entries: []sparse.Entry{{Row: 0, Col: 1, Value: 1}, {Row: 0, Col: 2, Value: 2}, {Row: 1, Col: 1, Value: 3}, {Row: 1, Col: 2, Value: 4},
				{Row: 1, Col: 3, Value: 5}, {Row: 2, Col: 0, Value: 2}, {Row: 2, Col: 3, Value: 1}, {Row: 3, Col: 0, Value: 3}}},
	}
	for _, tt := range tests {
		r, err := OpenFile(path, "triplets", Options{MinRatings: tt.min})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(r.RowIDs, tt.rowIDs) || !slices.Equal(r.ColIDs, tt.colIDs) || !slices.Equal(r.Entries, tt.entries) {
			t.Errorf("MinRatings %d: got %q x %q %v, want %q x %q %v", tt.min, r.RowIDs, r.ColIDs, r.Entries, tt.rowIDs, tt.colIDs, tt.entries)
		}
	}
	if _, err := OpenFile(path, "triplets", Options{MinRatings: 4}); err == nil {
		t.Error("cleaning that removes everything gave no error")
	}
}

// TestCleanKeepsEmptyLines checks that an uncleaned MatrixMarket file keeps
// its declared size and a cleaned one drops the empty rows and columns.
func TestCleanKeepsEmptyLines(t *testing.T) {
	path := writeFile(t, "m.mtx", "%%MatrixMarket matrix coordinate real general\n4 3 2\n2 2 1\n4 2 2\n")
	tests := []struct {
		min, rows, cols int
		rowIDs          []string
	}{
		{min: 0, rows: 4, cols: 3, rowIDs: []string{"1", "2", "3", "4"}},
		{min: 1, rows: 2, cols: 1, rowIDs: []string{"2", "4"}},
	}
	for _, tt := range tests {
		r, err := OpenFile(path, "matrix-market", Options{MinRatings: tt.min})
		if err != nil {
			t.Fatal(err)
		}
		if r.Rows != tt.rows || r.Cols != tt.cols || !slices.Equal(r.RowIDs, tt.rowIDs) {
			t.Errorf("MinRatings %d: %d x %d rows %q, want %d x %d rows %q", tt.min, r.Rows, r.Cols, r.RowIDs, tt.rows, tt.cols, tt.rowIDs)
		}
	}
}

func TestSummaryAndDistribution(t *testing.T) {
	r := &Ratings{Name: "toy", Rows: 2, Cols: 5, Entries: []sparse.Entry{
		{Row: 0, Col: 0, Value: 4}, {Row: 0, Col: 3, Value: 0.5}, {Row: 1, Col: 1, Value: 4}, {Row: 1, Col: 4, Value: 2},
	}}
	want := Summary{Name: "toy", Rows: 2, Cols: 5, Observed: 4, FractionObserved: 0.4}
	if got := r.Summary(); got != want {
		t.Errorf("Summary() = %+v, want %+v", got, want)
	}
	wantDist := []RatingCount{{0.5, 1}, {2, 1}, {4, 2}}
	if got := Distribution(r); !slices.Equal(got, wantDist) {
		t.Errorf("Distribution() = %v, want %v", got, wantDist)
	}
	m, err := r.Matrix()
	if err != nil {
		t.Fatal(err)
	}
	if rows, cols := m.Dims(); rows != 2 || cols != 5 || m.Len() != 4 {
		t.Errorf("Matrix() is %d x %d with %d entries, want 2 x 5 with 4", rows, cols, m.Len())
	}
	bad := &Ratings{Name: "bad", Rows: 1, Cols: 1, Entries: []sparse.Entry{{Row: 1}}}
	if _, err := bad.Matrix(); err == nil || !strings.Contains(err.Error(), "bad") {
		t.Errorf("Matrix() of an out-of-range entry: got %v, want an error naming the dataset", err)
	}
}
