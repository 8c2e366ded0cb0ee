package experiments

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/bnmf-lab/bnmf/internal/atomicfile"
	"github.com/bnmf-lab/bnmf/internal/claim"
)

// leaveTemp creates in dir/records a temporary record file named as the
// process pid on host writes it, fresh, and returns its name.
func leaveTemp(t *testing.T, dir string, pid int, host string) string {
	t.Helper()
	name := atomicfile.TempPrefix("GRRN-k2-r0.json", pid, host) + "1234"
	if err := os.WriteFile(filepath.Join(dir, RecordsDir, name), []byte(`{"partial`), 0o644); err != nil {
		t.Fatal(err)
	}
	return name
}

// exitedPID returns the id of a process that has exited.
func exitedPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	return cmd.Process.Pid
}

// probingHost returns the host's name, the one temporary files record
// beside their writer's process id, and skips the test where processes
// cannot be probed or the host has no name.
func probingHost(t *testing.T) string {
	t.Helper()
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" {
		t.Skip("processes cannot be probed here")
	}
	host, err := os.Hostname()
	if err != nil {
		t.Skip("no host name:", err)
	}
	return host
}

// TestAbandonedTempsRemoved checks that resuming and compacting remove the
// temporary files of writers that are gone, however fresh, and keep those
// that a live process may still be writing.
func TestAbandonedTempsRemoved(t *testing.T) {
	host := probingHost(t)
	p := tinyPlan(t, "")
	dir := run(t, p, RunOptions{Workers: 2})
	dead := exitedPID(t)

	gone := leaveTemp(t, dir, dead, host)
	live := leaveTemp(t, dir, os.Getppid(), host)
	elsewhere := leaveTemp(t, dir, dead, "another-host")
	if _, err := p.Run(context.Background(), RunOptions{Output: dir}); err != nil {
		t.Fatal(err)
	}
	temps := tempFiles(t, dir)
	if slices.Contains(temps, gone) {
		t.Errorf("resuming kept %s, whose writer has exited", gone)
	}
	for _, keep := range []string{live, elsewhere} {
		if !slices.Contains(temps, keep) {
			t.Errorf("resuming removed %s, whose writer may be running", keep)
		}
	}

	for _, name := range []string{live, elsewhere} {
		if err := os.Remove(filepath.Join(dir, RecordsDir, name)); err != nil {
			t.Fatal(err)
		}
	}
	leaveTemp(t, dir, dead, host)
	if err := Compact(dir); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, RecordsDir)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("records/ is still there after compaction (error %v), holding %v", err, tempFiles(t, dir))
	}
}

// TestOrphansOutsideRecordsRemoved checks that opening a study removes
// the temporary files that processes killed by SIGKILL leave outside
// records/: in the study's root (config and manifest being written) and
// in claims/ (a claim being created, or one renamed aside in a
// takeover), named as the code names them with a process that has
// exited; and keeps those of a live process, and a claim file of an
// earlier version with no writer recorded until it is older than
// staleAfter.
func TestOrphansOutsideRecordsRemoved(t *testing.T) {
	host := probingHost(t)
	p := tinyPlan(t, "")
	dir := run(t, p, RunOptions{Workers: 2, Repeats: 1})
	dead := exitedPID(t)
	claims := filepath.Join(dir, ClaimsDir)
	key := "GRRN-k2-f0.8-r1"
	claimPath := filepath.Join(claims, key+".claim")
	files := []struct {
		path string
		gone bool
	}{
		{filepath.Join(dir, atomicfile.TempPrefix(ConfigFile, dead, host)+"11"), true},
		{filepath.Join(dir, atomicfile.TempPrefix(ManifestFile, dead, host)+"12"), true},
		{filepath.Join(claims, atomicfile.TempPrefix(key+".claim", dead, host)+"13"), true},
		{claim.AsidePath(claimPath, claim.File{Host: host, PID: dead}), true},
		{filepath.Join(dir, atomicfile.TempPrefix(ManifestFile, os.Getppid(), host)+"14"), false},
		{filepath.Join(claims, atomicfile.TempPrefix(key+".claim", os.Getppid(), host)+"15"), false},
		{claim.AsidePath(claimPath, claim.File{Host: host, PID: os.Getppid()}), false},
		{filepath.Join(claims, ".claim-16"), false},
		{filepath.Join(claims, ".claim-17"), true}, // made old below
	}
	for _, f := range files {
		if err := os.WriteFile(f.path, []byte(`{"host`), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	old := time.Now().Add(-staleAfter - time.Minute)
	if err := os.Chtimes(files[len(files)-1].path, old, old); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Run(context.Background(), RunOptions{Workers: 2, Output: dir}); err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		_, err := os.Stat(f.path)
		if gone := errors.Is(err, fs.ErrNotExist); gone != f.gone {
			t.Errorf("%s: removed %v, want %v (stat: %v)", filepath.Base(f.path), gone, f.gone, err)
		}
	}
}
