package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/bnmf-lab/bnmf/internal/atomicfile"
	"github.com/bnmf-lab/bnmf/posterior"
)

// exitedPID returns the id of a process that has exited.
func exitedPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	return cmd.Process.Pid
}

// leaveFitTemp makes in dir's parent a temporary directory of a fit into
// dir by the process pid, as writeFitDir names it (with suffix appended),
// holding one file, and returns its path.
func leaveFitTemp(t *testing.T, dir string, pid int, suffix string) string {
	t.Helper()
	host, err := os.Hostname()
	if err != nil {
		t.Skip("no host name:", err)
	}
	path := filepath.Join(filepath.Dir(dir), atomicfile.TempPrefix(filepath.Base(dir), pid, host)+"123"+suffix)
	if err := os.MkdirAll(path, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(path, "model.npz"), []byte("outputs of "+suffix), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestFitRemovesKilledFitsTemps checks that a fit into a directory removes
// the temporary directories that fits into it left when they were killed
// (their process has exited), and keeps that of a fit still running.
func TestFitRemovesKilledFitsTemps(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" {
		t.Skip("processes cannot be probed here")
	}
	dir := t.TempDir()
	p := newPlanted(t, dir, 10, 8, 1, 0.6, 0.2, 1, 8)
	out := filepath.Join(dir, "fit")
	dead := leaveFitTemp(t, out, exitedPID(t), "")
	live := leaveFitTemp(t, out, os.Getppid(), "")
	_, stderr := fitCLI(t, "--rank", "1", "--sweeps", "10", "--chains", "1", "--out", out, p.path)
	if _, err := os.Stat(dead); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the temporary directory of a killed fit is still there (stat: %v)", err)
	}
	if _, err := os.Stat(live); err != nil {
		t.Errorf("the temporary directory of a running fit was removed: %v", err)
	}
	if !strings.Contains(stderr, "removed 1 temporary directory of killed fits") {
		t.Errorf("standard error %q does not say what was removed", stderr)
	}
	if _, err := os.Stat(filepath.Join(out, posterior.FileName)); err != nil {
		t.Errorf("the fit wrote no model: %v", err)
	}
}

// TestFitPutsBackOutputsOfKilledReplace leaves what a fit --force killed
// between the two renames of its fallback replacement leaves (the old
// outputs moved aside, the new ones complete beside them, --out missing),
// and checks that the next fit into --out puts the old outputs back and
// removes the new, and then refuses to replace them without --force.
func TestFitPutsBackOutputsOfKilledReplace(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" {
		t.Skip("processes cannot be probed here")
	}
	dir := t.TempDir()
	p := newPlanted(t, dir, 10, 8, 1, 0.6, 0.2, 1, 8)
	out := filepath.Join(dir, "fit")
	pid := exitedPID(t)
	newer := leaveFitTemp(t, out, pid, "")
	old := leaveFitTemp(t, out, pid, oldSuffix)
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), []string{"fit", "--rank", "1", "--sweeps", "10", "--chains", "1", "--out", out, p.path}, &stdout, &stderr)
	if err == nil || !strings.Contains(err.Error(), "exists and is not empty") {
		t.Errorf("fit without --force over the outputs put back: error %v, want a refusal", err)
	}
	if b, err := os.ReadFile(filepath.Join(out, "model.npz")); err != nil || string(b) != "outputs of "+oldSuffix {
		t.Errorf("--out holds %.40q (%v), want the old outputs put back", b, err)
	}
	for _, gone := range []string{newer, old} {
		if _, err := os.Stat(gone); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s is still there (stat: %v)", filepath.Base(gone), err)
		}
	}
	if !strings.Contains(stderr.String(), "put back the earlier outputs of "+out) {
		t.Errorf("standard error %q does not say the outputs were put back", stderr.String())
	}
}

// TestFitForceReplaces checks that fit --force replaces a full --out with
// the new outputs and leaves nothing beside it.
func TestFitForceReplaces(t *testing.T) {
	dir := t.TempDir()
	p := newPlanted(t, dir, 10, 8, 1, 0.6, 0.2, 1, 8)
	out := filepath.Join(dir, "fit")
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, "keep.txt"), []byte("a previous fit"), 0o644); err != nil {
		t.Fatal(err)
	}
	fitCLI(t, "--rank", "1", "--sweeps", "10", "--chains", "1", "--force", "--out", out, p.path)
	if _, err := os.Stat(filepath.Join(out, "keep.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the replaced outputs are still in --out (stat: %v)", err)
	}
	if _, err := os.Stat(filepath.Join(out, posterior.FileName)); err != nil {
		t.Errorf("--force wrote no model: %v", err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 2 {
		t.Errorf("the directory holds %v, want the data file and --out only", entries)
	}
}

// TestReplaceDir checks both ways replaceDir replaces a directory: by an
// atomic exchange, and by two renames where the system cannot exchange;
// each leaves the new content in place and nothing beside it.
func TestReplaceDir(t *testing.T) {
	noExchange := func(a, b string) error { return fmt.Errorf("exchanging %s and %s: %w", a, b, atomicfile.ErrNoExchange) }
	for _, tt := range []struct {
		name     string
		exchange func(a, b string) error
	}{{"exchange", atomicfile.Exchange}, {"renames", noExchange}} {
		t.Run(tt.name, func(t *testing.T) {
			parent := t.TempDir()
			dir, tmp := filepath.Join(parent, "fit"), filepath.Join(parent, ".fit.tmp-1")
			for d, content := range map[string]string{dir: "old", tmp: "new"} {
				if err := os.MkdirAll(d, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(d, content+".txt"), []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if err := replaceDir(tmp, dir, parent, tt.exchange); errors.Is(err, atomicfile.ErrNoExchange) {
				t.Skip(err)
			} else if err != nil {
				t.Fatal(err)
			}
			entries, err := os.ReadDir(dir)
			if err != nil || len(entries) != 1 || entries[0].Name() != "new.txt" {
				t.Errorf("%s holds %v (%v), want new.txt only", dir, entries, err)
			}
			if all, err := os.ReadDir(parent); err != nil || len(all) != 1 {
				t.Errorf("%s holds %v (%v), want only the replaced directory", parent, all, err)
			}
		})
	}
}
