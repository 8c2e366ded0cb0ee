package dataset

import (
	"context"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"
)

// TestOpenDrugSensitivity checks the real files: upstream's counts before
// cleaning (PROVENANCE and upstream's description.md), and after it the
// shapes, identifiers, removed cell lines and value sums computed
// independently by a separate script from the files.
func TestOpenDrugSensitivity(t *testing.T) {
	tests := []struct {
		name string
		// Before cleaning: upstream's shape, its count of values other
		// than nan, and how many of them are subnormal.
		rawRows, rawCols, tokens, subnormal int
		// After Open.
		rows, cols, observed int
		sum                  float64
		// cell is a (cell line, drug) pair and its value in the file.
		cell    [2]string
		value   float64
		removed []string // cell lines with fewer than 3 values
	}{
		{name: "gdsc-ic50", rawRows: 707, rawCols: 139, tokens: 79262,
			rows: 705, cols: 139, observed: 79259, sum: 3442360.1562824855,
			cell: [2]string{"22rv1", "17aag"}, value: 3.491683506526454206, removed: []string{"ncih250", "ncih378"}},
		{name: "ccle-ic50", rawRows: 504, rawCols: 24, tokens: 11670,
			rows: 504, cols: 24, observed: 11670, sum: 62357.23486729206,
			cell: [2]string{"1321n1", "17aag"}, value: 0.2280784399999999934},
		{name: "ccle-ec50", rawRows: 504, rawCols: 24, tokens: 7626, subnormal: 426,
			rows: 501, cols: 24, observed: 7195, sum: 21809.63854315299,
			cell: [2]string{"1321n1", "17aag"}, value: 0.1936767249999999940, removed: []string{"ncih2172", "snu475", "t84"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := testDataDir(t, tt.name)
			s := drugSourceNamed(t, tt.name)
			var labels [2][]string
			for i, f := range []drugFile{s.rows, s.cols} {
				data, err := os.ReadFile(s.filePath(dir, f))
				if err != nil {
					t.Fatal(err)
				}
				if labels[i], err = parseLabels(f.name, data); err != nil {
					t.Fatal(err)
				}
			}
			f, err := os.Open(s.path(dir))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			raw, st, err := parseDense(context.Background(), s.matrix.name, f, labels[0], labels[1], s.subnormalMissing)
			if err != nil {
				t.Fatal(err)
			}
			if raw.rows != tt.rawRows || raw.cols != tt.rawCols || st.tokens != tt.tokens || st.subnormal != tt.subnormal {
				t.Errorf("parsed %d x %d with %d values (%d subnormal), want %d x %d with %d (%d)",
					raw.rows, raw.cols, st.tokens, st.subnormal, tt.rawRows, tt.rawCols, tt.tokens, tt.subnormal)
			}

			r, err := Open(tt.name, dir, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if r.Rows != tt.rows || r.Cols != tt.cols || len(r.Entries) != tt.observed {
				t.Errorf("got %d x %d with %d entries, want %d x %d with %d", r.Rows, r.Cols, len(r.Entries), tt.rows, tt.cols, tt.observed)
			}
			checkIndexed(t, r)
			var sum float64
			for _, e := range r.Entries {
				sum += e.Value
				if e.Value > 0 && e.Value < minNormal {
					t.Fatalf("entry %+v is subnormal", e)
				}
			}
			// The script summed in another order: allow for rounding.
			if !scalar.EqualWithinRel(sum, tt.sum, 1e-12) {
				t.Errorf("values sum to %v, want %v", sum, tt.sum)
			}
			if got := valueAt(t, r, tt.cell[0], tt.cell[1]); got != tt.value {
				t.Errorf("value of %v is %v, want %v", tt.cell, got, tt.value)
			}
			for _, id := range tt.removed {
				if slices.Contains(r.RowIDs, id) {
					t.Errorf("cell line %s, with fewer than 3 values, was kept", id)
				}
			}
		})
	}
}

// valueAt returns the entry of r at the named row and column.
func valueAt(t *testing.T, r *Ratings, row, col string) float64 {
	t.Helper()
	i, j := slices.Index(r.RowIDs, row), slices.Index(r.ColIDs, col)
	for _, e := range r.Entries {
		if e.Row == i && e.Col == j {
			return e.Value
		}
	}
	t.Fatalf("no entry at (%s, %s)", row, col)
	return 0
}

// drugSourceNamed returns the registered drug-sensitivity dataset name.
func drugSourceNamed(t *testing.T, name string) drugSource {
	t.Helper()
	for _, s := range drugSources() {
		if s.name == name {
			return s
		}
	}
	t.Fatalf("no drug-sensitivity dataset %q", name)
	return drugSource{}
}

// TestOpenDrugSensitivityDigest changes one value of a copy of the real
// GDSC matrix: Open must reject it, and accept it with SkipChecksum.
func TestOpenDrugSensitivityDigest(t *testing.T) {
	real := testDataDir(t, "gdsc-ic50")
	dir := t.TempDir()
	s := drugSourceNamed(t, "gdsc-ic50")
	for _, f := range s.files() {
		data, err := os.ReadFile(s.filePath(real, f))
		if err != nil {
			t.Fatal(err)
		}
		if f == s.matrix {
			data = []byte(strings.Replace(string(data), "3.491683506526454206e+00", "3.491683506526454206e+01", 1))
		}
		if err := os.MkdirAll(filepath.Dir(s.filePath(dir, f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(s.filePath(dir, f), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, err := Open("gdsc-ic50", dir, Options{})
	if !errors.Is(err, ErrChecksum) || !strings.Contains(err.Error(), "ic50.txt") || !strings.Contains(err.Error(), "--skip-checksum") {
		t.Errorf("a changed ic50.txt gave %v, want a checksum error naming the file and the way out", err)
	}
	r, err := Open("gdsc-ic50", dir, Options{SkipChecksum: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := valueAt(t, r, "22rv1", "17aag"); got != 34.91683506526454206 {
		t.Errorf("changed value reads %v, want 34.9168...", got)
	}
}

// craftedDrugs is a 3 x 2 dataset served by a fake upstream: its files by
// upstream path, and the source that describes them.
func craftedDrugs(matrix string) (map[string]string, drugSource) {
	files := map[string]string{
		"up/m.txt":     matrix,
		"up/cells.txt": "a\tA\nb\tB\nc\tC\n",
		"up/drugs.txt": "x\tX\ny\tY\n",
	}
	s := drugSource{name: "crafted", dir: "SET",
		matrix: drugFile{"m.txt", "up/m.txt", sha(files["up/m.txt"])},
		rows:   drugFile{"cells.txt", "up/cells.txt", sha(files["up/cells.txt"])},
		cols:   drugFile{"drugs.txt", "up/drugs.txt", sha(files["up/drugs.txt"])},
		nrows:  3, ncols: 2, observed: 5, subnormalMissing: true}
	return files, s
}

// serveFiles answers GET /base/<path> with files[path], 404 otherwise.
func serveFiles(t *testing.T, files map[string]string) (string, *atomic.Int32) {
	t.Helper()
	srv, n := serve(t, func(w http.ResponseWriter, r *http.Request) {
		body, ok := files[strings.TrimPrefix(r.URL.Path, "/base/")]
		if !ok {
			http.NotFound(w, r)
			return
		}
		serveBytes([]byte(body), -1)(w, r)
	})
	return srv.URL + "/base", n
}

func TestFetchDrugSensitivity(t *testing.T) {
	const matrix = "1\tnan\n2.5\t3\n0\t2.5e-314\n"
	files, s := craftedDrugs(matrix)
	base, requests := serveFiles(t, files)
	dir := t.TempDir()
	got, err := s.install(context.Background(), dir, FetchOptions{BaseURL: base})
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(dir, "bmf-priors", "SET", "m.txt"); got != want {
		t.Errorf("installed at %s, want %s", got, want)
	}
	if files := listDir(t, dir); strings.Join(files, " ") != "bmf-priors/SET/cells.txt bmf-priors/SET/drugs.txt bmf-priors/SET/m.txt" {
		t.Errorf("data directory holds %q", files)
	}
	if requests.Load() != 3 {
		t.Errorf("%d requests, want 3", requests.Load())
	}
	// Present and verified: no download.
	if _, err := s.install(context.Background(), dir, FetchOptions{BaseURL: base}); err != nil {
		t.Fatal(err)
	}
	if requests.Load() != 3 {
		t.Errorf("a second fetch made %d requests in all, want still 3", requests.Load())
	}
	r, err := s.open(context.Background(), dir, Options{MinRatings: 1})
	if err != nil {
		t.Fatal(err)
	}
	// The subnormal 2.5e-314 is missing, the 0 a value.
	want := []float64{1, 2.5, 3, 0}
	var vals []float64
	for _, e := range r.Entries {
		vals = append(vals, e.Value)
	}
	if r.Rows != 3 || r.Cols != 2 || !slices.Equal(vals, want) || !slices.Equal(r.RowIDs, []string{"a", "b", "c"}) {
		t.Errorf("opened %d x %d %v rows %v, want 3 x 2 %v rows [a b c]", r.Rows, r.Cols, vals, r.RowIDs, want)
	}

	// A file that fails its digest is not installed, and nothing is left.
	bad := map[string]string{"up/m.txt": "9\tnan\n2.5\t3\n0\t2.5e-314\n", "up/cells.txt": files["up/cells.txt"], "up/drugs.txt": files["up/drugs.txt"]}
	badBase, _ := serveFiles(t, bad)
	dir2 := t.TempDir()
	_, err = s.install(context.Background(), dir2, FetchOptions{BaseURL: badBase})
	if !errors.Is(err, ErrChecksum) || !strings.Contains(err.Error(), "up/m.txt") {
		t.Errorf("a changed matrix gave %v, want a checksum error naming it", err)
	}
	if left := listDir(t, dir2); slices.Contains(left, "bmf-priors/SET/m.txt") {
		t.Errorf("a failed fetch installed the matrix: %v", left)
	}
	// A missing file on the mirror.
	_, err = s.install(context.Background(), t.TempDir(), FetchOptions{BaseURL: base + "/elsewhere"})
	if err == nil || !strings.Contains(err.Error(), "404") || !strings.Contains(err.Error(), "by hand") {
		t.Errorf("a missing file gave %v, want a 404 saying how to install it by hand", err)
	}
	if _, err := s.install(context.Background(), t.TempDir(), FetchOptions{URL: base}); err == nil {
		t.Error("a single URL for a dataset of three files gave no error")
	}
}

// TestOpenDrugSensitivityErrors opens crafted datasets whose matrix or
// names are wrong: each error must name the file, the line and the column.
func TestOpenDrugSensitivityErrors(t *testing.T) {
	tests := []struct {
		name, matrix string
		cells        string // replaces cells.txt when not empty
		skip         bool   // skip the digest and counts
		staleDigest  bool   // keep the digests of the default files
		want         string
		errIs        error
	}{
		{name: "counts", matrix: "1\tnan\n2.5\t3\n0\tnan\n", want: "3 x 2 with 4 values other than nan, want 3 x 2 with 5", errIs: ErrChecksum},
		{name: "not a number", matrix: "1\tnan\n2.5\tthree\n0\t1\n", skip: true, want: `m.txt:2: column 2 (y): "three" is not a number or nan`},
		{name: "NaN spelt otherwise", matrix: "1\tNaN\n2.5\t3\n0\t1\n", skip: true, want: "m.txt:1: column 2 (y): ", errIs: ErrNonFinite},
		{name: "infinite", matrix: "1\tinf\n2.5\t3\n0\t1\n", skip: true, want: "m.txt:1: column 2 (y): ", errIs: ErrNonFinite},
		{name: "negative", matrix: "1\t2\n2.5\t3\n-0.5\t1\n", skip: true, want: "m.txt:3: column 1 (x): ", errIs: ErrNegative},
		{name: "too few columns", matrix: "1\t2\n2.5\n0\t1\n", skip: true, want: "m.txt:2: 1 values, want 2"},
		{name: "too many columns", matrix: "1\t2\n2.5\t3\t4\n0\t1\n", skip: true, want: "m.txt:2: 3 values, want 2"},
		{name: "too many rows", matrix: "1\t2\n2.5\t3\n0\t1\n1\t1\n", skip: true, want: "m.txt:4: more rows than the 3 names"},
		{name: "too few rows", matrix: "1\t2\n2.5\t3\n", skip: true, want: "m.txt:2: 2 rows, want 3"},
		{name: "all missing", matrix: "nan\tnan\nnan\tnan\nnan\tnan\n", skip: true, errIs: ErrNoRatings},
		{name: "blank name", matrix: "1\t2\n2.5\t3\n0\t1\n", cells: "a\tA\n\nc\tC\n", skip: true, want: "cells.txt:2: name: empty"},
		{name: "digest", matrix: "1\tnan\n2.5\t3\n0\t2.5e-314\n", cells: "a\tA\nb\tB\nd\tD\n", staleDigest: true, want: "cells.txt: checksum mismatch", errIs: ErrChecksum},
		{name: "duplicate name", matrix: "1\t2\n2.5\t3\n0\t1\n", cells: "a\tA\nb\tB\na\tA\n", skip: true, want: `cells.txt:3: name: "a" already given on line 1`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files, s := craftedDrugs("1\tnan\n2.5\t3\n0\t2.5e-314\n")
			dir := t.TempDir()
			sub := filepath.Join(dir, "bmf-priors", "SET")
			if err := os.MkdirAll(sub, 0o755); err != nil {
				t.Fatal(err)
			}
			files["up/m.txt"] = tt.matrix
			if tt.cells != "" {
				files["up/cells.txt"] = tt.cells
			}
			for _, f := range []*drugFile{&s.matrix, &s.rows, &s.cols} {
				if !tt.staleDigest {
					f.sha256 = sha(files[f.upstream])
				}
				if err := os.WriteFile(filepath.Join(sub, f.name), []byte(files[f.upstream]), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			_, err := s.open(context.Background(), dir, Options{MinRatings: 1, SkipChecksum: tt.skip})
			if err == nil {
				t.Fatal("no error")
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %q, want it to contain %q", err, tt.want)
			}
			if tt.errIs != nil && !errors.Is(err, tt.errIs) {
				t.Errorf("error %q does not wrap %v", err, tt.errIs)
			}
		})
	}
}

func TestOpenDrugSensitivityMissing(t *testing.T) {
	_, err := Open("ccle-ec50", t.TempDir(), Options{})
	if !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), "bnmf data fetch") || !strings.Contains(err.Error(), "bmf-priors/CCLE/") {
		t.Errorf("got %v, want a missing file saying how to fetch it and where it belongs", err)
	}
}

func TestMirrorEnv(t *testing.T) {
	for name, want := range map[string]string{
		"movielens-100k": "BNMF_MOVIELENS_MIRROR",
		"gdsc-ic50":      "BNMF_BMF_PRIORS_MIRROR",
		"ccle-ec50":      "BNMF_BMF_PRIORS_MIRROR",
		SyntheticName:    "",
		"nonesuch":       "",
	} {
		if got := MirrorEnv(name); got != want {
			t.Errorf("MirrorEnv(%q) = %q, want %q", name, got, want)
		}
	}
}

// TestOpenDrugSensitivityTruncated reads GDSC IC50 as Brouwer and Lio's
// experiments do (their integer loader): the same 79,259 entries, each
// value cast toward zero. The sum and the number of zeros were computed
// from upstream's file by a separate script (Python's math.trunc over the
// rows with at least 3 values).
func TestOpenDrugSensitivityTruncated(t *testing.T) {
	dir := testDataDir(t, "gdsc-ic50")
	if _, err := Open("gdsc-ic50", dir, Options{Counts: true}); !errors.Is(err, ErrNotCount) {
		t.Fatalf("real values as counts: got error %v, want ErrNotCount", err)
	}
	r, err := Open("gdsc-ic50", dir, Options{Counts: true, Truncate: true})
	if err != nil {
		t.Fatal(err)
	}
	var sum float64
	zeros := 0
	for _, e := range r.Entries {
		sum += e.Value
		if e.Value == 0 {
			zeros++
		}
	}
	if r.Rows != 705 || r.Cols != 139 || len(r.Entries) != 79259 || sum != 3420471 || zeros != 18158 {
		t.Errorf("got %d x %d, %d entries summing to %v with %d zeros; want 705 x 139, 79259 summing to 3420471 with 18158",
			r.Rows, r.Cols, len(r.Entries), sum, zeros)
	}
}
