//go:build unix

package main

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestRunScriptForwardsSIGTERM checks that SIGTERM sent to run.sh alone
// (as kill, timeout or a scheduler send it) stops the bnmf run it started,
// which then says how to resume, and that run.sh exits 143.
func TestRunScriptForwardsSIGTERM(t *testing.T) {
	if testing.Short() {
		t.Skip("builds bin/bnmf and runs a study")
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash not found")
	}
	dir := t.TempDir()
	cfg := filepath.Join(dir, "long.yaml")
	// A chain far longer than the test: only a signal ends it.
	src := "kind: convergence\ndataset: {name: synthetic}\nmodels: [{name: GRRN}]\nranks: [2]\nrepeats: 1\nsweeps: 10000000\nburn_in: 0\noutput: " + filepath.Join(dir, "out") + "\n"
	if err := os.WriteFile(cfg, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", filepath.Join("..", "..", "run.sh"), cfg)
	cmd.Env = append(os.Environ(), "BNMF_RUN_FLAGS=--workers 1")
	// A group of its own, so that whatever is left of it can be killed.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // the group, if any is left

	started := make(chan bool, 1)
	done := make(chan []string)
	go func() {
		sc := bufio.NewScanner(stderr)
		var lines []string
		for sc.Scan() {
			lines = append(lines, sc.Text())
			if strings.Contains(sc.Text(), "cells to run") {
				started <- true // bnmf is running the chain
			}
		}
		done <- lines
	}()
	// Building bin/bnmf from an empty build cache took 49-57 s on two
	// busy cores; the tests have built most packages already.
	select {
	case <-started:
	case <-time.After(3 * time.Minute):
		t.Fatal("bnmf did not start its chain in three minutes")
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil { // run.sh alone
		t.Fatal(err)
	}
	var lines []string
	select {
	case lines = <-done:
	case <-time.After(30 * time.Second): // a sweep takes a millisecond
		t.Fatal("bnmf still runs 30 s after run.sh was sent SIGTERM")
	}
	err = cmd.Wait()
	out := strings.Join(lines, "\n")
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 143 {
		t.Errorf("run.sh exited with %v, want status 143; it printed\n%s", err, out)
	}
	if !strings.Contains(out, "stopped by SIGTERM") || !strings.Contains(out, "To resume") {
		t.Errorf("run.sh printed\n%s\nwant bnmf's interruption and how to resume", out)
	}
}
