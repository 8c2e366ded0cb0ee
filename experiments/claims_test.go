package experiments

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bnmf-lab/bnmf/internal/claim"
)

// writeClaim stores a claim for key in the claims directory of the study
// in dir, touched at mtime.
func writeClaim(t *testing.T, dir, key string, cl claim.File, mtime time.Time) {
	t.Helper()
	b, err := json.Marshal(cl)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, ClaimsDir, key+".claim")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, mtime, mtime); err != nil {
		t.Fatal(err)
	}
}

// TestTwoRunsShareADirectory runs one study twice at once into one
// directory (as a second process would, each run with its own claims)
// and checks that between them they run each cell once and store the
// records of a single run, leaving no claim behind.
func TestTwoRunsShareADirectory(t *testing.T) {
	ref := records(t, run(t, tinyPlan(t, ""), RunOptions{Workers: 1}))
	dir := filepath.Join(t.TempDir(), "study")
	var wg sync.WaitGroup
	sums := make([]RunSummary, 2)
	errs := make([]error, 2)
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sums[i], errs[i] = tinyPlan(t, "").Run(context.Background(), RunOptions{Workers: 1, Output: dir})
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if ran := sums[0].Ran + sums[1].Ran; ran != len(ref) {
		t.Errorf("the two runs ran %d + %d cells, want %d in all (each cell once)", sums[0].Ran, sums[1].Ran, len(ref))
	}
	if sums[0].Ran+sums[0].Elsewhere != len(ref) && sums[0].Stored == 0 {
		t.Errorf("first run: ran %d, left %d elsewhere, of %d", sums[0].Ran, sums[0].Elsewhere, len(ref))
	}
	sameRecords(t, records(t, dir), ref)
	if live, err := LiveClaims(dir); err != nil || len(live) > 0 {
		t.Errorf("claims left behind: %q, %v", live, err)
	}
}

// TestForceRefusedWhileClaimed checks that --force does not discard a
// directory in which a live process holds a cell.
func TestForceRefusedWhileClaimed(t *testing.T) {
	p := tinyPlan(t, "")
	dir := run(t, p, RunOptions{Workers: 2, Repeats: 1})
	host, _ := os.Hostname()
	writeClaim(t, dir, "GEE-k2-f0.8-r1", claim.File{Host: host, PID: os.Getppid()}, time.Now())
	_, err := tinyPlan(t, "coverage: both\n").Run(context.Background(), RunOptions{Workers: 2, Output: dir, Force: true})
	if err == nil || !strings.Contains(err.Error(), "--force refused") {
		t.Fatalf("force with a live claim: err = %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, ManifestFile)); err != nil {
		t.Errorf("the refused --force removed the manifest: %v", err)
	}
}

// TestHeldCellsListed checks that a run that leaves a cell to a live claim
// of another host names it in RunSummary.Held when the cell has no record
// at the end, and not once the cell's record is stored.
func TestHeldCellsListed(t *testing.T) {
	p := tinyPlan(t, "models: [{name: GRRN}, {name: NMF}]\n")
	dir := filepath.Join(t.TempDir(), "study")
	key := p.Manifest.Cells[3].Key()
	writeClaim(t, dir, key, claim.File{Host: "elsewhere.example", PID: 4242}, time.Now())
	sum, err := p.Run(context.Background(), RunOptions{Workers: 2, Output: dir})
	if err != nil {
		t.Fatal(err)
	}
	want := key + " (host elsewhere.example, pid 4242)"
	if len(sum.Held) != 1 || sum.Held[0] != want || sum.Ran != len(p.Manifest.Cells)-1 || sum.Elsewhere != 1 {
		t.Errorf("ran %d, elsewhere %d, held %q; want %d, 1 and [%q]", sum.Ran, sum.Elsewhere, sum.Held, len(p.Manifest.Cells)-1, want)
	}

	// The holder stores the cell; a run now finds it stored.
	if err := os.Remove(filepath.Join(dir, ClaimsDir, key+".claim")); err != nil {
		t.Fatal(err)
	}
	if sum, err = p.Run(context.Background(), RunOptions{Workers: 2, Output: dir}); err != nil || len(sum.Held) != 0 || sum.Ran != 1 {
		t.Errorf("after the claim is gone: ran %d, held %q, error %v; want 1, none, nil", sum.Ran, sum.Held, err)
	}
}
