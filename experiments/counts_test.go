package experiments

import (
	"context"
	"math"
	"path/filepath"
	"testing"
)

// TestPoissonStudy runs a sparsity study of PGG and PGGG, with two
// chains, on the synthetic dataset (whose stars are counts) and checks
// that their cells carry Poisson predictive scores: no sigma^2, a log
// probability mass, and coverage of at least about the level, which the
// intervals of a discrete predictive hold.
func TestPoissonStudy(t *testing.T) {
	src := `kind: sparsity
dataset:
  name: synthetic
  synthetic: {rows: 40, cols: 60, rank: 3, density: 0.3, seed: 11}
models: [{name: PGG}, {name: PGGG, a: 2}]
ranks: [3]
fractions: [0.8]
repeats: 1
sweeps: 40
burn_in: 20
chains: 2
`
	p := preparePlan(t, "study.yaml", src)
	dir := filepath.Join(t.TempDir(), "study")
	if _, err := p.Run(context.Background(), RunOptions{Workers: 2, Output: dir}); err != nil {
		t.Fatal(err)
	}
	st, err := LoadStudy(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Records) != 2 {
		t.Fatalf("%d records, want 2", len(st.Records))
	}
	for _, r := range st.Records {
		if r.Error != "" {
			t.Fatalf("cell %s failed: %s", r.Cell, r.Error)
		}
		m, pr := r.Metrics, r.Predictive
		if m.Sigma2Mean != 0 || pr == nil || pr.Samples != 40 {
			t.Fatalf("%s: sigma^2 %v, scores %+v", r.Cell, m.Sigma2Mean, pr)
		}
		// A probability mass is at most 1; stars of 1 to 5 are not
		// predicted with certainty.
		if !(pr.Test.LogDensity < 0 && pr.Test.LogDensity > -5) || !(pr.Test.CRPS > 0) {
			t.Errorf("%s: log mass %v, CRPS %v", r.Cell, pr.Test.LogDensity, pr.Test.CRPS)
		}
		// The intervals of a discrete predictive hold at least their
		// level: allow four binomial standard errors (0.083 at level 0.5
		// for the 576 held-out stars) below it.
		for l, a := range pr.Levels {
			if cov := pr.Test.Coverage[l]; cov < a-4*math.Sqrt(a*(1-a)/float64(r.TestEntries)) {
				t.Errorf("%s: coverage %v at level %v", r.Cell, cov, a)
			}
		}
		t.Logf("%s: test MSE %.3f, log mass %.3f, CRPS %.3f, coverage %v", r.Cell, m.TestMSE, pr.Test.LogDensity, pr.Test.CRPS, pr.Test.Coverage)
	}
}
