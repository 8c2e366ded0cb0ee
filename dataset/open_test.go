package dataset

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// testDataDir returns $BNMF_DATA_DIR when it holds the file of dataset
// name (Path: a MovieLens ratings file, a drug-sensitivity matrix), and
// skips the test otherwise, saying which folder the directory must hold.
func testDataDir(t *testing.T, name string) string {
	t.Helper()
	rel, err := Path(name, "")
	if err != nil {
		t.Fatal(err)
	}
	top, _, _ := strings.Cut(filepath.ToSlash(rel), "/")
	dir := os.Getenv("BNMF_DATA_DIR")
	if dir == "" {
		t.Skipf("BNMF_DATA_DIR is not set; set it to the directory holding %s/ (such as ../shared/data) to test %s", top, name)
	}
	p, err := Path(name, dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(p); err != nil {
		t.Skipf("%s is not available (%v); fetch it with \"bnmf data fetch %s\"", name, err, name)
	}
	return dir
}

// TestOpenMovieLens checks the paper's Table 1 on the real files.
func TestOpenMovieLens(t *testing.T) {
	tests := []struct {
		name       string
		rows, cols int
		observed   int
		fraction   float64 // Table 1, to 3 decimals
		// stars counts the ratings of 1 to 5 stars after cleaning,
		// computed independently by a separate script.
		stars [5]int
		long  bool // skipped under -short: seconds under the race detector
	}{
		{name: "movielens-100k", rows: 943, cols: 1473, observed: 99723, fraction: 0.072,
			stars: [5]int{6007, 11324, 27084, 34128, 21180}},
		{name: "movielens-1m", rows: 6040, cols: 3503, observed: 999917, fraction: 0.047,
			stars: [5]int{56119, 107499, 261121, 348892, 226286}, long: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.long && testing.Short() {
				t.Skip("loading 1,000,209 ratings takes seconds under the race detector; skipped under -short")
			}
			dir := testDataDir(t, tt.name)
			r, err := Open(tt.name, dir, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if r.Rows != tt.rows || r.Cols != tt.cols || len(r.Entries) != tt.observed {
				t.Errorf("got %d x %d with %d entries, want %d x %d with %d", r.Rows, r.Cols, len(r.Entries), tt.rows, tt.cols, tt.observed)
			}
			// Table 1 rounds to 3 decimals.
			if got := r.FractionObserved(); got < tt.fraction-0.0005 || got >= tt.fraction+0.0005 {
				t.Errorf("fraction observed %v, want %v to 3 decimals", got, tt.fraction)
			}
			checkIndexed(t, r)
			var want []RatingCount
			for i, n := range tt.stars {
				want = append(want, RatingCount{Value: float64(i + 1), Count: n})
			}
			if got := Distribution(r); !slices.Equal(got, want) {
				t.Errorf("Distribution = %v, want %v", got, want)
			}
		})
	}
}

// checkIndexed checks the invariants of a Ratings: entries in range,
// sorted by row and column without duplicates, identifiers strictly
// increasing.
func checkIndexed(t *testing.T, r *Ratings) {
	t.Helper()
	if len(r.RowIDs) != r.Rows || len(r.ColIDs) != r.Cols {
		t.Fatalf("%d row and %d column identifiers for %d x %d", len(r.RowIDs), len(r.ColIDs), r.Rows, r.Cols)
	}
	for i, e := range r.Entries {
		if e.Row < 0 || e.Row >= r.Rows || e.Col < 0 || e.Col >= r.Cols {
			t.Fatalf("entry %d %+v outside %d x %d", i, e, r.Rows, r.Cols)
		}
		if i > 0 {
			p := r.Entries[i-1]
			if p.Row > e.Row || (p.Row == e.Row && p.Col >= e.Col) {
				t.Fatalf("entries %d %+v and %d %+v out of order", i-1, p, i, e)
			}
		}
	}
	for _, ids := range [][]string{r.RowIDs, r.ColIDs} {
		for i := 1; i < len(ids); i++ {
			if compareIDs(ids[i-1], ids[i]) >= 0 {
				t.Fatalf("identifiers %q and %q out of order", ids[i-1], ids[i])
			}
		}
	}
}

func TestOpenMissing(t *testing.T) {
	dir := t.TempDir()
	_, err := Open("movielens-1m", dir, Options{})
	if !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("got %v, want an error wrapping fs.ErrNotExist", err)
	}
	want := []string{filepath.Join(dir, "movielens", "ml-1m", "ratings.dat"), "bnmf data fetch", "movielens-1m", "BNMF_DATA_DIR"}
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q does not mention %q", err, w)
		}
	}
}

func TestOpenChecksum(t *testing.T) {
	dir := t.TempDir()
	p, err := Path("movielens-100k", dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(fetchFixture), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Open("movielens-100k", dir, Options{MinRatings: 1})
	if !errors.Is(err, ErrChecksum) || !strings.Contains(err.Error(), "--skip-checksum") || !strings.Contains(err.Error(), p) {
		t.Errorf("got %v, want a checksum error naming %s and the way to skip the check", err, p)
	}
	r, err := Open("movielens-100k", dir, Options{MinRatings: 1, SkipChecksum: true})
	if err != nil {
		t.Fatal(err)
	}
	if r.Rows != 3 || r.Cols != 2 || len(r.Entries) != 3 {
		t.Errorf("got %d x %d with %d entries, want 3 x 2 with 3", r.Rows, r.Cols, len(r.Entries))
	}
	// The default threshold of 3 leaves nothing of three ratings.
	if _, err := Open("movielens-100k", dir, Options{SkipChecksum: true}); err == nil {
		t.Error("cleaning away every rating gave no error")
	}
}

func TestOpenUnknown(t *testing.T) {
	if _, err := Open("netflix", t.TempDir(), Options{}); err == nil || !strings.Contains(err.Error(), "movielens-100k") {
		t.Errorf("got %v, want an error listing the known datasets", err)
	}
	if _, err := Open("movielens-100k", t.TempDir(), Options{MinRatings: -2}); err == nil {
		t.Error("negative MinRatings accepted")
	}
}

func TestDataDir(t *testing.T) {
	t.Setenv("BNMF_DATA_DIR", "")
	if got := DataDir(); got != "./data" {
		t.Errorf("DataDir() = %q without BNMF_DATA_DIR, want ./data", got)
	}
	t.Setenv("BNMF_DATA_DIR", "/srv/ratings")
	if got := DataDir(); got != "/srv/ratings" {
		t.Errorf("DataDir() = %q, want /srv/ratings", got)
	}
}
