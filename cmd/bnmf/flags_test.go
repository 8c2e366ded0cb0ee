package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestFlagsAnywhere checks that flags are read before, between and after
// the arguments, and that "--" ends them.
func TestFlagsAnywhere(t *testing.T) {
	tests := []struct {
		args    []string
		workers int
		force   bool
		want    []string
	}{
		{[]string{"--workers", "2", "a.yaml"}, 2, false, []string{"a.yaml"}},
		{[]string{"a.yaml", "--workers", "2"}, 2, false, []string{"a.yaml"}},
		{[]string{"a.yaml", "--force", "b.yaml", "-workers=3"}, 3, true, []string{"a.yaml", "b.yaml"}},
		{[]string{"a.yaml", "--", "--force", "-x"}, 0, false, []string{"a.yaml", "--force", "-x"}},
		{[]string{"--", "a.yaml"}, 0, false, []string{"a.yaml"}},
		{[]string{"-", "--force"}, 0, true, []string{"-"}},
		{nil, 0, false, nil},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			fs := newFlagSet("x", "", io.Discard, io.Discard)
			workers := fs.Int("workers", 0, "")
			force := fs.Bool("force", false, "")
			if err := fs.parse(tt.args); err != nil {
				t.Fatal(err)
			}
			if *workers != tt.workers || *force != tt.force || !slices.Equal(fs.Args(), tt.want) {
				t.Errorf("workers %d, force %v, arguments %q; want %d, %v, %q", *workers, *force, fs.Args(), tt.workers, tt.force, tt.want)
			}
		})
	}
}

// TestCommandsTakeFlagsAfterArguments runs subcommands with their flags
// after their arguments.
func TestCommandsTakeFlagsAfterArguments(t *testing.T) {
	t.Setenv("JOB_COMPLETION_INDEX", "")
	t.Setenv("SLURM_ARRAY_TASK_ID", "")
	cfg := runTestConfig(t, "1")
	dir := filepath.Join(t.TempDir(), "study")
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), []string{"run", cfg, "--workers", "1", "--out", dir}, &stdout, &stderr); err != nil {
		t.Fatalf("run with flags after the config: %v\n%s", err, stderr.String())
	}
	if got := stdout.String(); got != dir+"\n" {
		t.Errorf("run printed %q, want the output directory %s given after the config", got, dir)
	}
	stdout.Reset()
	if err := run(context.Background(), []string{"report", dir, "--quiet"}, &stdout, &stderr); err != nil {
		t.Fatalf("report with flags after the directory: %v", err)
	}
	if strings.Contains(stdout.String(), "wrote ") {
		t.Errorf("report %s --quiet listed the files written: %q", dir, stdout.String())
	}
	merged := filepath.Join(t.TempDir(), "merged")
	if err := run(context.Background(), []string{"merge", dir, "--out", merged, "--compact"}, &stdout, &stderr); err != nil {
		t.Fatalf("merge with flags after the directory: %v", err)
	}
	stdout.Reset()
	if err := run(context.Background(), []string{"verify", cfg, "--cells", "1", "--dir", merged, "--workers", "1"}, &stdout, &stderr); err != nil {
		t.Fatalf("verify with flags after the config: %v", err)
	}
	if n := strings.Count(stdout.String(), "identical"); n != 1 {
		t.Errorf("verify --cells 1 checked %d cells: %q", n, stdout.String())
	}
	out := t.TempDir()
	in := filepath.Join(out, "mine.csv")
	if err := os.WriteFile(in, []byte("u1,i1,5\nu1,i2,3\nu2,i1,4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := run(context.Background(), []string{"data", "describe", in, "--format", "triplets", "--out", out}, &stdout, &stderr); err != nil {
		t.Fatalf("data describe with flags after the file: %v", err)
	}
}
