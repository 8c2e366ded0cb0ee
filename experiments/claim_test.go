package experiments

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// writeClaim stores a claim for key in dir's claims directory, touched at
// mtime.
func writeClaim(t *testing.T, dir, key string, cl claimFile, mtime time.Time) {
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

// deadPID returns the pid of a process that has exited.
func deadPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skipf("cannot run a child process: %v", err)
	}
	return cmd.Process.Pid
}

func TestClaimTakeOver(t *testing.T) {
	host, err := os.Hostname()
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	tests := []struct {
		name     string
		claim    *claimFile // nil: a file cut short
		age      time.Duration
		takeOver bool
	}{
		{"a live process on this host", &claimFile{Host: host, PID: os.Getppid()}, 0, false},
		{"a dead process on this host", &claimFile{Host: host, PID: deadPID(t)}, 0, true},
		{"a live pid whose lease ran out", &claimFile{Host: host, PID: os.Getppid()}, ClaimLease + time.Second, true},
		{"another host within its lease", &claimFile{Host: "elsewhere.example", PID: 1}, ClaimLease / 2, false},
		{"another host past its lease", &claimFile{Host: "elsewhere.example", PID: 1}, ClaimLease + time.Second, true},
		{"a claim cut short", nil, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if tt.claim != nil {
				writeClaim(t, dir, "GRRN-k2-r0", *tt.claim, now.Add(-tt.age))
			} else {
				path := filepath.Join(dir, ClaimsDir, "GRRN-k2-r0.claim")
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(`{"host": "x", "p`), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			live, err := LiveClaims(dir)
			if err != nil {
				t.Fatal(err)
			}
			if (len(live) == 1) == tt.takeOver {
				t.Errorf("LiveClaims = %q; a claim to take over should not be listed, a live one should", live)
			}
			c, err := newClaimer(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer c.close()
			got, err := c.acquire("GRRN-k2-r0")
			if err != nil || got != tt.takeOver {
				t.Errorf("acquire = %v, %v; want %v", got, err, tt.takeOver)
			}
			if got {
				cl, _, err := readClaim(filepath.Join(dir, ClaimsDir, "GRRN-k2-r0.claim"))
				if err != nil || cl.PID != os.Getpid() {
					t.Errorf("the claim taken over holds %+v, %v; want this process", cl, err)
				}
			}
			entries, _ := os.ReadDir(filepath.Join(dir, ClaimsDir))
			if len(entries) != 1 {
				t.Errorf("the claims directory holds %d files, want 1 (nothing left aside)", len(entries))
			}
		})
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
	sums := make([]Summary, 2)
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
	writeClaim(t, dir, "GEE-k2-f0.8-r1", claimFile{Host: host, PID: os.Getppid()}, time.Now())
	_, err := tinyPlan(t, "coverage: both\n").Run(context.Background(), RunOptions{Workers: 2, Output: dir, Force: true})
	if err == nil || !strings.Contains(err.Error(), "--force refused") {
		t.Fatalf("force with a live claim: err = %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, ManifestFile)); err != nil {
		t.Errorf("the refused --force removed the manifest: %v", err)
	}
}

// TestTakeOversInterleaved runs two takeovers of one stale claim so that
// the second runs entirely between the first's judging the claim stale
// and its renaming it aside: the first then renames aside the second's
// fresh claim, and must see that it is not the claim it judged, put it
// back, and leave the cell to the second.
func TestTakeOversInterleaved(t *testing.T) {
	host, err := os.Hostname()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	const key = "GRRN-k2-r0"
	writeClaim(t, dir, key, claimFile{Host: host, PID: deadPID(t)}, time.Now())
	first, err := newClaimer(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer first.close()
	second, err := newClaimer(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer second.close()
	// The second holder stands for another live process of this host.
	second.self.PID = os.Getppid()
	var secondGot bool
	var secondErr error
	first.judged = func(string) {
		first.judged = nil
		secondGot, secondErr = second.acquire(key)
	}
	firstGot, err := first.acquire(key)
	if err != nil || secondErr != nil {
		t.Fatal(err, secondErr)
	}
	if firstGot || !secondGot {
		t.Errorf("first takeover got the cell: %v, second: %v; want only the second", firstGot, secondGot)
	}
	cl, _, err := readClaim(first.path(key))
	if err != nil || cl.PID != os.Getppid() {
		t.Errorf("the claim holds %+v (%v), want the second holder's", cl, err)
	}
	entries, err := os.ReadDir(filepath.Join(dir, ClaimsDir))
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 {
		t.Errorf("the claims directory holds %d files, want 1 (nothing left aside)", len(entries))
	}
}

// TestHeldCellsListed checks that a run that leaves a cell to a live claim
// of another host names it in Summary.Held when the cell has no record
// at the end, and not once the cell's record is stored.
func TestHeldCellsListed(t *testing.T) {
	p := tinyPlan(t, "models: [{name: GRRN}, {name: NMF}]\n")
	dir := filepath.Join(t.TempDir(), "study")
	key := p.Manifest.Cells[3].Key()
	writeClaim(t, dir, key, claimFile{Host: "elsewhere.example", PID: 4242}, time.Now())
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
