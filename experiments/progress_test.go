package experiments

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestProgressStartLine checks that a run says at once what it will do,
// before the first interval has passed and before any cell finishes.
func TestProgressStartLine(t *testing.T) {
	var buf bytes.Buffer
	p := tinyPlan(t, "")
	dir := filepath.Join(t.TempDir(), "study")
	if _, err := p.Run(context.Background(), RunOptions{
		Workers: 2, Output: dir, Progress: &Progress{W: &buf, Interval: time.Hour},
	}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	want := "tiny: 20 of 20 cells to run (0 stored) on 2 cores, 2 chains at once; records go to " + dir
	if len(lines) != 2 || lines[0] != want || !strings.HasPrefix(lines[1], "tiny: 20/20 cells") {
		t.Errorf("progress output\n%s\nwant the line %q, then the final line", buf.String(), want)
	}
}
