package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bnmf-lab/bnmf/experiments"
)

// runTestConfig writes a tiny convergence study and returns its path.
func runTestConfig(t *testing.T, seed string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "tiny.yaml")
	src := `kind: convergence
dataset:
  name: synthetic
  synthetic: {rows: 20, cols: 30, rank: 2, density: 0.3, seed: 1}
models: [{name: GRRN}, {name: NMF}]
ranks: [2]
repeats: 2
sweeps: 20
burn_in: 10
seed: ` + seed + "\n"
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestHelp checks that every command and subcommand answers --help with
// its usage on standard output and no error from the dispatcher.
func TestHelp(t *testing.T) {
	tests := []struct {
		args []string
		want string // the usage's first line starts so
		flag string // a flag the usage lists
	}{
		{[]string{"run", "--help"}, "Usage: bnmf run", "-workers"},
		{[]string{"merge", "--help"}, "Usage: bnmf merge", "-out"},
		{[]string{"verify", "--help"}, "Usage: bnmf verify", "-cells"},
		{[]string{"report", "--help"}, "Usage: bnmf report", "-quiet"},
		{[]string{"data", "--help"}, "Usage: bnmf data", "describe"},
		{[]string{"data", "fetch", "--help"}, "Usage: bnmf data fetch", "-skip-checksum"},
		{[]string{"data", "describe", "-h"}, "Usage: bnmf data describe", "-min-ratings"},
		{[]string{"fit", "--help"}, "Usage: bnmf fit", "-holdout"},
		{[]string{"predict", "--help"}, "Usage: bnmf predict", "-include-observed"},
		{[]string{"help"}, "Usage: bnmf <command>", "predict"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if err := run(context.Background(), tt.args, &stdout, &stderr); err != nil {
				t.Fatalf("returned %v, want nil", err)
			}
			if !strings.HasPrefix(stdout.String(), tt.want) || !strings.Contains(stdout.String(), tt.flag) {
				t.Errorf("printed %q, want the usage starting %q and listing %q", stdout.String(), tt.want, tt.flag)
			}
			if stderr.Len() != 0 {
				t.Errorf("wrote %q to standard error", stderr.String())
			}
		})
	}
}

// TestUsageErrors checks that mistakes name the command and print the
// usage to standard error.
func TestUsageErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"merge", "--bogus"}, "merge: flag provided but not defined: -bogus"},
		{[]string{"merge", "a"}, "merge: --out is required"},
		{[]string{"report"}, "report: want one RESULTS_DIR, got 0 arguments"},
		{[]string{"data"}, "data: no command given"},
		{[]string{"data", "frobnicate"}, `data: unknown command "frobnicate"`},
		{[]string{"data", "fetch"}, "data fetch: no dataset given"},
		{[]string{"data", "describe"}, "data describe: want one DATASET, got 0 arguments"},
		{[]string{"frobnicate"}, `unknown command "frobnicate"`},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			err := run(context.Background(), tt.args, &stdout, &stderr)
			if err == nil || err.Error() != tt.want {
				t.Errorf("got error %v, want %q", err, tt.want)
			}
			if !strings.Contains(stderr.String(), "Usage: bnmf") {
				t.Errorf("standard error %q lacks the usage", stderr.String())
			}
		})
	}
}

