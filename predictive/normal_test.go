package predictive

import (
	"math"
	"testing"
)

// TestNormalTable checks the tabulated Phi and phi against math.Erfc and
// math.Exp on a grid finer than the table's, through the tails and across
// the cut-off at |z| = 9. The bounds are the truncation bounds stated on
// normalTable (1e-15 and 2e-13) plus a few ulps of rounding.
func TestNormalTable(t *testing.T) {
	tab := newNormalTable()
	var worstCDF, worstPDF float64
	for z := -12.0; z <= 12; z += 1.0 / 1024 / 3 {
		cdf, pdf := tab.eval(z)
		worstCDF = math.Max(worstCDF, math.Abs(cdf-normCDF(z)))
		worstPDF = math.Max(worstPDF, math.Abs(pdf-normPDF(z)))
	}
	t.Logf("largest errors: Phi %.3g, phi %.3g", worstCDF, worstPDF)
	if !(worstCDF <= 2e-15) {
		t.Errorf("largest error of Phi %.3g, want at most 2e-15", worstCDF)
	}
	if !(worstPDF <= 3e-13) {
		t.Errorf("largest error of phi %.3g, want at most 3e-13", worstPDF)
	}
	for _, z := range []float64{math.Inf(-1), -1e300, 1e300, math.Inf(1)} {
		cdf, pdf := tab.eval(z)
		if want := normCDF(z); cdf != want || pdf != 0 {
			t.Errorf("eval(%g) = %g, %g; want %g, 0", z, cdf, pdf, want)
		}
	}
}
