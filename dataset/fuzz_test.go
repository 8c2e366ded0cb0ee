package dataset

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"
)

// The fuzz targets check that no input makes a parser panic, that every
// failure is a ParseError naming the file, and that every success is a
// sorted, duplicate-free set of finite nonnegative entries that cleans
// into a valid Ratings. Their seed corpus, the loader test fixtures, runs
// in every "go test"; explore with, for example,
//
//	go test -fuzz=FuzzParseTriplets ./dataset/

func FuzzParseMovieLens(f *testing.F) {
	layouts := []movieLensLayout{layoutUData, layoutDat1M, layoutDat, layoutCSV}
	for _, tt := range loaderCases() {
		for i := range layouts {
			f.Add(uint8(i), tt.content)
		}
	}
	f.Fuzz(func(t *testing.T, layout uint8, content string) {
		l := layouts[int(layout)%len(layouts)]
		r, err := parseMovieLens("fuzz", strings.NewReader(content), l)
		checkParsed(t, r, err)
	})
}

func FuzzParseTriplets(f *testing.F) {
	for _, tt := range tripletCases() {
		if tt.format == "triplets" {
			f.Add(tt.content)
		}
	}
	for _, tt := range tripletHeaderCases() {
		f.Add(tt.content)
	}
	f.Fuzz(func(t *testing.T, content string) {
		r, err := parseTriplets("fuzz", strings.NewReader(content))
		checkParsed(t, r, err)
	})
}

func FuzzParseMatrixMarket(f *testing.F) {
	for _, tt := range tripletCases() {
		if tt.format == "matrix-market" {
			f.Add(tt.content)
		}
	}
	f.Fuzz(func(t *testing.T, content string) {
		r, err := parseMatrixMarket("fuzz", strings.NewReader(content))
		checkParsed(t, r, err)
	})
}

// checkParsed checks the outcome of a parser.
func checkParsed(t *testing.T, r *raw, err error) {
	t.Helper()
	if err != nil {
		var pe *ParseError
		if !errors.As(err, &pe) || pe.File != "fuzz" || !strings.HasPrefix(err.Error(), "fuzz") {
			t.Fatalf("error %q (%T) is not a ParseError for the file", err, err)
		}
		return
	}
	if len(r.cells) == 0 {
		t.Fatal("success without entries")
	}
	for i, c := range r.cells {
		if c.row < 0 || int(c.row) >= r.rows || c.col < 0 || int(c.col) >= r.cols {
			t.Fatalf("cell %+v outside %d x %d", c, r.rows, r.cols)
		}
		if math.IsNaN(c.value) || math.IsInf(c.value, 0) || c.value < 0 {
			t.Fatalf("cell %+v has a value that should have been rejected", c)
		}
		if i > 0 {
			p := r.cells[i-1]
			if p.row > c.row || (p.row == c.row && p.col >= c.col) {
				t.Fatalf("cells %+v and %+v out of order or duplicated", p, c)
			}
		}
	}
	for _, minRatings := range []int{0, DefaultMinRatings} {
		got, err := clean(context.Background(), r, "fuzz", minRatings)
		if err != nil {
			if minRatings == 0 || !errors.Is(err, errNothingLeft) {
				t.Fatalf("clean(%d): %v", minRatings, err)
			}
			continue
		}
		checkIndexed(t, got)
	}
}

func FuzzParseDense(f *testing.F) {
	for _, m := range []string{"1\tnan\n2.5\t3\n0\t2.5e-314\n", "1\t2\n2.5\n0\t1\n", "nan\tnan\nnan\tnan\nnan\tnan\n", "1\t-2\n", "1\t2\r\n3\t4\r\n5\t6\r\n"} {
		f.Add(m, "a\tA\nb\tB\nc\tC\n", true)
		f.Add(m, "a\nb\na\n", false)
	}
	f.Fuzz(func(t *testing.T, matrix, rowNames string, subnormalMissing bool) {
		rows, err := parseLabels("fuzz", []byte(rowNames))
		if err != nil {
			checkParsed(t, nil, err)
			return
		}
		r, st, err := parseDense(context.Background(), "fuzz", strings.NewReader(matrix), rows, []string{"x", "y"}, subnormalMissing)
		checkParsed(t, r, err)
		if err == nil && st.tokens != len(r.cells)+st.subnormal {
			t.Fatalf("%d values, %d entries and %d subnormal ones dropped", st.tokens, len(r.cells), st.subnormal)
		}
	})
}
