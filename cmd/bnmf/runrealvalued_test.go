package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bnmf-lab/bnmf/experiments"
)

// TestRunRealValuedModels runs a tiny sparsity study of GRRN, GGG, GGGA
// and GGGW on the synthetic data, with a hyperparameter of each new model
// set in the config, and reports it: every cell is stored and the
// report's opening paragraph names the models with real-valued factors.
func TestRunRealValuedModels(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "rowwise.yaml")
	src := `name: rowwise
kind: sparsity
dataset:
  name: synthetic
  synthetic: {rows: 20, cols: 30, rank: 2, density: 0.4, seed: 1}
models:
  - name: GRRN
  - name: GGG
    lambda: 0.5
  - name: GGGA
    alpha0: 2
  - name: GGGW
    v0: 4
ranks: [2]
fractions: [0.7]
repeats: 1
sweeps: 20
burn_in: 10
seed: 1
`
	if err := os.WriteFile(cfg, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	var stderr bytes.Buffer
	if err := runRun(context.Background(), []string{"--out", out, cfg}, &bytes.Buffer{}, &stderr); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	st, err := experiments.LoadStudy(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Records) != 4 || len(st.Problems) != 0 {
		t.Fatalf("%d records and problems %v; want 4 and none", len(st.Records), st.Problems)
	}
	if err := runReport(context.Background(), []string{out}, &bytes.Buffer{}, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile(filepath.Join(out, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	want := "covers models GRRN, GGG, GGGA, GGGW (GGG, GGGA and GGGW with real-valued factors"
	if !strings.Contains(string(readme), want) {
		t.Errorf("the report does not say %q", want)
	}
}
