package predictive

import "math"

// DefaultTol is the quantile tolerance used when Settings.Tol or the tol
// argument of Mixture.Quantile is zero.
const DefaultTol = 1e-6

// maxIterations bounds the root-finder's evaluations of the CDF. Bisection
// alone shrinks a bracket of width 1e300 below 1e-300 times its start in
// about 2000 halvings; a bracket from normal components is at most a few
// hundred standard deviations wide, so 200 is never reached in practice.
const maxIterations = 200

// cdfEvaluator is a mixture whose CDF and density can be evaluated.
type cdfEvaluator interface {
	// cdfPDF returns the mixture's CDF F(x), density f(x) and the
	// density's derivative f'(x).
	cdfPDF(x float64) (cdf, pdf, dpdf float64)
}

// moments are the mean, variance, skewness and excess kurtosis of a normal
// mixture with weights w, means mu and variances v:
//
//	mean = sum w mu,  d = mu - mean,
//	var  = sum w (v + d^2),
//	m3   = sum w (d^3 + 3 d v),
//	m4   = sum w (d^4 + 6 d^2 v + 3 v^2),
//
// skewness m3/var^(3/2), excess kurtosis m4/var^2 - 3.
type moments struct {
	mean, variance, skewness, kurtosis float64
}

// mixtureMoments computes the moments of the mixture with weights w
// (nil for equal weights), means mu and variances v.
func mixtureMoments(w, mu, v []float64) moments {
	equal := 1 / float64(len(mu))
	weight := func(i int) float64 {
		if w == nil {
			return equal
		}
		return w[i]
	}
	var mean float64
	for i, m := range mu {
		mean += weight(i) * m
	}
	var m2, m3, m4 float64
	for i, m := range mu {
		d, vi, wi := m-mean, v[i], weight(i)
		d2 := d * d
		m2 += wi * (vi + d2)
		m3 += wi * d * (d2 + 3*vi)
		m4 += wi * (d2*d2 + 6*d2*vi + 3*vi*vi)
	}
	return moments{
		mean:     mean,
		variance: m2,
		skewness: m3 / (m2 * math.Sqrt(m2)),
		kurtosis: m4/(m2*m2) - 3,
	}
}

// cornishFisher returns the Cornish-Fisher approximation of the p-quantile
// of a distribution with moments mo, where z is the standard normal
// p-quantile: mean + sd (z + (z^2-1) g1/6 + (z^3-3z) g2/24 - (2z^3-5z)
// g1^2/36) with g1 the skewness and g2 the excess kurtosis. It is only the
// root-finder's starting point.
func cornishFisher(mo moments, z float64) float64 {
	g1, g2 := mo.skewness, mo.kurtosis
	z2 := z * z
	w := z + (z2-1)*g1/6 + z*(z2-3)*g2/24 - z*(2*z2-5)*g1*g1/36
	return mo.mean + math.Sqrt(mo.variance)*w
}

// solveQuantile returns x with F(x) = p for the mixture m, given a bracket
// lo <= x* <= hi (F(lo) <= p <= F(hi)) and a starting point x0; sd is the
// mixture's standard deviation and tol the tolerance relative to it. It
// takes Newton steps x - (F(x) - p)/f(x), shrinks the bracket with the sign
// of F(x) - p at every evaluation, and bisects whenever a step would leave
// the bracket or the density is zero. It returns the point after a Newton
// step delta once the error left after that step is below tol sd: when
// |delta| <= tol sd, or when |delta| <= sqrt(tol) sd and |f'/(2f)| delta^2
// <= tol sd, the leading term of Newton's error after the step (the next
// term, of order delta^3/sd^2, is below tol^(3/2) sd there). When the
// bracket is narrower than tol sd it returns its middle. It also returns
// the number of evaluations.
func solveQuantile(m cdfEvaluator, p, x0, lo, hi, sd, tol float64) (x float64, evals int) {
	if !(hi > lo) {
		return lo, 0
	}
	absTol, maxStep := tol*sd, math.Sqrt(tol)*sd
	x = math.Min(math.Max(x0, lo), hi)
	for evals < maxIterations {
		cdf, pdf, dpdf := m.cdfPDF(x)
		evals++
		g := cdf - p
		switch {
		case g == 0:
			return x, evals
		case g < 0:
			lo = x
		default:
			hi = x
		}
		if pdf > 0 {
			step := g / pdf
			next := x - step
			if next >= lo && next <= hi {
				size := math.Abs(step)
				if size <= absTol || (size <= maxStep && math.Abs(dpdf/(2*pdf))*step*step <= absTol) {
					return next, evals
				}
				if next > lo && next < hi && hi-lo > absTol {
					x = next
					continue
				}
			}
		}
		if hi-lo <= absTol {
			return lo + 0.5*(hi-lo), evals
		}
		x = lo + 0.5*(hi-lo)
	}
	return x, evals
}

// quantileBracket returns lo and hi with every component's CDF at most
// p = Phi(z) at lo and at least p at hi, so that the mixture's p-quantile
// lies between them, from the components' smallest and largest means and
// standard deviations: for z < 0, mu_i + sd_i z >= muMin + sdMax z, and so
// on.
func quantileBracket(muMin, muMax, sdMin, sdMax, z float64) (lo, hi float64) {
	if z < 0 {
		return muMin + sdMax*z, muMax + sdMin*z
	}
	return muMin + sdMin*z, muMax + sdMax*z
}

// extremes returns the smallest and largest of xs.
func extremes(xs []float64) (lo, hi float64) {
	lo, hi = xs[0], xs[0]
	for _, x := range xs[1:] {
		if x < lo {
			lo = x
		}
		if x > hi {
			hi = x
		}
	}
	return lo, hi
}