func TestRunErrors(t *testing.T) {
	cfg := runTestConfig(t, "1")
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no config", nil, "run: no config given"},
		{"bad shard", []string{"--shard", "3/3", cfg}, "run: shard 3/3: want 0 <= I < N"},
		{"zero shards", []string{"--shard", "0/0", cfg}, `run: shard "0/0": the number of shards N must be at least 1`},
		{"shard beyond count", []string{"--shard", "3/2", cfg}, "run: shard 3/2: want 0 <= I < N"},
		{"negative shard", []string{"--shard", "-1/2", cfg}, `run: shard "-1/2": want I/N`},
		{"shards without index", []string{"--shards", "4", cfg}, "run: --shards needs --shard I/N"},
		{"out with two configs", []string{"--out", "x", cfg, cfg}, "run: --out takes a single config"},
		{"negative repeats", []string{"--repeats", "-1", cfg}, "run: --repeats -1 must not be negative"},
		{"negative progress", []string{"--progress", "-1s", cfg}, "run: --progress -1s must be positive"},
		{"zero progress", []string{"--progress", "0s", cfg}, "run: --progress 0s must be positive"},
		{"bad config", []string{"../../experiments/testdata/bad-negative-rank.yaml"},
			"../../experiments/testdata/bad-negative-rank.yaml:5: ranks[1]: rank -5 must be positive"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("JOB_COMPLETION_INDEX", "")
			t.Setenv("SLURM_ARRAY_TASK_ID", "")
			var stdout, stderr bytes.Buffer
			err := runRun(context.Background(), tt.args, &stdout, &stderr)
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("got error %v, want one starting %q", err, tt.want)
			}
		})
	}
}

