package predictive

import (
	"math"

	"gonum.org/v1/gonum/mathext"
)

// PoissonMixture is a finite mixture of Poisson distributions,
//
//	P(X = x) = sum_s w_s Poi(x | Rate[s]),  x = 0, 1, 2, ...
//
// the posterior predictive distribution of one count given posterior
// samples s with rates Rate[s]. Its methods compute every quantity directly
// from all components, summing probability masses from x = 0; they are
// the reference for an Accumulator with Family Poisson.
//
// The methods panic if Rate is empty or Weight differs from it in length
// (Weight may be nil); the rates must be nonnegative and finite (a rate of
// 0 is the point mass at 0) and the weights nonnegative with sum 1.
type PoissonMixture struct {
	// Rate are the components' rates (their means).
	Rate []float64
	// Weight are the component weights; nil means 1/len(Rate) each.
	Weight []float64
}

func (m PoissonMixture) check() {
	if len(m.Rate) == 0 || (m.Weight != nil && len(m.Weight) != len(m.Rate)) {
		panic("predictive: PoissonMixture needs Rate (and Weight, if set) of one nonzero length")
	}
}

func (m PoissonMixture) weight(s int) float64 {
	if m.Weight == nil {
		return 1 / float64(len(m.Rate))
	}
	return m.Weight[s]
}

// poissonLogPMF returns log Poi(x | r) for x >= 0, given lgx = log(x!).
func poissonLogPMF(x int, r, lgx float64) float64 {
	if r == 0 {
		if x == 0 {
			return 0
		}
		return math.Inf(-1)
	}
	return float64(x)*math.Log(r) - r - lgx
}

// logFactorial returns log(x!).
func logFactorial(x int) float64 {
	v, _ := math.Lgamma(float64(x) + 1)
	return v
}

// Prob returns P(X = x): 0 for x < 0.
func (m PoissonMixture) Prob(x int) float64 {
	m.check()
	if x < 0 {
		return 0
	}
	lg := logFactorial(x)
	var p float64
	for s, r := range m.Rate {
		p += m.weight(s) * math.Exp(poissonLogPMF(x, r, lg))
	}
	return p
}

// LogProb returns log P(X = x) by log-sum-exp over the components, finite
// whenever some component gives x a mass above 0 in exact arithmetic and
// the logarithms are representable; -Inf for x < 0.
func (m PoissonMixture) LogProb(x int) float64 {
	m.check()
	if x < 0 {
		return math.Inf(-1)
	}
	lg := logFactorial(x)
	lmax := math.Inf(-1)
	for s, r := range m.Rate {
		lmax = math.Max(lmax, math.Log(m.weight(s))+poissonLogPMF(x, r, lg))
	}
	if math.IsInf(lmax, -1) {
		return lmax
	}
	var sum float64
	for s, r := range m.Rate {
		sum += math.Exp(math.Log(m.weight(s)) + poissonLogPMF(x, r, lg) - lmax)
	}
	return lmax + math.Log(sum)
}

// CDF returns P(X <= x), the sum of the masses of 0, ..., x (0 for x < 0).
// At an observed count y, CDF(y) and CDF(y-1) bound the randomised PIT.
func (m PoissonMixture) CDF(x int) float64 {
	m.check()
	var f float64
	for v := 0; v <= x; v++ {
		f += m.Prob(v)
	}
	return f
}

// Mean returns sum_s w_s Rate[s].
func (m PoissonMixture) Mean() float64 {
	m.check()
	var mean float64
	for s, r := range m.Rate {
		mean += m.weight(s) * r
	}
	return mean
}

// Variance returns sum_s w_s (Rate[s] + (Rate[s] - mean)^2): the law of
// total variance with each component's variance equal to its rate.
func (m PoissonMixture) Variance() float64 {
	mean := m.Mean()
	var v float64
	for s, r := range m.Rate {
		d := r - mean
		v += m.weight(s) * (r + d*d)
	}
	return v
}

// Quantile returns the p-quantile for 0 < p < 1: the smallest x with
// CDF(x) >= p. It panics if p is not in (0, 1).
func (m PoissonMixture) Quantile(p float64) int {
	m.check()
	if !(p > 0 && p < 1) {
		panic("predictive: quantile level outside (0, 1)")
	}
	var f float64
	for x := 0; ; x++ {
		f += m.Prob(x)
		if f >= p {
			return x
		}
	}
}

// Interval returns the central interval at level a (0 < a < 1): the
// quantiles at (1-a)/2 and (1+a)/2. An observed count y lies in it exactly
// when CDF(y) >= (1-a)/2 and CDF(y-1) < (1+a)/2. Its probability is at
// least a.
func (m PoissonMixture) Interval(a float64) (lo, hi int) {
	checkLevel(a)
	return m.Quantile((1 - a) / 2), m.Quantile((1 + a) / 2)
}

// CRPS returns the continuous ranked probability score at the observed
// count y, the integral of (F(x) - 1{x >= y})^2 over the real line: F is a
// step function with steps at the integers, so it is the sum over
// integers x >= 0 of (CDF(x) - 1{x >= y})^2. The sum runs until x >= y, x
// is above every rate and P(X = x) is below 1e-20: the masses decrease
// geometrically from there, and the terms left sum to less than the
// rounding error.
func (m PoissonMixture) CRPS(y int) float64 {
	m.check()
	_, rMax := extremes(m.Rate)
	var crps, f float64
	for x := 0; ; x++ {
		p := m.Prob(x)
		f += p
		if x < y {
			crps += f * f
			continue
		}
		u := 1 - f
		crps += u * u
		if float64(x) > rMax && p < 1e-20 {
			return crps
		}
	}
}

// poissonBelow returns P(X <= y - 1) for X ~ Poi(r), r >= 0 and y >= 0:
// for y <= 32 the sum e^-r sum_(x<y) r^x/x! of positive terms, otherwise
// the regularised upper incomplete gamma function Q(y, r)
// (mathext.GammaIncRegComp).
func poissonBelow(y int, r float64) float64 {
	switch {
	case y <= 0:
		return 0
	case r == 0:
		return 1
	case y <= 32:
		term, sum := math.Exp(-r), 0.0
		for x := range y {
			sum += term
			term *= r / float64(x+1)
		}
		return math.Min(sum, 1)
	}
	return mathext.GammaIncRegComp(float64(y), r)
}

// poissonAbsDev returns E|X - y| for X ~ Poi(r), given F1 = P(X <= y-1)
// and the mass p = P(X = y): since x Poi(x | r) = r Poi(x-1 | r),
// E[(y - X)+] = y P(X <= y-1) - r P(X <= y-2), and E|X - y| = r - y +
// 2 E[(y - X)+], where P(X <= y-2) = F1 - P(X = y-1) and P(X = y-1) =
// p y / r.
func poissonAbsDev(y int, r, f1, p float64) float64 {
	if r == 0 {
		return float64(y)
	}
	fy := float64(y)
	f2 := f1 - p*fy/r
	return r - fy + 2*(fy*f1-r*f2)
}
