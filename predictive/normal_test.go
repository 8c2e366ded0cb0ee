package predictive

import (
	"math"
	"testing"
)

// TestNormalTable checks the tabulated Phi and phi against math.Erfc and
// math.Exp on a grid finer than the table's, through the tails and across
// the cut-off at |z| = 9. The bounds are the truncation bounds stated on
// normalTable (3e-18 and 2e-15 absolute, 6e-14 relative for phi within
// densityEdge) plus a few ulps of rounding (1.1e-16 relative per
// operation, about 1e-15 for the Horner sums).
func TestNormalTable(t *testing.T) {
	tab := newNormalTable()
	var worstCDF, worstPDF, worstRel float64
	for z := -12.0; z <= 12; z += 1.0 / 1024 / 3 {
		cdf, pdf := tab.eval(z)
		worstCDF = math.Max(worstCDF, math.Abs(cdf-normCDF(z)))
		worstPDF = math.Max(worstPDF, math.Abs(pdf-normPDF(z)))
		if math.Abs(z) <= densityEdge {
			worstRel = math.Max(worstRel, math.Abs(pdf/normPDF(z)-1))
		}
	}
	t.Logf("largest errors: Phi %.3g, phi %.3g, phi within densityEdge %.3g relative", worstCDF, worstPDF, worstRel)
	if !(worstCDF <= 2e-15) {
		t.Errorf("largest error of Phi %.3g, want at most 2e-15", worstCDF)
	}
	if !(worstPDF <= 5e-15) {
		t.Errorf("largest error of phi %.3g, want at most 5e-15", worstPDF)
	}
	if !(worstRel <= 7e-14) {
		t.Errorf("largest relative error of phi within densityEdge %.3g, want at most 7e-14", worstRel)
	}
	for _, z := range []float64{math.Inf(-1), -1e300, 1e300, math.Inf(1)} {
		cdf, pdf := tab.eval(z)
		if want := normCDF(z); cdf != want || pdf != 0 {
			t.Errorf("eval(%g) = %g, %g; want %g, 0", z, cdf, pdf, want)
		}
	}
}

// TestKernelTable checks the tabulated CRPS kernel against crpsKernel from
// math.Erfc and math.Exp: the truncation error is below 3e-18 (see
// normalTable) and the rounding of g(u) about 1e-16 |u|.
func TestKernelTable(t *testing.T) {
	tab := newNormalTable()
	var worst float64
	for u := -12.0; u <= 12; u += 1.0 / 1024 / 3 {
		worst = math.Max(worst, math.Abs(tab.kernel(u)-crpsKernel(u))/math.Max(1, math.Abs(u)))
	}
	t.Logf("largest error of g %.3g", worst)
	if !(worst <= 1e-15) {
		t.Errorf("largest error of g %.3g (relative to max(1, |u|)), want at most 1e-15", worst)
	}
}
