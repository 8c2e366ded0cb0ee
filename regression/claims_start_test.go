package regression

import (
	"math"
	"strings"
	"testing"

	"github.com/bnmf-lab/bnmf/experiments"
)

// TestClaimsStart checks what results/README.md says of starting sigma^2
// from its prior (ml100k-start-prior) or at the training values' variance
// (ml100k-start-data-variance) against the paper's start from its full
// conditional (the four-chain ml100k-diagnostics), cell by cell for every
// repeat both hold:
//   - each chain starts near the data's scale (sigma^2 below 100 after
//     the first sweep, where the conditional start puts it near 1e5 to
//     1e7 at K = 40 and 50);
//   - GEE at 98% and K = 40 is no longer stuck (held-out MSE between 20
//     and 60 instead of about 32,000);
//   - at 98% and K = 50, GEE, GTT and GTTN drift into the stuck state all
//     the same, GEE's chains into the very state of the conditional start
//     (the same held-out MSE to within a millionth);
//   - every other cell's held-out MSE is close to the conditional
//     start's (see TestClaimsStart).
func TestClaimsStart(t *testing.T) {
	// Every other cell is within 3% of the conditional start, but for GEE
	// at K = 20 and 98%, which is up to 6.4% (prior) and 8.4% (data
	// variance) lower.
	checkStart(t, "ml100k-start-prior", 0.065)
	checkStart(t, "ml100k-start-data-variance", 0.085)
}

// checkStart checks the study of one start against the conditional
// start's; tol bounds the relative change of the other cells' held-out MSE.
func checkStart(t *testing.T, name string, tol float64) {
	prior := committedStudy(t, name)
	cond := committedStudy(t, "ml100k-diagnostics")
	byKey := recordsByKey(cond)
	if len(prior.Records) < 31 {
		t.Fatalf("%d records, want at least repeat 0's", len(prior.Records))
	}
	for i := range prior.Records {
		r := &prior.Records[i]
		c := byKey[r.Cell.Key()]
		if c == nil {
			continue // that repeat has not run with the conditional start
		}
		key, k, f := name+"/"+r.Cell.Key(), r.Cell.Rank, r.Cell.Fraction
		stuck := strings.Contains(strings.Join(r.Warnings, "\n"), "stuck chain")
		ratio := r.Metrics.TestMSE / c.Metrics.TestMSE
		for _, tr := range append([]experiments.Trace{r.Trace}, r.ChainTraces...) {
			if tr.Sigma2[0] > 100 {
				t.Errorf("%s: a chain's sigma^2 after sweep 1 is %.3g, not near the data's scale", key, tr.Sigma2[0])
			}
		}
		switch {
		case f == 0.98 && k == 40 && r.Cell.Model == "GEE":
			if stuck || r.Metrics.TestMSE < 20 || r.Metrics.TestMSE > 60 {
				t.Errorf("%s: stuck %v, held-out MSE %.4g; want an escape to 20-60", key, stuck, r.Metrics.TestMSE)
			}
		case f == 0.98 && k == 50 && r.Cell.Model != "GRRN":
			if !stuck {
				t.Errorf("%s: not stuck from the prior start", key)
			}
			if r.Cell.Model == "GEE" && math.Abs(ratio-1) > 1e-6 {
				t.Errorf("%s: held-out MSE %v, the conditional start's %v", key, r.Metrics.TestMSE, c.Metrics.TestMSE)
			}
		case f == 0.98 && k == 20 && r.Cell.Model == "GEE":
			if ratio < 1-tol || ratio > 1 {
				t.Errorf("%s: held-out MSE %.4f is %.4f times the conditional start's", key, r.Metrics.TestMSE, ratio)
			}
		default:
			if ratio < 0.97 || ratio > 1.03 {
				t.Errorf("%s: held-out MSE %.4f is %.4f times the conditional start's", key, r.Metrics.TestMSE, ratio)
			}
		}
	}
}
