package predictive

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// Mixture is a finite mixture of normal distributions,
//
//	p(x) = sum_s w_s N(x | Mu[s], Sigma2[s]),
//
// the posterior predictive distribution of one entry given posterior
// samples s with predictions Mu[s] and noise variances Sigma2[s]. Its
// methods compute every quantity directly from all components with
// math.Erfc and math.Exp; they are the reference for Accumulator, which
// computes the same quantities for many entries at once, streaming.
//
// The methods panic if Mu is empty or Sigma2 or Weight differ from Mu in
// length (Weight may be nil); Sigma2 must be positive and the weights
// nonnegative with sum 1.
type Mixture struct {
	// Mu are the component means.
	Mu []float64
	// Sigma2 are the component variances (not standard deviations).
	Sigma2 []float64
	// Weight are the component weights; nil means 1/len(Mu) each.
	Weight []float64
}

// check panics on inconsistent lengths.
func (m Mixture) check() {
	if len(m.Mu) == 0 || len(m.Sigma2) != len(m.Mu) || (m.Weight != nil && len(m.Weight) != len(m.Mu)) {
		panic("predictive: Mixture needs Mu, Sigma2 (and Weight, if set) of one nonzero length")
	}
}

// weight returns the weight of component s.
func (m Mixture) weight(s int) float64 {
	if m.Weight == nil {
		return 1 / float64(len(m.Mu))
	}
	return m.Weight[s]
}

// CDF returns the mixture's CDF at x, sum_s w_s Phi((x - Mu[s])/sd_s). At
// an observed value y this is the probability integral transform (PIT).
func (m Mixture) CDF(x float64) float64 {
	m.check()
	var f float64
	for s, mu := range m.Mu {
		f += m.weight(s) * normCDF((x-mu)/math.Sqrt(m.Sigma2[s]))
	}
	return f
}

// Prob returns the mixture's density at x.
func (m Mixture) Prob(x float64) float64 {
	m.check()
	var f float64
	for s, mu := range m.Mu {
		sd := math.Sqrt(m.Sigma2[s])
		f += m.weight(s) * normPDF((x-mu)/sd) / sd
	}
	return f
}

// cdfPDF implements cdfEvaluator.
func (m Mixture) cdfPDF(x float64) (cdf, pdf, dpdf float64) {
	for s, mu := range m.Mu {
		sd := math.Sqrt(m.Sigma2[s])
		z := (x - mu) / sd
		w, phi := m.weight(s), normPDF(z)
		cdf += w * normCDF(z)
		pdf += w * phi / sd
		dpdf -= w * z * phi / (sd * sd)
	}
	return cdf, pdf, dpdf
}

// LogProb returns the log density at x, log sum_s w_s N(x | Mu[s],
// Sigma2[s]), by log-sum-exp: with l_s = log w_s + log N(x | Mu[s],
// Sigma2[s]) and M = max_s l_s, it is M + log sum_s exp(l_s - M). It is
// finite whenever some |x - Mu[s]|/sd_s is below about 1e154.
func (m Mixture) LogProb(x float64) float64 {
	m.check()
	lmax := math.Inf(-1)
	for s, mu := range m.Mu {
		lmax = math.Max(lmax, m.logTerm(s, x, mu))
	}
	if math.IsInf(lmax, -1) {
		return lmax
	}
	var sum float64
	for s, mu := range m.Mu {
		sum += math.Exp(m.logTerm(s, x, mu) - lmax)
	}
	return lmax + math.Log(sum)
}

// logTerm is log w_s + log N(x | mu, Sigma2[s]).
func (m Mixture) logTerm(s int, x, mu float64) float64 {
	z := (x - mu) / math.Sqrt(m.Sigma2[s])
	return math.Log(m.weight(s)) - 0.5*z*z - 0.5*math.Log(m.Sigma2[s]) - logSqrt2Pi
}

// Mean returns the mixture's mean, sum_s w_s Mu[s].
func (m Mixture) Mean() float64 {
	return mixtureMoments(m.Weight, m.Mu, m.Sigma2).mean
}

// Variance returns the mixture's variance, sum_s w_s (Sigma2[s] +
// (Mu[s] - mean)^2): the law of total variance.
func (m Mixture) Variance() float64 {
	return mixtureMoments(m.Weight, m.Mu, m.Sigma2).variance
}

