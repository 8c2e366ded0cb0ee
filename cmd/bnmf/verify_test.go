package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestVerifyCommand(t *testing.T) {
	t.Setenv("JOB_COMPLETION_INDEX", "")
	t.Setenv("SLURM_ARRAY_TASK_ID", "")
	cfg := runTestConfig(t, "1")
	dir := filepath.Join(t.TempDir(), "study")
	var stdout, stderr bytes.Buffer
	if err := runRun(context.Background(), []string{"--workers", "2", "--out", dir, cfg}, &stdout, &stderr); err != nil {
		t.Fatalf("run: %v\n%s", err, stderr.String())
	}

	stdout.Reset()
	stderr.Reset()
	if err := runVerify(context.Background(), []string{"--cells", "2", "--dir", dir, cfg}, &stdout, &stderr); err != nil {
		t.Fatalf("verify: %v\n%s", err, stderr.String())
	}
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	if len(lines) != 2 || strings.Count(stdout.String(), ": identical (") != 2 {
		t.Errorf("verify printed %q, want two identical cells", stdout.String())
	}

	// Tamper with one stored number: verify must notice and fail.
	path := filepath.Join(dir, "records", "NMF-k2-r1.json")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// The first train_mse is the metric (0.x becomes 10.x).
	tampered := strings.Replace(string(b), `"train_mse":`, `"train_mse":1`, 1)
	if tampered == string(b) {
		t.Fatal("found no train_mse to tamper with")
	}
	if err := os.WriteFile(path, []byte(tampered), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout.Reset()
	err = runVerify(context.Background(), []string{"--cells", "4", "--dir", dir, cfg}, &stdout, &stderr)
	if err == nil || !strings.Contains(err.Error(), "1 of 4 cells were not reproduced") {
		t.Errorf("verify of a tampered study returned %v, want 1 of 4 not reproduced", err)
	}
	if !strings.Contains(stdout.String(), "NMF-k2-r1 (made by ") || !strings.Contains(stdout.String(), "DIFFERS in [metrics]") {
		t.Errorf("verify printed %q, want the tampered cell marked as differing in its metrics", stdout.String())
	}

	// An unreadable record is reported and fails the verification.
	if err := os.WriteFile(path, []byte(`{"version": 1, "config_ha`), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout.Reset()
	stderr.Reset()
	err = runVerify(context.Background(), []string{"--cells", "4", "--dir", dir, cfg}, &stdout, &stderr)
	if err == nil || !strings.Contains(err.Error(), "1 stored record(s) could not be read") ||
		!strings.Contains(stderr.String(), "NMF-k2-r1.json: unreadable record") {
		t.Errorf("verify of a study with a broken record returned %v and warned %q, want both to say so", err, stderr.String())
	}

	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--dir", dir}, "want exactly one config"},
		{[]string{"--cells", "0", "--dir", dir, cfg}, "--cells 0 must be positive"},
		{[]string{"--dir", filepath.Join(dir, "missing"), cfg}, "verify: loading study"},
	} {
		if err := runVerify(context.Background(), tt.args, &stdout, &stderr); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("verify %v returned %v, want an error containing %q", tt.args, err, tt.want)
		}
	}
}
