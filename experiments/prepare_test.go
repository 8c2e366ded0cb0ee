package experiments

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestPrepareCancelled checks that a cancelled context stops Prepare's
// loading of the data, with an error wrapping context.Canceled.
func TestPrepareCancelled(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "r.tsv")
	if err := os.WriteFile(data, []byte("1\t1\t3\n1\t2\t4\n2\t1\t5\n2\t2\t1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := ParseConfig(filepath.Join(dir, "c.yaml"), []byte("kind: convergence\ndataset: {path: "+data+", format: triplets}\nranks: [1]\n"))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := PrepareContext(ctx, cfg, PrepareOptions{}); !errors.Is(err, context.Canceled) {
		t.Errorf("PrepareContext with a cancelled context returned %v, want an error wrapping context.Canceled", err)
	}
	if _, err := PrepareContext(context.Background(), cfg, PrepareOptions{}); err != nil {
		t.Errorf("PrepareContext: %v", err)
	}
}

// TestPrepareDetectsMovieLensFile checks that a config may leave out the
// format of a data file: a MovieLens ratings.csv is then read as one, and
// cleaned as the datasets are (dataset/testdata/ratings.csv keeps 4 users
// and 3 movies of 5 and 5 after removing those with fewer than 3 ratings).
func TestPrepareDetectsMovieLensFile(t *testing.T) {
	data, err := filepath.Abs(filepath.Join("..", "dataset", "testdata", "ratings.csv"))
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := ParseConfig(filepath.Join(t.TempDir(), "c.yaml"), []byte("kind: convergence\ndataset: {path: "+data+"}\nranks: [1]\n"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := Prepare(cfg, PrepareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if m := p.Manifest; m.Rows != 4 || m.Cols != 3 || m.Observed != 12 {
		t.Errorf("manifest: %d x %d with %d entries, want 4 x 3 with 12", m.Rows, m.Cols, m.Observed)
	}
}
