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

	"github.com/bnmf-lab/bnmf/internal/atomicfile"
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

// TestAbandonedTempsRemoved checks that resuming and compacting remove the
// temporary files of writers that are gone, however fresh, and keep those
// that a live process may still be writing.
func TestAbandonedTempsRemoved(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" {
		t.Skip("processes cannot be probed here")
	}
	host, err := os.Hostname()
	if err != nil {
		t.Skip("no host name:", err)
	}
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