func TestRunAndMerge(t *testing.T) {
	t.Setenv("JOB_COMPLETION_INDEX", "")
	t.Setenv("SLURM_ARRAY_TASK_ID", "")
	cfg := runTestConfig(t, "1")
	root := t.TempDir()
	var shardDirs []string
	for i, shard := range []string{"0/2", "1/2"} {
		dir := filepath.Join(root, "shard"+shard[:1])
		var stdout, stderr bytes.Buffer
		if err := runRun(context.Background(), []string{"--workers", "2", "--shard", shard, "--out", dir, cfg}, &stdout, &stderr); err != nil {
			t.Fatalf("shard %d: %v\n%s", i, err, stderr.String())
		}
		if got := stdout.String(); got != dir+"\n" {
			t.Errorf("shard %d printed %q on stdout, want the output directory", i, got)
		}
		shardDirs = append(shardDirs, dir)
	}

	merged := filepath.Join(root, "merged")
	var stdout, stderr bytes.Buffer
	if err := runMerge(context.Background(), append([]string{"--out", merged, "--compact"}, shardDirs...), &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	if want := "tiny: 4 of 4 cells stored in " + merged + "\n"; stdout.String() != want {
		t.Errorf("merge printed %q, want %q", stdout.String(), want)
	}
	st, err := experiments.LoadStudy(merged)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Records) != 4 || len(st.Problems) != 0 {
		t.Errorf("merged study has %d records and problems %v; want 4 and none", len(st.Records), st.Problems)
	}

	// A repeats limit runs repeat 0 (2 of the 4 cells) and says what is left.
	limited := filepath.Join(root, "limited")
	stderr.Reset()
	if err := runRun(context.Background(), []string{"--repeats", "1", "--out", limited, cfg}, &bytes.Buffer{}, &stderr); err != nil {
		t.Fatal(err)
	}
	if want := "tiny: 2 cells of repeats 1 and above are left for a later run"; !strings.Contains(stderr.String(), want) {
		t.Errorf("--repeats 1 printed %q, want it to contain %q", stderr.String(), want)
	}
	if st, err := experiments.LoadStudy(limited); err != nil {
		t.Error(err)
	} else if len(st.Records) != 2 {
		t.Errorf("--repeats 1 stored %d records, want 2", len(st.Records))
	}

	// A study of another config (another seed) cannot join them.
	other := filepath.Join(root, "other")
	if err := runRun(context.Background(), []string{"--out", other, runTestConfig(t, "2")}, &bytes.Buffer{}, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	err = runMerge(context.Background(), []string{"--out", filepath.Join(root, "mixed"), shardDirs[0], other}, &bytes.Buffer{}, &bytes.Buffer{})
	if err == nil || !strings.Contains(err.Error(), "only shards of one config can be merged") {
		t.Errorf("merging two configs gave %v, want a refusal", err)
	}
}

// TestRunWarnsOfScale checks that bnmf run warns, when it checks the
// config and before any chain runs, about data of mean 43 and variance
// 1,907, far from the scale the default hyperparameters suit.
func TestRunWarnsOfScale(t *testing.T) {
	dir := t.TempDir()
	var data strings.Builder
	for i := range 130 { // 64 values 87.34375 and 66 zeros: mean 43, variance 1,907
		v := 0.0
		if i%2 == 0 && i < 128 {
			v = 87.34375
		}
		fmt.Fprintf(&data, "u%d,i%d,%v\n", i/10, i%10, v)
	}
	dataPath := filepath.Join(dir, "big.csv")
	cfgPath := filepath.Join(dir, "big.yaml")
	cfg := "kind: sparsity\ndataset: {path: " + dataPath + ", format: triplets, label: Big numbers}\n" +
		"models: [{name: GRRN}, {name: ColumnMean}]\nranks: [2]\nfractions: [0.3]\nrepeats: 2\nsweeps: 4\nburn_in: 2\n"
	for path, content := range map[string]string{dataPath: data.String(), cfgPath: cfg} {
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("JOB_COMPLETION_INDEX", "")
	t.Setenv("SLURM_ARRAY_TASK_ID", "")
	var stdout, stderr bytes.Buffer
	if err := runRun(context.Background(), []string{"--out", filepath.Join(dir, "out"), cfgPath}, &stdout, &stderr); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	want := "warning: " + cfgPath + ": the data's values have mean 43 and variance 1,907, far from the scale"
	if !strings.HasPrefix(stderr.String(), want) {
		t.Errorf("stderr starts %q, want %q", stderr.String(), want)
	}
	if !strings.Contains(stderr.String(), "standardize: true") {
		t.Errorf("the warning does not point to rescaling: %q", stderr.String())
	}

	// The report loads the data again through the study's config, names
	// it by its label, measures skill against the baseline and repeats
	// the warning.
	out := filepath.Join(dir, "out")
	if err := runReport(context.Background(), []string{"--quiet", out}, &bytes.Buffer{}, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile(filepath.Join(out, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"## big: sparsity on Big numbers", "## Value distributions", "| var(data) |", "GRRN skill",
		"**Warning:** the data's values have mean 43 and variance 1,907"} {
		if !strings.Contains(string(readme), w) {
			t.Errorf("README lacks %q", w)
		}
	}
	if strings.Contains(string(readme), "(paper)") || strings.Contains(string(readme), "Fig. ") {
		t.Error("README of a user's data names the paper's figures or columns")
	}
}

// TestRunHelpShowsOwnData checks that run --help says how to run a study
// on a file of one's own, with an example config that is valid.
func TestRunHelpShowsOwnData(t *testing.T) {
	var stdout bytes.Buffer
	if err := run(context.Background(), []string{"run", "--help"}, &stdout, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"matrix of your own", "path: data/mine.csv", "format: triplets", "matrix-market"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("run --help lacks %q", want)
		}
	}
	cfg, err := experiments.ParseConfig("example.yaml", []byte(ownDataExample))
	if err != nil {
		t.Fatalf("the example config of run --help is not valid: %v", err)
	}
	if cfg.Dataset.Path != "data/mine.csv" || cfg.Dataset.Format != "triplets" {
		t.Errorf("the example config reads dataset %+v", cfg.Dataset)
	}
}

// TestRunRefusesTooManySweeps checks that a study asking for more sweeps
// than bnmf.MaxSweeps is refused when its config is read, before the
// study directory, a claim or a chain exists (2e9 sweeps used to claim
// a cell and then run out of memory reserving the trace).
func TestRunRefusesTooManySweeps(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "long.yaml")
	src := "kind: convergence\ndataset: {name: synthetic}\nmodels: [{name: GRRN}]\nranks: [2]\nrepeats: 1\nsweeps: 2000000000\nburn_in: 0\n"
	if err := os.WriteFile(cfg, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), []string{"run", "--workers", "1", "--out", out, cfg}, &stdout, &stderr)
	if want := "long.yaml:6: sweeps: 2000000000 must be between 1 and 10000000"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("error %v, want one containing %q", err, want)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		entries, _ := os.ReadDir(out)
		t.Errorf("the refused run left %s: %v", out, entries)
	}
}
