package bnmf

import (
	"math"
	"math/rand/v2"
)

// tnTailStart is the standardized lower bound alpha from which
// truncNormalNat switches from half-normal rejection to Robert's exponential
// rejection. Half-normal rejection accepts with probability 2(1-Phi(alpha))
// at the cost of one normal variate per try; Robert's sampler accepts with
// probability at least 0.76 at the cost of two exponential variates per try
// and one square root per call. Benchmarks put the break-even between 0.5
// and 0.6.
const tnTailStart = 0.6

// truncNormalNat draws x >= 0 from the density proportional to
// exp(-prec*x*x/2 + lin*x) on [0, inf): the normal N(lin/prec, 1/prec)
// truncated to [0, inf), in natural parameters so that prec == 0 is allowed.
// prec must be >= 0 and finite; with prec == 0 the density is exponential
// with rate -lin and requires lin < 0. On invalid input it returns NaN (the
// caller turns a NaN into an error naming where it happened); it never
// returns Inf: a draw beyond the largest float64, possible only when the
// distribution itself sits there, is returned as NaN too.
//
// With alpha = -lin/sqrt(prec) the standardized lower bound, it uses plain
// normal rejection for alpha < 0, half-normal rejection for
// 0 <= alpha < tnTailStart and Robert's exponential rejection beyond. It does
// not allocate and takes one square root per call.
func truncNormalNat(rng *rand.Rand, lin, prec float64) float64 {
	if !(prec >= 0 && prec <= math.MaxFloat64) || math.IsNaN(lin) || math.IsInf(lin, 0) {
		return math.NaN()
	}
	if lin < 0 {
		// alpha^2 = lin^2/prec without forming lin^2, which could overflow
		// or underflow; +Inf when prec == 0.
		alpha2 := lin / prec * lin
		if alpha2 >= tnTailStart*tnTailStart {
			return truncNormalTail(rng, lin, prec, alpha2)
		}
	} else if prec == 0 {
		return math.NaN() // improper density: exponential with rate <= 0.
	}

	s := math.Sqrt(prec)
	alpha := -lin / s // -Inf when lin/s overflows; x below is then NaN.
	var z float64
	if alpha < 0 {
		// Normal rejection: accepts with probability 1-Phi(alpha) > 1/2.
		for {
			z = rng.NormFloat64()
			if z >= alpha {
				break
			}
		}
	} else {
		// Half-normal rejection: accepts with probability
		// 2(1-Phi(alpha)) > 2(1-Phi(tnTailStart)) > 0.54, and always at 0.
		for {
			z = math.Abs(rng.NormFloat64())
			if z >= alpha {
				break
			}
		}
	}
	// x = mean + z*sd = (z - alpha)/s; z >= alpha makes the difference >= 0
	// after rounding as well.
	x := (z - alpha) / s
	if x > math.MaxFloat64 {
		return math.NaN()
	}
	return x
}

// truncNormalTail samples truncNormalNat's density for lin < 0 and
// alpha^2 = lin^2/prec >= tnTailStart^2, including prec == 0.
//
// It implements Robert (1995), "Simulation of truncated normal variables",
// Statistics and Computing 5:121-125 (one-sided case): propose the excess
// y = z - alpha over the standardized bound from Exp(lambda) with the
// optimal rate lambda = (alpha + sqrt(alpha^2+4))/2 and accept with
// probability exp(-(y - (lambda-alpha))^2/2). The work is done in the scale
// of x = y/sqrt(prec) with rate r = sqrt(prec)*lambda, which needs no
// square root of prec, never forms mean + sd*alpha (so nothing cancels) and
// stays finite as prec -> 0, where r -> -lin and the sampler becomes the
// exact exponential draw. Writing t2 = 1/alpha^2:
//
//	lambda/alpha = h = (1 + sqrt(1 + 4*t2))/2,  r = -lin*h,
//	lambda - alpha = 1/lambda, so the offset in x units is m = 1/r,
//	accept x = e1*m iff 2*e2 >= prec*(x - m)^2 = prec*m^2*(e1 - 1)^2,
//
// with e1, e2 independent Exp(1) variates (2*e2 >= q is the test
// u <= exp(-q/2) for u = exp(-e2), without a logarithm). The acceptance
// probability, lambda exp(lambda*alpha - lambda^2/2) sqrt(2 pi)
// (1-Phi(alpha)), grows with alpha from 0.76 at alpha = 0 towards 1; it is
// above 0.84 for alpha >= tnTailStart.
func truncNormalTail(rng *rand.Rand, lin, prec, alpha2 float64) float64 {
	t2 := 1 / alpha2 // in [0, 1/tnTailStart^2]
	h := 0.5 + 0.5*math.Sqrt(1+4*t2)
	m := 1 / h / -lin // not 1/(-lin*h), whose product can overflow
	c := prec * m * m // 1/lambda^2; 0 when prec == 0.
	for {
		e1 := rng.ExpFloat64()
		d := e1 - 1
		if 2*rng.ExpFloat64() >= c*d*d {
			x := e1 * m
			if x > math.MaxFloat64 || math.IsNaN(x) {
				// Only when 1/-lin overflows: prec == 0 and a
				// subnormal rate.
				return math.NaN()
			}
			return x
		}
	}
}

