package regression

import (
	"slices"
	"strings"
	"testing"
)

// TestClaimsDiagnostics checks what results/README.md says of the
// four-chain study of Table 2's cells (ml100k-diagnostics), record by
// record, so that it holds for every repeat committed:
//   - chain 0 of every cell is the committed ml100k-sparsity cell exactly;
//   - every Bayesian cell is flagged (R-hat above 1.01 and bulk-ESS below
//     100 per chain), and the chains are stuck exactly in GEE's cells at
//     98% with K = 40 and 50 and GTT's and GTTN's at 98% with K = 50;
//   - pooling the four chains lowers GRRN's held-out MSE below that of
//     every one of its chains;
//   - GRRN's pooled central 90% intervals cover between 89.5% and 91.5%
//     of the held-out ratings.
func TestClaimsDiagnostics(t *testing.T) {
	diag := committedStudy(t, "ml100k-diagnostics")
	single := committedStudy(t, "ml100k-sparsity")
	byKey := recordsByKey(single)
	if len(diag.Records) < 40 {
		t.Fatalf("%d records, want at least repeat 0 of every setting (40)", len(diag.Records))
	}
	for i := range diag.Records {
		r := &diag.Records[i]
		key := r.Cell.Key()
		one := byKey[key]
		if one == nil || len(r.ChainMetrics) != 4 {
			t.Fatalf("%s: no committed single-chain cell, or %d chains", key, len(r.ChainMetrics))
		}
		c0, m := r.ChainMetrics[0], one.Metrics
		if c0.TestMSE != m.TestMSE || c0.TrainMSE != m.TrainMSE || c0.Sigma2Mean != m.Sigma2Mean || !slices.Equal(r.Trace.TrainMSE, one.Trace.TrainMSE) {
			t.Errorf("%s: chain 0 differs from the committed single-chain cell", key)
		}
		if !slices.Contains(bayesian, r.Cell.Model) {
			continue
		}
		flagged, stuck := false, false
		for _, w := range r.Warnings {
			flagged = flagged || strings.HasPrefix(w, "convergence: R-hat above 1.01")
			stuck = stuck || strings.Contains(w, "stuck chain")
		}
		if !flagged {
			t.Errorf("%s: not flagged as unmixed", key)
		}
		wantStuck := r.Cell.Fraction == 0.98 && (r.Cell.Rank == 50 && r.Cell.Model != "GRRN" || r.Cell.Rank == 40 && r.Cell.Model == "GEE")
		if stuck != wantStuck {
			t.Errorf("%s: stuck %v, want %v", key, stuck, wantStuck)
		}
		if r.Cell.Model != "GRRN" {
			continue
		}
		for c, cm := range r.ChainMetrics {
			if !(r.Metrics.TestMSE < cm.TestMSE) {
				t.Errorf("%s: pooled held-out MSE %.4f is not below chain %d's %.4f", key, r.Metrics.TestMSE, c, cm.TestMSE)
			}
		}
		if p := r.Predictive; p == nil || p.Test.Coverage[2] < 0.895 || p.Test.Coverage[2] > 0.915 {
			t.Errorf("%s: GRRN's 90%% coverage is %v, not within [0.895, 0.915]", key, p)
		}
	}
}
