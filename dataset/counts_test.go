package dataset

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/bnmf-lab/bnmf/sparse"
)

// TestCounts checks that Options.Counts refuses a value that is not a
// count, naming the file, line and field of the earliest one, and accepts
// counts.
func TestCounts(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		name, format, text string
		want               string // "" for no error
	}{
		{"counts.csv", "triplets", "u,i,r\n1,1,3\n1,2,0\n2,1,12\n", ""},
		// Sorted by row and column, (1, 1) comes first; by line, (2, 2).
		{"fraction.csv", "triplets", "u,i,r\n2,2,2.5\n1,1,3\n1,1000,0.25\n", "fraction.csv:2: value: not a count (a nonnegative integer): 2.5"},
		{"fraction.mtx", "matrix-market", "%%MatrixMarket matrix coordinate real general\n2 2 3\n1 1 4\n2 1 1\n2 2 7.75\n", "fraction.mtx:5: value: not a count (a nonnegative integer): 7.75"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(dir, c.name)
			if err := os.WriteFile(path, []byte(c.text), 0o644); err != nil {
				t.Fatal(err)
			}
			if _, err := OpenFile(path, c.format, Options{}); err != nil {
				t.Fatalf("without Counts: %v", err)
			}
			_, err := OpenFile(path, c.format, Options{Counts: true})
			switch {
			case c.want == "" && err != nil:
				t.Fatalf("counts refused: %v", err)
			case c.want == "":
				return
			case err == nil || !errors.Is(err, ErrNotCount):
				t.Fatalf("got error %v, want one wrapping ErrNotCount", err)
			}
			var pe *ParseError
			if !errors.As(err, &pe) || err.Error() != filepath.Join(dir, c.want) {
				t.Errorf("got error %q, want %q", err, filepath.Join(dir, c.want))
			}
		})
	}
	// The synthetic dataset's stars are counts.
	if _, err := Open(SyntheticName, "", Options{Counts: true, Synthetic: SyntheticOptions{Rows: 10, Cols: 10, Rank: 2, Density: 0.5, NoiseStd: 0.1, Seed: 1}}); err != nil {
		t.Errorf("synthetic stars: %v", err)
	}
	if err := checkCountEntries(&Ratings{Name: "r", Entries: []sparse.Entry{{Row: 0, Col: 0, Value: 1}, {Row: 0, Col: 2, Value: -3}}}); err == nil || err.Error() != "dataset r: entry (0, 2) is -3: not a count (a nonnegative integer)" {
		t.Errorf("entries: got error %v", err)
	}
}

// TestTruncate checks that Options.Truncate casts every value toward zero
// before the counts check, keeping every entry (an observed 0.4 becomes an
// observed 0), and that without it the same file is refused as counts.
func TestTruncate(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fractions.csv")
	if err := os.WriteFile(path, []byte("u,i,r\n1,1,2.7\n1,2,0.4\n2,1,12\n2,2,99.99\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenFile(path, "triplets", Options{Counts: true}); !errors.Is(err, ErrNotCount) {
		t.Fatalf("counts without the cast: got error %v, want ErrNotCount", err)
	}
	r, err := OpenFile(path, "triplets", Options{Counts: true, Truncate: true})
	if err != nil {
		t.Fatalf("counts after the cast: %v", err)
	}
	want := []float64{2, 0, 12, 99}
	if len(r.Entries) != len(want) {
		t.Fatalf("got %d entries, want %d", len(r.Entries), len(want))
	}
	for i, e := range r.Entries {
		if e.Value != want[i] {
			t.Errorf("entry %d (%d, %d) is %v, want %v", i, e.Row, e.Col, e.Value, want[i])
		}
	}
}
