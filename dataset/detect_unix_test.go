//go:build unix

package dataset

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"testing"
)

// TestOpenFileDigestDetectsThroughPipe checks that a MovieLens
// ratings.csv given through a named pipe, with no format, is read once:
// its format found from the first line, cleaned as MovieLens, and hashed
// whole.
func TestOpenFileDigestDetectsThroughPipe(t *testing.T) {
	content, err := os.ReadFile(writeSmallRatingsCSV(t, t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(content)
	r, digest := openThroughPipe(t, "ratings", content, "")
	if digest != hex.EncodeToString(sum[:]) {
		t.Errorf("digest %s, want that of the whole file", digest)
	}
	if r.Format != "movielens-latest-small" || r.Rows != 4 || r.Cols != 3 || len(r.Entries) != 12 {
		t.Errorf("format %q, %d x %d with %d ratings; want movielens-latest-small, cleaned to 4 x 3 with 12", r.Format, r.Rows, r.Cols, len(r.Entries))
	}
}
