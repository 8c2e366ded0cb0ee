package main

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/gonum/stat"

	"github.com/bnmf-lab/bnmf/bnmf"
)

// TestSummariseHyper checks the pooling of shared hyperparameters over
// chains whose factors were matched: dimension k of chain c is its
// factor perms[c][k].
func TestSummariseHyper(t *testing.T) {
	rs := []*bnmf.Result{
		{Hyper: []bnmf.HyperDraws{{Name: "lambda", Draws: [][]float64{{1, 2}, {3, 4}}}}},
		{Hyper: []bnmf.HyperDraws{{Name: "lambda", Draws: [][]float64{{20, 10}}}}},
	}
	got := summariseHyper(rs, [][]int{{0, 1}, {1, 0}})
	if len(got) != 1 || got[0].Name != "lambda" || got[0].Draws != 3 {
		t.Fatalf("summary %+v, want one of 3 draws named lambda", got)
	}
	// Dimension 0 pools {1, 3, 10}, dimension 1 {2, 4, 20}.
	for k, want := range [][]float64{{1, 3, 10}, {2, 4, 20}} {
		mean := (want[0] + want[1] + want[2]) / 3
		median := stat.Quantile(0.5, stat.LinInterp, want, nil) // as sigma^2's summary computes it
		if math.Abs(got[0].Mean[k]-mean) > 1e-12 || got[0].Median[k] != median {
			t.Errorf("dimension %d: mean %v, median %v; want %v, %v", k, got[0].Mean[k], got[0].Median[k], mean, median)
		}
	}
	if summariseHyper([]*bnmf.Result{{}}, nil) != nil {
		t.Error("a model without shared hyperparameters has a summary")
	}
}

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
