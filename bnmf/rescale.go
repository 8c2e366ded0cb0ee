package bnmf

import "math"

// UnitScale returns the scale s that gives the observed training values
// unit variance when divided by it: their population standard deviation
// (0 for fewer than two distinct values). Fitting A/s and mapping the
// result back with Result.Rescale(s) is the opt-in standardisation of
// studies and of fit: the default hyperparameters (sigma^2 ~ IG(1, 1),
// tau = 0.1, GEE's lambda = 0.1) suit values of about unit spread, and
// data in the thousands or thousandths would make them strongly
// informative. The values are not centred, so they stay nonnegative.
func UnitScale(train *Matrix) float64 { return math.Sqrt(train.Variance()) }

// Rescale maps a result fitted to values divided by s back to the
// values' own units: predictions, their interval ends and widths and the
// CRPS are multiplied by s; squared errors, variances and sigma^2 by s^2;
// W by s (Z keeps its scale); log-likelihoods and log densities shift by
// -log s per value. Coverage and PIT do not change. s must be positive.
func (r *Result) Rescale(s float64) {
	if s == 1 {
		return
	}
	s2, logS := s*s, math.Log(s)
	scale := func(xs []float64, f float64) {
		for i := range xs {
			xs[i] *= f
		}
	}
	n := 0
	if len(r.Trace) > 0 {
		n = r.trainLen
	}
	for i := range r.Trace {
		st := &r.Trace[i]
		st.TrainMSE *= s2
		st.TestMSE *= s2
		st.Sigma2 *= s2
		st.LogLikelihood -= float64(n) * logS
	}
	r.TrainMSE *= s2
	r.Sigma2Mean *= s2
	r.TestMSE *= s2
	r.TestMSEOfMeans *= s2
	scale(r.PredictiveMean, s)
	scale(r.PredictiveVariance, s2)
	scale(r.PosteriorMeanProduct, s)
	for _, row := range r.Tracked {
		scale(row, s)
	}
	if r.MeanW != nil {
		r.MeanW.Scale(s, r.MeanW)
	}
	if r.Offsets != nil {
		r.Offsets.rescale(s)
	}
	if sc := r.Scores; sc != nil {
		scale(sc.Mean, s)
		scale(sc.Variance, s2)
		for l := range sc.Lower {
			scale(sc.Lower[l], s)
			scale(sc.Upper[l], s)
		}
		scale(sc.MeanWidth, s)
		for t := range sc.Scores {
			set := &sc.Scores[t]
			for i := range set.LogDensity {
				set.LogDensity[i] -= logS
			}
			set.MeanLogDensity -= logS
			scale(set.CRPS, s)
			set.MeanCRPS *= s
		}
	}
}

// Rescale maps every chain's result and the pooled one back to the
// values' units; see Result.Rescale. The pooled result of one chain is
// that chain's, rescaled once.
func (c *Chains) Rescale(s float64) {
	for _, r := range c.Results {
		r.Rescale(s)
	}
	if len(c.Results) > 1 {
		c.Pooled.Rescale(s)
	}
}
