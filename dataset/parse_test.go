package dataset

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/bnmf-lab/bnmf/sparse"
)

// loaderCase is a small file and what loading it must give: either the
// matrix (identifiers and entries) or an error at a line and field.
type loaderCase struct {
	name    string
	format  string
	file    string // file name, which matters for the .csv layouts
	content string

	rowIDs, colIDs []string
	entries        []sparse.Entry

	errLine  int
	errField string
	errIs    error // if set, the error must wrap it
}

func loaderCases() []loaderCase {
	// Three ratings of users 1, 2 and 10 on movies 2 and 10; identifiers
	// sort numerically, so user "10" is row 2 and movie "2" column 0.
	udata := []string{"1\t10\t5\t881250949", "2\t10\t3\t891717742", "10\t2\t4\t878887116"}
	ids3 := []string{"1", "2", "10"}
	cols2 := []string{"2", "10"}
	entries3 := []sparse.Entry{{Row: 0, Col: 1, Value: 5}, {Row: 1, Col: 1, Value: 3}, {Row: 2, Col: 0, Value: 4}}
	lines := func(sep string, ls ...string) string { return strings.Join(ls, sep) }
	return []loaderCase{
		{name: "u.data/LF", format: "movielens-100k", content: lines("\n", udata...) + "\n",
			rowIDs: ids3, colIDs: cols2, entries: entries3},
		{name: "u.data/CRLF", format: "movielens-100k", content: lines("\r\n", udata...) + "\r\n",
			rowIDs: ids3, colIDs: cols2, entries: entries3},
		{name: "u.data/no trailing newline", format: "movielens-100k", content: lines("\n", udata...),
			rowIDs: ids3, colIDs: cols2, entries: entries3},
		{name: "u.data/empty", format: "movielens-100k", content: "", errIs: ErrNoRatings},
		{name: "u.data/three fields", format: "movielens-100k", content: "1\t2\t3\t4\n1\t3\t4\n", errLine: 2},
		{name: "u.data/five fields", format: "movielens-100k", content: "1\t2\t3\t4\t5\n", errLine: 1},
		{name: "u.data/blank line", format: "movielens-100k", content: "1\t2\t3\t4\n\n1\t3\t4\t5\n", errLine: 2},
		{name: "u.data/user id", format: "movielens-100k", content: "1\t2\t3\t4\nu7\t3\t4\t5\n", errLine: 2, errField: "user id"},
		{name: "u.data/movie id", format: "movielens-100k", content: "1\t-2\t3\t4\n", errLine: 1, errField: "movie id"},
		{name: "u.data/rating text", format: "movielens-100k", content: "1\t2\tfive\t4\n", errLine: 1, errField: "rating"},
		{name: "u.data/rating 6", format: "movielens-100k", content: "1\t2\t3\t4\n1\t3\t6\t4\n", errLine: 2, errField: "rating"},
		{name: "u.data/half star", format: "movielens-100k", content: "1\t2\t3.5\t4\n", errLine: 1, errField: "rating"},
		{name: "u.data/negative", format: "movielens-100k", content: "1\t2\t-1\t4\n", errLine: 1, errField: "rating", errIs: ErrNegative},
		{name: "u.data/NaN", format: "movielens-100k", content: "1\t2\tNaN\t4\n", errLine: 1, errField: "rating", errIs: ErrNonFinite},
		{name: "u.data/timestamp", format: "movielens-100k", content: "1\t2\t3\t4x\n", errLine: 1, errField: "timestamp"},
		{name: "u.data/duplicate", format: "movielens-100k", content: "1\t2\t3\t4\n5\t2\t3\t4\n1\t2\t4\t9\n", errLine: 3, errIs: ErrDuplicate},

		{name: "ratings.dat/no timestamp", format: "movielens-1m", content: "1::10::5\r\n2::10::3\r\n10::2::4",
			rowIDs: ids3, colIDs: cols2, entries: entries3},
		{name: "ratings.dat/timestamp", format: "movielens-1m", content: "1::10::5::978300760\n2::10::3::978302109\n10::2::4::978301968\n",
			rowIDs: ids3, colIDs: cols2, entries: entries3},
		{name: "ratings.dat/mixed fields", format: "movielens-1m", content: "1::10::5\n2::10::3::978302109\n", errLine: 2},
		{name: "ratings.dat/two fields", format: "movielens-1m", content: "1::10\n", errLine: 1},
		{name: "ratings.dat/single colon", format: "movielens-1m", content: "1:10:5\n", errLine: 1},
		{name: "ratings.dat/half star in 1M", format: "movielens-1m", content: "1::10::4.5\n", errLine: 1, errField: "rating"},
		{name: "ratings.dat/half stars in 10M", format: "movielens-10m", file: "ratings.dat", content: "1::10::4.5::1\n2::10::0.5::1\n",
			rowIDs: []string{"1", "2"}, colIDs: []string{"10"}, entries: []sparse.Entry{{Row: 0, Col: 0, Value: 4.5}, {Row: 1, Col: 0, Value: 0.5}}},
		{name: "ratings.dat/quarter star", format: "movielens-10m", file: "ratings.dat", content: "1::10::4.25::1\n", errLine: 1, errField: "rating"},
		{name: "ratings.dat/zero stars", format: "movielens-10m", file: "ratings.dat", content: "1::10::0::1\n", errLine: 1, errField: "rating"},
		{name: "ratings.dat/duplicate", format: "movielens-1m", content: "1::10::5\n1::10::3\n", errLine: 2, errIs: ErrDuplicate},
		{name: "ratings.dat/empty", format: "movielens-1m", content: "", errIs: ErrNoRatings},

		{name: "ratings.csv/CRLF", format: "movielens-20m", file: "ratings.csv",
			content: "userId,movieId,rating,timestamp\r\n1,10,5.0,1\r\n2,10,3.0,2\r\n10,2,4.0,3\r\n",
			rowIDs:  ids3, colIDs: cols2, entries: entries3},
		{name: "ratings.csv/half stars", format: "movielens-latest-small", file: "ratings.csv",
			content: "userId,movieId,rating,timestamp\n1,10,3.5,1",
			rowIDs:  []string{"1"}, colIDs: []string{"10"}, entries: []sparse.Entry{{Row: 0, Col: 0, Value: 3.5}}},
		{name: "ratings.csv/no header", format: "movielens-25m", file: "ratings.csv", content: "1,10,3.5,1\n", errLine: 1},
		{name: "ratings.csv/header only", format: "movielens-25m", file: "ratings.csv", content: "userId,movieId,rating,timestamp\n", errIs: ErrNoRatings},
		{name: "ratings.csv/missing timestamp", format: "movielens-25m", file: "ratings.csv", content: "userId,movieId,rating,timestamp\n1,10,3.5\n", errLine: 2},
		{name: "ratings.csv/Inf", format: "movielens-25m", file: "ratings.csv", content: "userId,movieId,rating,timestamp\n1,10,+Inf,3\n", errLine: 2, errField: "rating", errIs: ErrNonFinite},
	}
}

