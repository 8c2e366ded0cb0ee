package dataset

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestOpenCancelled checks that every loader gives up at once, with an
// error wrapping context.Canceled, when its context is cancelled.
func TestOpenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	dir := t.TempDir()
	ml := filepath.Join(dir, "movielens", "ml-100k", "u.data")
	if err := os.MkdirAll(filepath.Dir(ml), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(ml, []byte(fetchFixture), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		open func() (*Ratings, error)
	}{
		{"triplets", func() (*Ratings, error) {
			return OpenFileContext(ctx, writeFile(t, "r.csv", "1,1,1\n2,2,2\n"), "triplets", Options{})
		}},
		{"matrix-market", func() (*Ratings, error) {
			return OpenFileContext(ctx, writeFile(t, "r.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 1\n"), "matrix-market", Options{})
		}},
		{"movielens", func() (*Ratings, error) {
			return OpenContext(ctx, "movielens-100k", dir, Options{SkipChecksum: true})
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := tt.open()
			if !errors.Is(err, context.Canceled) {
				t.Errorf("got %v, %v; want an error wrapping context.Canceled", r, err)
			}
		})
	}
}

// cancellingReader cancels its context once it has handed out after
// bytes, and counts what it hands out.
type cancellingReader struct {
	r      io.Reader
	after  int
	read   int
	cancel func()
}

func (c *cancellingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.read += n
	if c.read >= c.after {
		c.cancel()
	}
	return n, err
}

// TestParseStopsWhenCancelled checks that parsing stops within a read of
// the cancellation, long before the end of a large input.
func TestParseStopsWhenCancelled(t *testing.T) {
	var b strings.Builder
	for i := range 200_000 { // about 2.5 MB
		b.WriteString(strconv.Itoa(i) + "," + strconv.Itoa(i%97) + ",3\n")
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	src := &cancellingReader{r: strings.NewReader(b.String()), after: 100_000, cancel: cancel}
	_, err := parseTriplets("big.csv", readerContext(ctx, src))
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want an error wrapping context.Canceled", err)
	}
	// The line reader reads at most its 64 KB buffer, then up to maxLine
	// more when a line does not fit, between checks.
	if limit := 100_000 + maxLine; src.read > limit {
		t.Errorf("read %d of %d bytes after the cancellation at 100,000; want at most %d", src.read, b.Len(), limit)
	}
}

// TestCleanStopsWhenCancelled checks the cleaning passes' checks.
func TestCleanStopsWhenCancelled(t *testing.T) {
	r, err := parseTriplets("r.csv", strings.NewReader("1,1,1\n1,2,1\n2,1,1\n"))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, minRatings := range []int{0, 1} {
		if _, err := clean(ctx, r, "r.csv", minRatings); !errors.Is(err, context.Canceled) {
			t.Errorf("clean(%d) with a cancelled context: %v, want an error wrapping context.Canceled", minRatings, err)
		}
	}
}
