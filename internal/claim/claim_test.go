package claim

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// writeClaim stores a claim for key in the claims directory dir, touched
// at mtime.
func writeClaim(t *testing.T, dir, key string, cl File, mtime time.Time) {
	t.Helper()
	b, err := json.Marshal(cl)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, key+".claim")
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
		claim    *File // nil: a file cut short
		age      time.Duration
		takeOver bool
	}{
		{"a live process on this host", &File{Host: host, PID: os.Getppid()}, 0, false},
		{"a dead process on this host", &File{Host: host, PID: deadPID(t)}, 0, true},
		{"a live pid whose lease ran out", &File{Host: host, PID: os.Getppid()}, Lease + time.Second, true},
		{"another host within its lease", &File{Host: "elsewhere.example", PID: 1}, Lease / 2, false},
		{"another host past its lease", &File{Host: "elsewhere.example", PID: 1}, Lease + time.Second, true},
		{"a claim cut short", nil, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if tt.claim != nil {
				writeClaim(t, dir, "GRRN-k2-r0", *tt.claim, now.Add(-tt.age))
			} else {
				path := filepath.Join(dir, "GRRN-k2-r0.claim")
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(`{"host": "x", "p`), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			live, err := Live(dir)
			if err != nil {
				t.Fatal(err)
			}
			if (len(live) == 1) == tt.takeOver {
				t.Errorf("Live = %q; a claim to take over should not be listed, a live one should", live)
			}
			c, err := New(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			got, err := c.Acquire("GRRN-k2-r0")
			if err != nil || got != tt.takeOver {
				t.Errorf("Acquire = %v, %v; want %v", got, err, tt.takeOver)
			}
			if got {
				cl, _, err := readClaim(filepath.Join(dir, "GRRN-k2-r0.claim"))
				if err != nil || cl.PID != os.Getpid() {
					t.Errorf("the claim taken over holds %+v, %v; want this process", cl, err)
				}
			}
			entries, _ := os.ReadDir(dir)
			if len(entries) != 1 {
				t.Errorf("the claims directory holds %d files, want 1 (nothing left aside)", len(entries))
			}
		})
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
	writeClaim(t, dir, key, File{Host: host, PID: deadPID(t)}, time.Now())
	first, err := New(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	second, err := New(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	// The second holder stands for another live process of this host.
	second.self.PID = os.Getppid()
	var secondGot bool
	var secondErr error
	first.judged = func(string) {
		first.judged = nil
		secondGot, secondErr = second.Acquire(key)
	}
	firstGot, err := first.Acquire(key)
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
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 {
		t.Errorf("the claims directory holds %d files, want 1 (nothing left aside)", len(entries))
	}
}
