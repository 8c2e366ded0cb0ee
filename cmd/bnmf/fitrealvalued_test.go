package main

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestFitSummaryNonnegativeFactors checks that summary.json says, from the
// registry, whether the model's factors are nonnegative, and warns about
// the orientation of real-valued factors only for the models that have
// them.
func TestFitSummaryNonnegativeFactors(t *testing.T) {
	dir := t.TempDir()
	p := newPlanted(t, dir, 20, 15, 2, 0.5, 0.2, 1, 3)
	for _, tc := range []struct {
		model       string
		nonnegative bool
	}{{"GRRN", true}, {"GGG", false}, {"GGGA", false}, {"GGGW", false}} {
		t.Run(tc.model, func(t *testing.T) {
			out := filepath.Join(dir, tc.model)
			fitCLI(t, "--model", tc.model, "--rank", "2", "--chains", "2", "--sweeps", "20", "--samples", "10", "--out", out, p.path)
			var sum fitSummary
			readJSON(t, filepath.Join(out, "summary.json"), &sum)
			if sum.Model.Name != tc.model || sum.Model.NonnegativeFactors != tc.nonnegative {
				t.Errorf("summary.json model block %+v, want %s with nonnegative factors %v", sum.Model, tc.model, tc.nonnegative)
			}
			warned := slices.ContainsFunc(sum.Warnings, func(w string) bool { return strings.HasPrefix(w, "factors: ") })
			if warned == tc.nonnegative {
				t.Errorf("real-valued factor warning present: %v, want %v (warnings %q)", warned, !tc.nonnegative, sum.Warnings)
			}
		})
	}
}
