package experiments

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestForceRefusedBetweenCells starts a run with --force of another
// config into the directory of a running study at the moment the running
// one holds no claim (between two cells), and checks that it is refused
// and discards nothing, and that the running study then stores every
// cell under its own manifest.
func TestForceRefusedBetweenCells(t *testing.T) {
	p := tinyPlan(t, "models: [{name: GRRN}, {name: NMF}]\n")
	dir := filepath.Join(t.TempDir(), "study")
	var forceErr error
	forced := false
	opts := RunOptions{Workers: 1, Output: dir}
	opts.afterCell = func(string) {
		if forced {
			return
		}
		forced = true
		if live, err := LiveClaims(dir); err != nil || len(live) > 0 {
			t.Errorf("between two cells the run holds claims %q (%v); want none", live, err)
		}
		other := tinyPlan(t, "models: [{name: GRRN}, {name: NMF}]\ncoverage: both\n")
		_, forceErr = other.Run(context.Background(), RunOptions{Workers: 1, Output: dir, Force: true, Repeats: 1})
	}
	sum, err := p.Run(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if forceErr == nil || !strings.Contains(forceErr.Error(), "--force refused") {
		t.Errorf("--force while the study runs: error %v, want it refused", forceErr)
	}
	m, err := readManifest(dir)
	if err != nil || m.ConfigHash != p.Manifest.ConfigHash {
		t.Errorf("the manifest holds hash %.12s (%v), want the running study's %.12s", m.ConfigHash, err, p.Manifest.ConfigHash)
	}
	if n := len(records(t, dir)); sum.Ran != len(p.Manifest.Cells) || n != sum.Ran {
		t.Errorf("the run ran %d cells and %d records are stored, want %d of each", sum.Ran, n, len(p.Manifest.Cells))
	}
}

// TestRunReportsRecordsGone removes a record that a run wrote while the
// run goes on (as a process that ignores the study lock could) and checks
// that the run does not report success.
func TestRunReportsRecordsGone(t *testing.T) {
	p := tinyPlan(t, "models: [{name: GRRN}, {name: NMF}]\n")
	dir := filepath.Join(t.TempDir(), "study")
	var first string
	opts := RunOptions{Workers: 1, Output: dir}
	opts.afterCell = func(key string) {
		if first == "" {
			first = key
			if err := os.Remove(filepath.Join(dir, RecordsDir, key+".json")); err != nil {
				t.Error(err)
			}
		}
	}
	_, err := p.Run(context.Background(), opts)
	if err == nil || !strings.Contains(err.Error(), "1 of the 8 records this run wrote") || !strings.Contains(err.Error(), first) {
		t.Errorf("a run whose record %s was removed returned %v; want an error naming it", first, err)
	}
}