// TruncatedNormal is the normal distribution N(Mu, Sigma^2) truncated to
// [0, inf) and renormalised, the paper's TN(x | Mu, Sigma^2) with "parent
// mean" Mu and "parent variance" Sigma^2 (the paper's subsection
// "Probability Distributions").
//
// Methods return NaN when the parameters are invalid. Rand panics with a
// "bnmf: ..." message when Src is nil: a source must always be given.
type TruncatedNormal struct {
	// Mu is the mean of the parent normal; any finite value.
	Mu float64
	// Sigma is the standard deviation (a scale) of the parent normal;
	// finite and > 0.
	Sigma float64
	// Src is the source of random numbers for Rand.
	Src rand.Source
}

// valid reports whether the parameters describe a distribution.
func (t TruncatedNormal) valid() bool {
	return !math.IsNaN(t.Mu) && !math.IsInf(t.Mu, 0) && t.Sigma > 0 && t.Sigma <= math.MaxFloat64
}

// alpha returns the standardized lower bound -Mu/Sigma.
func (t TruncatedNormal) alpha() float64 { return -t.Mu / t.Sigma }

// Rand returns a random sample drawn from the distribution, using Src. It
// panics if Src is nil.
func (t TruncatedNormal) Rand() float64 {
	if t.Src == nil {
		panic("bnmf: TruncatedNormal.Rand: nil Src")
	}
	if !t.valid() {
		return math.NaN()
	}
	// Draw the standardized excess Z - alpha >= 0 with precision 1 and
	// scale it, which keeps Mu/Sigma^2 from overflowing.
	return t.Sigma * truncNormalNat(rand.New(t.Src), t.Mu/t.Sigma, 1)
}

// LogProb returns the log of the probability density at x (-Inf for x < 0).
// It stays accurate deep in the tail, where 1-Phi(alpha) underflows.
func (t TruncatedNormal) LogProb(x float64) float64 {
	if !t.valid() || math.IsNaN(x) {
		return math.NaN()
	}
	if x < 0 {
		return math.Inf(-1)
	}
	a := t.alpha()
	if a <= 0 {
		// 1-Phi(a) is in [1/2, 1]: the textbook form is accurate.
		z := (x - t.Mu) / t.Sigma
		q := 0.5 * math.Erfc(a/math.Sqrt2)
		return -z*z/2 - 0.5*math.Log(2*math.Pi) - math.Log(q) - math.Log(t.Sigma)
	}
	// log phi(z) - log(1-Phi(a)) = -(z^2-a^2)/2 + log h(a) with h the
	// inverse Mills ratio and z^2-a^2 = y(y+2a), y = x/Sigma.
	y := x / t.Sigma
	h, _, _ := stdTruncMoments(a)
	return -y*(y+2*a)/2 + math.Log(h) - math.Log(t.Sigma)
}

// Prob returns the probability density at x (0 for x < 0).
func (t TruncatedNormal) Prob(x float64) float64 { return math.Exp(t.LogProb(x)) }

// CDF returns the probability that a draw is at most x.
func (t TruncatedNormal) CDF(x float64) float64 {
	if !t.valid() || math.IsNaN(x) {
		return math.NaN()
	}
	if x <= 0 {
		return 0
	}
	if math.IsInf(x, 1) {
		return 1
	}
	a := t.alpha()
	z := (x - t.Mu) / t.Sigma
	if a <= 0 {
		// (Phi(z) - Phi(a)) / (1 - Phi(a)), taking the difference of
		// lower tails while z <= 0 so that small probabilities keep their
		// relative accuracy; the denominator is in [1/2, 1].
		qa := 0.5 * math.Erfc(a/math.Sqrt2)
		if z <= 0 {
			return 0.5 * (math.Erfc(-z/math.Sqrt2) - math.Erfc(-a/math.Sqrt2)) / qa
		}
		return (qa - 0.5*math.Erfc(z/math.Sqrt2)) / qa
	}
	// 1 - Q(z)/Q(a) with Q(u) = phi(u)/h(u), as one expm1 so that small
	// probabilities keep their relative accuracy.
	y := x / t.Sigma
	ha, _, _ := stdTruncMoments(a)
	hz, _, _ := stdTruncMoments(z)
	return -math.Expm1(-y*(y+2*a)/2 + math.Log(ha/hz))
}

// Mean returns the mean of the distribution, Mu + Sigma*h(alpha) with
// alpha = -Mu/Sigma and h the inverse Mills ratio. For alpha > 0 it is
// computed as Sigma times the mean excess over the bound, which does not
// cancel even at alpha = 60 and beyond.
func (t TruncatedNormal) Mean() float64 {
	if !t.valid() {
		return math.NaN()
	}
	a := t.alpha()
	h, c, _ := stdTruncMoments(a)
	if a <= 0 {
		return t.Mu + t.Sigma*h
	}
	return t.Sigma * c
}

