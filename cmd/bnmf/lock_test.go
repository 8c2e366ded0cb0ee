package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/bnmf-lab/bnmf/experiments"
)

// TestForceRefusedWhileRunProcessLives starts a bnmf run process on a
// study whose one chain outlasts the test, removes its claims (as between
// two cells, when a run holds none), and checks that bnmf run --force of
// another config into that directory is refused and discards nothing:
// the running process holds the directory's lock.
func TestForceRefusedWhileRunProcessLives(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a child process")
	}
	if runtime.GOOS == "windows" {
		t.Skip("no flock")
	}
	dir := t.TempDir()
	cfg := filepath.Join(dir, "long.yaml")
	// 300,000 sweeps of a millisecond each outlast the test; not more,
	// for the trace is allocated at the start.
	src := "kind: convergence\ndataset: {name: synthetic}\nmodels: [{name: GRRN}]\nranks: [2]\nrepeats: 1\nsweeps: 300000\nburn_in: 0\n"
	if err := os.WriteFile(cfg, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	cmd := exec.Command(os.Args[0], "run", "--workers", "1", "--out", out, cfg)
	cmd.Env = append(os.Environ(), "BNMF_TEST_MAIN=1")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		_ = cmd.Wait() // stopped by the signal
	}()
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		if strings.Contains(sc.Text(), "cells to run") {
			break // the chain is starting
		}
	}
	go func() {
		for sc.Scan() { // keep the pipe drained
		}
	}()
	// Wait for the cell's claim: the progress line comes before it.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if live, err := experiments.LiveClaims(out); err == nil && len(live) == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the running bnmf claimed no cell within 10 s")
		}
	}
	before, err := os.ReadFile(filepath.Join(out, experiments.ManifestFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(out, experiments.ClaimsDir)); err != nil {
		t.Fatal(err)
	}

	var stdout, errOut bytes.Buffer
	err = run(context.Background(), []string{"run", "--force", "--out", out, runTestConfig(t, "2")}, &stdout, &errOut)
	if err == nil || !strings.Contains(err.Error(), "--force refused") {
		t.Errorf("run --force beside a live run: error %v, want it refused", err)
	}
	after, rerr := os.ReadFile(filepath.Join(out, experiments.ManifestFile))
	if rerr != nil || !bytes.Equal(after, before) {
		t.Errorf("the refused --force changed the manifest (error %v)", rerr)
	}
	if _, err := os.Stat(filepath.Join(out, experiments.ConfigFile)); errors.Is(err, os.ErrNotExist) {
		t.Error("the refused --force removed the config")
	}
}