// Quantile returns the p-quantile of the mixture for 0 < p < 1: the root
// of CDF(x) = p, found by Newton's method safeguarded by bisection within a
// bracket that holds every component's p-quantile, starting from the
// Cornish-Fisher approximation from the mixture's first four moments. tol
// is relative to the mixture's standard deviation sd (zero means
// DefaultTol): the search stops when the error left after a Newton step
// delta is below tol sd (|delta| <= tol sd, or |delta| <= sqrt(tol) sd and
// Newton's error term |f'/(2f)| delta^2 <= tol sd), or when the bracket is
// at most tol sd wide. It panics if p is not in (0, 1).
func (m Mixture) Quantile(p, tol float64) float64 {
	m.check()
	if !(p > 0 && p < 1) {
		panic("predictive: quantile level outside (0, 1)")
	}
	if tol == 0 {
		tol = DefaultTol
	}
	z := distuv.UnitNormal.Quantile(p)
	muMin, muMax := extremes(m.Mu)
	v0, v1 := extremes(m.Sigma2)
	lo, hi := quantileBracket(muMin, muMax, math.Sqrt(v0), math.Sqrt(v1), z)
	mo := mixtureMoments(m.Weight, m.Mu, m.Sigma2)
	x, _ := solveQuantile(m, p, cornishFisher(mo, z), lo, hi, math.Sqrt(mo.variance), tol)
	return x
}

// Interval returns the central predictive interval at level a (0 < a < 1):
// the quantiles at (1-a)/2 and (1+a)/2, each found by Quantile with the
// given tol. An observed y lies in it exactly when CDF(y) lies in
// [(1-a)/2, (1+a)/2].
func (m Mixture) Interval(a, tol float64) (lo, hi float64) {
	checkLevel(a)
	return m.Quantile((1-a)/2, tol), m.Quantile((1+a)/2, tol)
}

// GaussianInterval returns the central interval at level a of the normal
// distribution with the mixture's mean and variance, mean -/+ z sd with z
// the standard normal (1+a)/2-quantile. It is a moment-matched
// approximation, not the mixture's own interval (see Interval); it is
// close to it when the components overlap and too wide or too narrow
// otherwise.
func (m Mixture) GaussianInterval(a float64) (lo, hi float64) {
	checkLevel(a)
	mo := mixtureMoments(m.Weight, m.Mu, m.Sigma2)
	return gaussianInterval(mo.mean, mo.variance, a)
}

// gaussianInterval is mean -/+ z_((1+a)/2) sqrt(variance).
func gaussianInterval(mean, variance, a float64) (lo, hi float64) {
	h := distuv.UnitNormal.Quantile((1+a)/2) * math.Sqrt(variance)
	return mean - h, mean + h
}

// MaxLevel is the largest interval level CheckLevel accepts, 1 - 2^-52:
// for the one float64 between it and 1, (1+a)/2 rounds to 1.
const MaxLevel = 1 - 0x1p-52

// CheckLevel returns an error unless a is an interval level that
// Interval, GaussianInterval and Settings.Levels accept: in (0, 1), and
// such that both ends' probabilities, (1-a)/2 and (1+a)/2, lie strictly
// inside (0, 1) in float64 arithmetic. That leaves out only the largest
// float64 below 1, for which (1+a)/2 rounds to 1 (an infinite quantile);
// MaxLevel is the largest level accepted.
func CheckLevel(a float64) error {
	switch {
	case !(a > 0 && a < 1):
		return fmt.Errorf("level %v must be in (0, 1)", a)
	case !((1+a)/2 < 1 && (1-a)/2 > 0):
		return fmt.Errorf("level %v is too close to 1: the upper end's probability (1+level)/2 rounds to 1 in float64, where the quantile is infinite; the largest level is %v", a, MaxLevel)
	}
	return nil
}

// checkLevel panics if CheckLevel refuses a.
func checkLevel(a float64) {
	if err := CheckLevel(a); err != nil {
		panic("predictive: interval " + err.Error())
	}
}

// CRPS returns the continuous ranked probability score of the mixture at
// the observed y, integral (F(x) - 1{x >= y})^2 dx, in the closed form of
// Grimit, Gneiting, Berrocal and Johnson (2006, QJRMS 132, Eq. 5):
//
//	CRPS = sum_s w_s A(y - Mu[s], Sigma2[s])
//	       - 1/2 sum_s sum_t w_s w_t A(Mu[s] - Mu[t], Sigma2[s] + Sigma2[t]),
//
// with A(m, v) = 2 sqrt(v) phi(m/sqrt v) + m (2 Phi(m/sqrt v) - 1) = E|X|
// for X ~ N(m, v). The double sum costs O(S^2) for S components.
func (m Mixture) CRPS(y float64) float64 {
	m.check()
	var first, pair float64
	for s, mu := range m.Mu {
		sd := math.Sqrt(m.Sigma2[s])
		first += m.weight(s) * sd * crpsKernel((y-mu)/sd)
	}
	for s, mu := range m.Mu {
		var row float64
		for t, nu := range m.Mu {
			sd := math.Sqrt(m.Sigma2[s] + m.Sigma2[t])
			row += m.weight(t) * sd * crpsKernel((mu-nu)/sd)
		}
		pair += m.weight(s) * row
	}
	return first - 0.5*pair
}
