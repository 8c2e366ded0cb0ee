// Package scalecheck tells whether data lie on the scale the models'
// default hyperparameters assume, for the harness's manifests and reports
// and for bnmf fit.
package scalecheck

import (
	"fmt"
	"math"
	"strconv"
)

// The scale the models' default hyperparameters assume: ratings of about
// 1 to 5, such as MovieLens (mean 3.5, variance 1.3), for which the paper
// chose them. The bounds leave a factor of about 3 above and 7 below
// MovieLens's mean, and of 10 to 15 either way of its variance, so that
// any rating scale up to 1-10 passes and data in other units (counts,
// prices, scores out of 100) does not.
const (
	MeanMin, MeanMax         = 0.5, 10
	VarianceMin, VarianceMax = 0.1, 20
)

// Warning returns a warning when data whose observed values have the
// given mean and (population) variance lies far from the scale the
// models' default hyperparameters assume: a mean outside [MeanMin,
// MeanMax] or a variance outside [VarianceMin, VarianceMax]. It returns
// "" for data within both ranges. Data of mean 43 and variance 1907
// warns, MovieLens does not.
func Warning(mean, variance float64) string {
	inside := func(x, lo, hi float64) bool { return x >= lo && x <= hi }
	if inside(mean, MeanMin, MeanMax) && inside(variance, VarianceMin, VarianceMax) {
		return ""
	}
	return fmt.Sprintf("the data's values have mean %s and variance %s, far from the scale the models' default hyperparameters assume "+
		"(ratings of about 1 to 5: mean within [%s, %s], variance within [%s, %s]); "+
		"priors set for that scale can dominate the fit or leave the samplers poorly mixed, so the results may reflect the priors more than the data. "+
		"Set standardize: true in the config to fit the values divided by their standard deviation (every number is reported back in the data's units), or set hyperparameters suited to their scale.",
		fmtScale(mean), fmtScale(variance), fmtScale(MeanMin), fmtScale(MeanMax), fmtScale(VarianceMin), fmtScale(VarianceMax))
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
