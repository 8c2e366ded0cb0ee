package experiments

import (
	"github.com/bnmf-lab/bnmf/bnmf"
	"github.com/bnmf-lab/bnmf/internal/scalecheck"
)

// The scale the models' default hyperparameters assume (see
// ScaleWarning).
const (
	ScaleMeanMin, ScaleMeanMax         = scalecheck.MeanMin, scalecheck.MeanMax
	ScaleVarianceMin, ScaleVarianceMax = scalecheck.VarianceMin, scalecheck.VarianceMax
)

// ScaleWarning returns a warning when data whose observed values have the
// given mean and (population) variance lies far from the scale the
// models' default hyperparameters assume: a mean outside [ScaleMeanMin,
// ScaleMeanMax] or a variance outside [ScaleVarianceMin,
// ScaleVarianceMax]. It returns "" for data within both ranges. Prepare
// records the warning in the manifest, bnmf run prints it, and reports
// show it; data of mean 43 and variance 1907 warns, MovieLens does not.
func ScaleWarning(mean, variance float64) string { return scalecheck.Warning(mean, variance) }

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
