package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestMain runs the test binary as bnmf itself when BNMF_TEST_MAIN is set,
// for the tests that send signals to a running bnmf.
func TestMain(m *testing.M) {
	if os.Getenv("BNMF_TEST_MAIN") == "1" {
		main()
		return
	}
	os.Exit(m.Run())
}

func TestExitCode(t *testing.T) {
	failed := &statusError{status: exitCellsFailed, err: errors.New("run: 2 of 2 cells failed")}
	tests := []struct {
		name       string
		err, cause error
		want       int
	}{
		{"success", nil, nil, 0},
		{"help", flag.ErrHelp, nil, 0},
		{"error", errors.New("bad config"), nil, 1},
		{"cells failed", fmt.Errorf("wrapped: %w", failed), nil, 3},
		{"cells held", fmt.Errorf("wrapped: %w", &statusError{status: exitCellsHeld, err: errors.New("run: 1 of 4 cells are held")}), nil, 4},
		{"SIGINT", errors.New("run: interrupted"), signalError{syscall.SIGINT}, 130},
		{"SIGTERM", errors.New("run: interrupted"), signalError{syscall.SIGTERM}, 143},
		{"finished despite a signal", nil, signalError{syscall.SIGTERM}, 0},
	}
	for _, tt := range tests {
		if got := exitCode(tt.err, tt.cause); got != tt.want {
			t.Errorf("%s: exitCode(%v, %v) = %d, want %d", tt.name, tt.err, tt.cause, got, tt.want)
		}
	}
}

// TestRunFailedCellsExit checks that a run whose cells all fail (a value
// of 1e308 overflows every model's residuals) says how many failed and
// exits with exitCellsFailed, not 0.
func TestRunFailedCellsExit(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "huge.csv")
	if err := os.WriteFile(data, []byte("1,1,1e308\n1,2,3\n2,1,4\n2,2,5\n3,1,1\n3,2,2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(dir, "huge.yaml")
	src := "kind: convergence\ndataset: {path: " + data + ", format: triplets}\nmodels: [{name: GRRN}, {name: NMF}]\nranks: [1]\nrepeats: 1\nsweeps: 10\nburn_in: 5\n"
	if err := os.WriteFile(cfg, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), []string{"run", "--out", filepath.Join(dir, "out"), cfg}, &stdout, &stderr)
	if got := exitCode(err, nil); got != exitCellsFailed {
		t.Errorf("exit status %d (error %v), want %d", got, err, exitCellsFailed)
	}
	if want := "run: 2 of 2 cells failed"; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error %v, want one starting %q", err, want)
	}
	if !strings.Contains(stderr.String(), "huge: 2 of 2 cells failed") {
		t.Errorf("standard error %q does not say how many cells failed", stderr.String())
	}
}

// TestRunInterruptedWhileLoading checks that a signal that arrives before
// the chains start (while the data loads) stops the run before it writes
// anything, with the signal's exit status.
func TestRunInterruptedWhileLoading(t *testing.T) {
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(signalError{syscall.SIGTERM})
	out := filepath.Join(t.TempDir(), "study")
	var stderr bytes.Buffer
	err := run(ctx, []string{"run", "--out", out, runTestConfig(t, "1")}, &bytes.Buffer{}, &stderr)
	if got := exitCode(err, context.Cause(ctx)); got != 143 {
		t.Errorf("exit status %d (error %v), want 143", got, err)
	}
	if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the interrupted run created %s (stat: %v)", out, err)
	}
	if !strings.Contains(stderr.String(), "nothing was run") {
		t.Errorf("standard error %q does not say that nothing was run", stderr.String())
	}
}

// TestSignalsStopRun sends SIGINT and SIGTERM to a running bnmf run and
// checks that each stops it, says how to resume, and exits 128 + the
// signal's number.
func TestSignalsStopRun(t *testing.T) {
	if testing.Short() {
		t.Skip("starts child processes")
	}
	if runtime.GOOS == "windows" {
		t.Skip("no SIGTERM")
	}
	for _, tt := range []struct {
		sig  syscall.Signal
		want int
	}{{syscall.SIGINT, 130}, {syscall.SIGTERM, 143}} {
		t.Run(tt.sig.String(), func(t *testing.T) {
			dir := t.TempDir()
			cfg := filepath.Join(dir, "long.yaml")
			// A chain far longer than the test: only a signal ends it.
			src := "kind: convergence\ndataset: {name: synthetic}\nmodels: [{name: GRRN}]\nranks: [2]\nrepeats: 1\nsweeps: 10000000\nburn_in: 0\n"
			if err := os.WriteFile(cfg, []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(os.Args[0], "run", "--workers", "1", "--out", filepath.Join(dir, "out"), cfg)
			cmd.Env = append(os.Environ(), "BNMF_TEST_MAIN=1")
			stderr, err := cmd.StderrPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			sc := bufio.NewScanner(stderr)
			var lines []string
			for sc.Scan() {
				lines = append(lines, sc.Text())
				if strings.Contains(sc.Text(), "cells to run") {
					break // the chain is starting
				}
			}
			start := time.Now()
			if err := cmd.Process.Signal(tt.sig); err != nil {
				t.Fatal(err)
			}
			for sc.Scan() {
				lines = append(lines, sc.Text())
			}
			err = cmd.Wait()
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != tt.want {
				t.Errorf("bnmf exited with %v, want status %d; it printed\n%s", err, tt.want, strings.Join(lines, "\n"))
			}
			out := strings.Join(lines, "\n")
			if !strings.Contains(out, "Interrupted: 0 of 1 cells") || !strings.Contains(out, "To resume") {
				t.Errorf("bnmf printed\n%s\nwant the interruption and how to resume", out)
			}
			// A sweep of the default synthetic data takes a millisecond.
			if d := time.Since(start); d > 10*time.Second {
				t.Errorf("bnmf took %v to stop", d)
			}
		})
	}
}
