package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestFitGEEARates fits GEEA at rank 4 to a planted rank-2 matrix and
// reads the posterior of its rates lambda_k from summary.json and the
// printout.
func TestFitGEEARates(t *testing.T) {
	dir := t.TempDir()
	p := newPlanted(t, dir, 40, 30, 2, 0.5, 0.1, 1, 5)
	out := filepath.Join(dir, "geea")
	stdout, _ := fitCLI(t, "--model", "GEEA", "--rank", "4", "--chains", "2", "--sweeps", "400", "--seed", "3", "--out", out, p.path)
	if !strings.Contains(stdout, "lambda per dimension") {
		t.Errorf("the printout does not show the rates:\n%s", stdout)
	}
	var sum fitSummary
	readJSON(t, filepath.Join(out, "summary.json"), &sum)
	if len(sum.Hyper) != 1 || sum.Hyper[0].Name != "lambda" || len(sum.Hyper[0].Mean) != 4 || sum.Hyper[0].Draws != 2*80 {
		t.Fatalf("summary.json hyperparameters %+v, want lambda for 4 dimensions over 2 x 80 kept sweeps", sum.Hyper)
	}
	h := sum.Hyper[0]
	for k := range h.Mean {
		if !(h.Q025[k] > 0 && h.Q025[k] <= h.Median[k] && h.Median[k] <= h.Q975[k] && h.SD[k] > 0) {
			t.Errorf("dimension %d: q025 %v, median %v, q975 %v, sd %v", k, h.Q025[k], h.Median[k], h.Q975[k], h.SD[k])
		}
	}
	t.Logf("posterior means of lambda_k: %.3g", h.Mean)
}
