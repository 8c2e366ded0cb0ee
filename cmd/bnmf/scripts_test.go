package main

import (
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestScriptArguments checks that run.sh, test.sh and build.sh answer
// --help without building or running anything, and refuse arguments they
// do not take before doing any work.
func TestScriptArguments(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash not found")
	}
	tests := []struct {
		script   string
		arg      string
		wantCode int
		wantOut  string // in standard output
		wantErr  string // in standard error
	}{
		{"run.sh", "--help", 0, "Usage: ./run.sh [CONFIG...]", ""},
		{"run.sh", "-h", 0, "BNMF_RUN_FLAGS", ""},
		{"run.sh", "--workers", 2, "", "unknown flag --workers"},
		{"test.sh", "--help", 0, "Usage: ./test.sh", ""},
		{"test.sh", "extra", 2, "", "takes no arguments"},
		{"build.sh", "--help", 0, "Usage: ./build.sh [OUTPUT]", ""},
		{"build.sh", "-o", 2, "", "unknown flag -o"},
	}
	for _, tc := range tests {
		cmd := exec.Command("bash", filepath.Join("..", "..", tc.script), tc.arg)
		var stdout, stderr strings.Builder
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		code := 0
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			code = exit.ExitCode()
		} else if err != nil {
			t.Fatalf("%s %s: %v", tc.script, tc.arg, err)
		}
		if code != tc.wantCode || !strings.Contains(stdout.String(), tc.wantOut) || !strings.Contains(stderr.String(), tc.wantErr) {
			t.Errorf("%s %s: exit %d, stdout %q, stderr %q; want exit %d, stdout with %q, stderr with %q",
				tc.script, tc.arg, code, stdout.String(), stderr.String(), tc.wantCode, tc.wantOut, tc.wantErr)
		}
		if strings.Contains(stderr.String(), "Building") {
			t.Errorf("%s %s built bin/bnmf: %q", tc.script, tc.arg, stderr.String())
		}
	}
}

// TestDemoOutputIgnored checks that the quick demo's output, which
// ./run.sh writes into the checkout, is ignored by git.
func TestDemoOutputIgnored(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not found")
	}
	root := filepath.Join("..", "..")
	if err := exec.Command("git", "-C", root, "rev-parse", "--git-dir").Run(); err != nil {
		t.Skip("not a git checkout")
	}
	for _, path := range []string{"results/quick/README.md", "results/quick/records/GRRN-k5-r0.json", "results/quick/figures/fig5-sparsity.png"} {
		// check-ignore exits 0 for an ignored path, 1 for one that is not.
		out, err := exec.Command("git", "-C", root, "check-ignore", "--no-index", path).CombinedOutput()
		if err != nil {
			t.Errorf("git check-ignore %s: %v %s; want results/quick/ ignored", path, err, out)
		}
	}
}