func tripletCases() []loaderCase {
	mixed := []string{"3", "20", "u10", "u2"} // numeric first, numerically; then byte order
	return []loaderCase{
		{name: "triplets/csv header", format: "triplets", content: "user,item,rating\nu2,a,1.5\n20,a,0\nu10,b,2\n3,b,1e3\n",
			rowIDs: mixed, colIDs: []string{"a", "b"},
			entries: []sparse.Entry{{Row: 0, Col: 1, Value: 1000}, {Row: 1, Col: 0, Value: 0}, {Row: 2, Col: 1, Value: 2}, {Row: 3, Col: 0, Value: 1.5}}},
		{name: "triplets/tsv CRLF blank lines", format: "triplets", content: "\r\n1\t2\t0.25\r\n\r\n2\t1\t7\r\n",
			rowIDs: []string{"1", "2"}, colIDs: []string{"1", "2"},
			entries: []sparse.Entry{{Row: 0, Col: 1, Value: 0.25}, {Row: 1, Col: 0, Value: 7}}},
		{name: "triplets/spaces no newline", format: "triplets", content: "a  x   1\n c \"y\" 2",
			rowIDs: []string{"a", "c"}, colIDs: []string{"x", "y"},
			entries: []sparse.Entry{{Row: 0, Col: 0, Value: 1}, {Row: 1, Col: 1, Value: 2}}},
		{name: "triplets/spaces inside quotes", format: "triplets", content: `"a b" x 1` + "\n", errLine: 1},
		{name: "triplets/quoted csv", format: "triplets", content: `"a b", "x", 1` + "\n" + `c,y,2`,
			rowIDs: []string{"a b", "c"}, colIDs: []string{"x", "y"},
			entries: []sparse.Entry{{Row: 0, Col: 0, Value: 1}, {Row: 1, Col: 1, Value: 2}}},
		{name: "triplets/bad value", format: "triplets", content: "1,2,3\n1,3,three\n", errLine: 2, errField: "value"},
		{name: "triplets/four fields", format: "triplets", content: "1,2,3,4\n", errLine: 1},
		{name: "triplets/two fields", format: "triplets", content: "1,2,3\n1,3\n", errLine: 2},
		{name: "triplets/tab then comma", format: "triplets", content: "1\t2\t3\n1,3,4\n", errLine: 2},
		{name: "triplets/empty id", format: "triplets", content: "1,2,3\n,3,4\n", errLine: 2, errField: "row"},
		{name: "triplets/negative", format: "triplets", content: "1,2,-0.5\n", errLine: 1, errField: "value", errIs: ErrNegative},
		{name: "triplets/infinite", format: "triplets", content: "r,c,v\n1,2,inf\n", errLine: 2, errField: "value", errIs: ErrNonFinite},
		{name: "triplets/duplicate", format: "triplets", content: "1,2,3\n4,5,6\n1,2,3\n", errLine: 3, errIs: ErrDuplicate},
		{name: "triplets/empty", format: "triplets", content: "", errIs: ErrNoRatings},
		{name: "triplets/header only", format: "triplets", content: "row,col,value\n", errIs: ErrNoRatings},

		{name: "mtx/ok", format: "matrix-market",
			content: "%%MatrixMarket matrix coordinate real general\r\n% a comment\r\n\r\n3 4 2\r\n1 4 2.5\r\n3 1 1",
			rowIDs:  []string{"1", "2", "3"}, colIDs: []string{"1", "2", "3", "4"},
			entries: []sparse.Entry{{Row: 0, Col: 3, Value: 2.5}, {Row: 2, Col: 0, Value: 1}}},
		{name: "mtx/integer upper case", format: "matrix-market", content: "%%MatrixMarket MATRIX Coordinate INTEGER General\n1 1 1\n1 1 4\n",
			rowIDs: []string{"1"}, colIDs: []string{"1"}, entries: []sparse.Entry{{Row: 0, Col: 0, Value: 4}}},
		{name: "mtx/banner", format: "matrix-market", content: "1 1 1\n1 1 4\n", errLine: 1},
		{name: "mtx/pattern", format: "matrix-market", content: "%%MatrixMarket matrix coordinate pattern general\n1 1 1\n1 1\n", errLine: 1, errField: "value type"},
		{name: "mtx/symmetric", format: "matrix-market", content: "%%MatrixMarket matrix coordinate real symmetric\n1 1 1\n1 1 4\n", errLine: 1, errField: "symmetry"},
		{name: "mtx/array", format: "matrix-market", content: "%%MatrixMarket matrix array real general\n1 1\n4\n", errLine: 1, errField: "format"},
		{name: "mtx/no size", format: "matrix-market", content: "%%MatrixMarket matrix coordinate real general\n% only comments\n", errLine: 2},
		{name: "mtx/bad size", format: "matrix-market", content: "%%MatrixMarket matrix coordinate real general\n2 x 1\n", errLine: 2, errField: "columns"},
		{name: "mtx/too many for grid", format: "matrix-market", content: "%%MatrixMarket matrix coordinate real general\n1 1 2\n", errLine: 2, errField: "entries"},
		{name: "mtx/row out of range", format: "matrix-market", content: "%%MatrixMarket matrix coordinate real general\n2 2 1\n3 1 1\n", errLine: 3, errField: "row"},
		{name: "mtx/column zero", format: "matrix-market", content: "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 0 1\n", errLine: 3, errField: "column"},
		{name: "mtx/too few", format: "matrix-market", content: "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1\n", errLine: 3},
		{name: "mtx/too many", format: "matrix-market", content: "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 1\n2 2 1\n", errLine: 4},
		{name: "mtx/negative", format: "matrix-market", content: "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 -1\n", errLine: 3, errField: "value", errIs: ErrNegative},
		{name: "mtx/duplicate", format: "matrix-market", content: "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1\n1 1 2\n", errLine: 4, errIs: ErrDuplicate},
		{name: "mtx/empty", format: "matrix-market", content: "", errIs: ErrNoRatings},
		{name: "mtx/no entries", format: "matrix-market", content: "%%MatrixMarket matrix coordinate real general\n2 2 0\n", errIs: ErrNoRatings},
		{name: "mtx/declared size beyond its entries", format: "matrix-market",
			content: "%%MatrixMarket matrix coordinate real general\n2000000000 2000000000 3\n1 1 1\n2 2 2\n2000000000 2000000000 3\n",
			errLine: 2, errField: "rows"},
		{name: "mtx/columns beyond its entries", format: "matrix-market",
			content: "%%MatrixMarket matrix coordinate real general\n2 65539 2\n1 1 1\n2 65539 2\n", errLine: 2, errField: "columns"},
		{name: "mtx/empty rows and columns kept", format: "matrix-market",
			content: "%%MatrixMarket matrix coordinate real general\n3 65538 2\n1 1 1\n3 2 2\n",
			rowIDs:  []string{"1", "2", "3"}, colIDs: numberedIDs(65538),
			entries: []sparse.Entry{{Row: 0, Col: 0, Value: 1}, {Row: 2, Col: 1, Value: 2}}},
	}
}