// Variance returns the variance of the distribution,
// Sigma^2 (1 - h(alpha) (h(alpha) - alpha)), computed without cancellation
// deep in the tail, where it tends to Sigma^2/alpha^2.
func (t TruncatedNormal) Variance() float64 {
	if !t.valid() {
		return math.NaN()
	}
	_, _, v := stdTruncMoments(t.alpha())
	return t.Sigma * t.Sigma * v
}

// tnContinuedFractionFrom is the bound a from which stdTruncMoments uses the
// continued fraction; with tnContinuedFractionTerms terms it agrees with the
// erfc form to 1e-15 relative at a = 3 and converges faster beyond.
const (
	tnContinuedFractionFrom  = 3
	tnContinuedFractionTerms = 60
)

// stdTruncMoments returns, for a standard normal Z truncated to [a, inf),
// the inverse Mills ratio h = phi(a)/(1-Phi(a)) = E[Z], the mean excess
// c = E[Z] - a and the variance v = 1 - h*c.
//
// For a < 3 it uses math.Erfc, whose relative accuracy carries over to h;
// forming c and v then cancels at most about one decimal digit. For a >= 3
// it uses Laplace's continued fraction for the Mills ratio,
//
//	(1-Phi(a))/phi(a) = 1/(a + 1/(a + 2/(a + 3/(a + ...)))),
//
// evaluated backwards with a fixed number of terms. Writing
// d = 2/(a + 3/(a + ...)) and c = 1/(a + d) gives h = a + c exactly and,
// since a*c = 1 - d*c, v = c*(d - c) with d about twice c, so neither c nor
// v cancels however large a is. For a = +Inf, h = +Inf and c = v = 0.
func stdTruncMoments(a float64) (h, c, v float64) {
	if a < tnContinuedFractionFrom {
		phi := math.Exp(-a*a/2) / math.Sqrt(2*math.Pi)
		h = phi / (0.5 * math.Erfc(a/math.Sqrt2))
		c = h - a
		return h, c, 1 - h*c
	}
	var d float64
	for k := tnContinuedFractionTerms; k >= 2; k-- {
		d = float64(k) / (a + d)
	}
	c = 1 / (a + d)
	return a + c, c, c * (d - c)
}

// RectifiedNormal is the paper's rectified-normal distribution
// RN(x | Mu, 1/Tau, Lambda), proportional to N(x | Mu, 1/Tau) Exp(x | Lambda)
// on [0, inf), which equals TN(x | (Tau*Mu - Lambda)/Tau, 1/Tau) (the
// paper's subsection "Probability Distributions"). Its methods delegate to
// TruncatedNormal.
//
// Methods return NaN when the parameters are invalid. Rand panics with a
// "bnmf: ..." message when Src is nil.
type RectifiedNormal struct {
	// Mu is the mean of the parent normal; any finite value.
	Mu float64
	// Tau is the precision (inverse variance) of the parent normal; finite
	// and > 0.
	Tau float64
	// Lambda is the rate of the exponential factor; finite and >= 0, where
	// 0 gives the truncated normal TN(Mu, 1/Tau).
	Lambda float64
	// Src is the source of random numbers for Rand.
	Src rand.Source
}

// TruncatedNormal returns the equivalent truncated normal
// TN((Tau*Mu - Lambda)/Tau, 1/Tau) with the same Src.
func (r RectifiedNormal) TruncatedNormal() TruncatedNormal {
	if !(r.Tau > 0 && r.Tau <= math.MaxFloat64) || !(r.Lambda >= 0 && r.Lambda <= math.MaxFloat64) {
		return TruncatedNormal{Mu: math.NaN(), Sigma: math.NaN(), Src: r.Src}
	}
	return TruncatedNormal{Mu: r.Mu - r.Lambda/r.Tau, Sigma: 1 / math.Sqrt(r.Tau), Src: r.Src}
}

// Rand returns a random sample drawn from the distribution, using Src. It
// panics if Src is nil.
func (r RectifiedNormal) Rand() float64 {
	if r.Src == nil {
		panic("bnmf: RectifiedNormal.Rand: nil Src")
	}
	return r.TruncatedNormal().Rand()
}

// LogProb returns the log of the probability density at x (-Inf for x < 0).
func (r RectifiedNormal) LogProb(x float64) float64 { return r.TruncatedNormal().LogProb(x) }

// Prob returns the probability density at x (0 for x < 0).
func (r RectifiedNormal) Prob(x float64) float64 { return r.TruncatedNormal().Prob(x) }

// Mean returns the mean of the distribution.
func (r RectifiedNormal) Mean() float64 { return r.TruncatedNormal().Mean() }

// Variance returns the variance of the distribution.
func (r RectifiedNormal) Variance() float64 { return r.TruncatedNormal().Variance() }
