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