// writeFile writes content to a new file called name (default "ratings")
// in a temporary directory and returns its path.
func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	if name == "" {
		name = "ratings"
	}
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestOpenFile(t *testing.T) {
	for _, tt := range append(loaderCases(), tripletCases()...) {
		t.Run(tt.name, func(t *testing.T) {
			path := writeFile(t, tt.file, tt.content)
			// A MovieLens format would clean these few ratings away by
			// default; MinRatings 1 keeps every one. The other formats
			// keep even empty rows and columns by default.
			var opts Options
			if isMovieLensFormat(tt.format) {
				opts.MinRatings = 1
			}
			r, err := OpenFile(path, tt.format, opts)
			if tt.entries == nil {
				checkParseError(t, err, path, tt)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(r.RowIDs, tt.rowIDs) || !slices.Equal(r.ColIDs, tt.colIDs) {
				t.Errorf("identifiers %q x %q, want %q x %q", r.RowIDs, r.ColIDs, tt.rowIDs, tt.colIDs)
			}
			// Values are parsed from short decimals, exactly.
			if !slices.Equal(r.Entries, tt.entries) {
				t.Errorf("entries %v, want %v", r.Entries, tt.entries)
			}
			if r.Rows != len(tt.rowIDs) || r.Cols != len(tt.colIDs) || r.Name != filepath.Base(path) {
				t.Errorf("%s is %d x %d, want %d x %d", r.Name, r.Rows, r.Cols, len(tt.rowIDs), len(tt.colIDs))
			}
			checkIndexed(t, r)
		})
	}
}

// checkParseError checks that err is the ParseError tt describes.
func checkParseError(t *testing.T, err error, path string, tt loaderCase) {
	t.Helper()
	var pe *ParseError
	if !errors.As(err, &pe) {
		t.Fatalf("got %v, want a *ParseError", err)
	}
	if pe.File != path || pe.Line != tt.errLine || pe.Field != tt.errField {
		t.Errorf("error %q at %s line %d field %q, want line %d field %q", err, pe.File, pe.Line, pe.Field, tt.errLine, tt.errField)
	}
	if tt.errIs != nil && !errors.Is(err, tt.errIs) {
		t.Errorf("error %q does not wrap %q", err, tt.errIs)
	}
	if !strings.HasPrefix(err.Error(), path) {
		t.Errorf("error %q does not start with the file name", err)
	}
}

func TestParseErrorNamesFirstDuplicate(t *testing.T) {
	path := writeFile(t, "", "1,2,3\n4,5,6\n1,2,3\n")
	_, err := OpenFile(path, "triplets", Options{})
	want := path + `:3: duplicate entry: row "1", column "2" already given on line 1`
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
}

func TestOpenFileUnknownFormat(t *testing.T) {
	path := writeFile(t, "", "1,2,3\n")
	if _, err := OpenFile(path, "excel", Options{}); err == nil || !strings.Contains(err.Error(), "triplets") {
		t.Errorf("got %v, want an error listing the known formats", err)
	}
	if _, err := OpenFile(path, "triplets", Options{MinRatings: -1}); err == nil {
		t.Error("negative MinRatings accepted")
	}
}

func TestCompareIDs(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"9", "10", -1},
		{"10", "9", 1},
		{"007", "7", -1}, // equal numbers: by string
		{"007", "8", -1},
		{"123456789012345678901234567890", "99", 1}, // beyond int64
		{"99", "a", -1},   // numbers first
		{"-1", "0", 1},    // "-1" is not a digit string
		{"u10", "u2", -1}, // byte order
		{"x", "x", 0},
	}
	for _, tt := range tests {
		if got := compareIDs(tt.a, tt.b); (got > 0) != (tt.want > 0) || (got < 0) != (tt.want < 0) {
			t.Errorf("compareIDs(%q, %q) = %d, want sign %d", tt.a, tt.b, got, tt.want)
		}
	}
}
