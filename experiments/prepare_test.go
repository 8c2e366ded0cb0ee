package experiments

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
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
// cleaned as the datasets are: of 5 users and 5 movies, the 4 users who
// rated movies 10, 20 and 30 and those 3 movies have 3 ratings or more.
func TestPrepareDetectsMovieLensFile(t *testing.T) {
	dir := t.TempDir()
	lines := []string{"userId,movieId,rating,timestamp"}
	for user := 1; user <= 4; user++ {
		for _, movie := range []int{10, 20, 30} {
			lines = append(lines, fmt.Sprintf("%d,%d,%.1f,%d", user, movie, 0.5+float64((user+movie)%10)/2, 1_000_000_000+len(lines)))
		}
	}
	lines = append(lines, "5,10,3.0,1000000100", "5,40,4.5,1000000101", "1,50,5.0,1000000102")
	data := filepath.Join(dir, "ratings.csv")
	if err := os.WriteFile(data, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p := preparePlan(t, filepath.Join(t.TempDir(), "c.yaml"), "kind: convergence\ndataset: {path: "+data+"}\nranks: [1]\n")
	if m := p.Manifest; m.Rows != 4 || m.Cols != 3 || m.Observed != 12 {
		t.Errorf("manifest: %d x %d with %d entries, want 4 x 3 with 12", m.Rows, m.Cols, m.Observed)
	}
}
