package experiments

import (
	"fmt"
	"math"
	"strconv"

	"github.com/bnmf-lab/bnmf/bnmf"
)

// The scale the models' default hyperparameters assume: ratings of about
// 1 to 5, such as MovieLens (mean 3.5, variance 1.3), for which the paper
// chose them. The bounds leave a factor of about 3 above and 7 below
// MovieLens's mean, and of 10 to 15 either way of its variance, so that
// any rating scale up to 1-10 passes and data in other units (counts,
// prices, scores out of 100) does not.
const (
	ScaleMeanMin, ScaleMeanMax         = 0.5, 10
	ScaleVarianceMin, ScaleVarianceMax = 0.1, 20
)

// ScaleWarning returns a warning when data whose observed values have the
// given mean and (population) variance lies far from the scale the
// models' default hyperparameters assume: a mean outside [ScaleMeanMin,
// ScaleMeanMax] or a variance outside [ScaleVarianceMin,
// ScaleVarianceMax]. It returns "" for data within both ranges. Prepare
// records the warning in the manifest, bnmf run prints it, and reports
// show it; data of mean 43 and variance 1907 warns, MovieLens does not.
func ScaleWarning(mean, variance float64) string {
	inside := func(x, lo, hi float64) bool { return x >= lo && x <= hi }
	if inside(mean, ScaleMeanMin, ScaleMeanMax) && inside(variance, ScaleVarianceMin, ScaleVarianceMax) {
		return ""
	}
	return fmt.Sprintf("the data's values have mean %s and variance %s, far from the scale the models' default hyperparameters assume "+
		"(ratings of about 1 to 5: mean within [%s, %s], variance within [%s, %s]); "+
		"priors set for that scale can dominate the fit or leave the samplers poorly mixed, so the results may reflect the priors more than the data. "+
		"Set standardize: true in the config to fit the values divided by their standard deviation (every number is reported back in the data's units), or set hyperparameters suited to their scale.",
		fmtScale(mean), fmtScale(variance), fmtScale(ScaleMeanMin), fmtScale(ScaleMeanMax), fmtScale(ScaleVarianceMin), fmtScale(ScaleVarianceMax))
}

// fmtScale formats a mean or variance for a warning: three significant
// digits (43.2, 0.0123), and a whole number with thousands separators
// from 1000 on (1,907).
func fmtScale(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) || math.Abs(x) < 1000 || math.Abs(x) >= 1e15 {
		return strconv.FormatFloat(x, 'g', 3, 64)
	}
	s := strconv.FormatFloat(math.Abs(x), 'f', 0, 64)
	out := make([]byte, 0, len(s)+len(s)/3+1)
	if x < 0 {
		out = append(out, '-')
	}
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	return string(out)
}

// moments returns the mean and the population variance of the values of
// entries, both 0 for none.
func moments(entries []bnmf.Entry) (mean, variance float64) {
	if len(entries) == 0 {
		return 0, 0
	}
	for _, e := range entries {
		mean += e.Value
	}
	mean /= float64(len(entries))
	for _, e := range entries {
		d := e.Value - mean
		variance += d * d
	}
	return mean, variance / float64(len(entries))
}
