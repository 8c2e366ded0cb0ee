package bnmf

import (
	"math"
	"math/rand/v2"
)

// invGaussRand draws from the inverse Gaussian distribution IG(mu, shape)
// with mean mu > 0 and shape parameter shape > 0, whose density is
//
//	sqrt(shape / (2 pi x^3)) exp(-shape (x - mu)^2 / (2 mu^2 x)),  x > 0,
//
// and variance mu^3/shape. It implements Michael, Schucany and Haas
// (1976), "Generating random variates using transformations with
// multiple roots", The American Statistician 30:88-90: with y a squared
// standard normal, the smaller root x1 of shape (x - mu)^2 / (mu^2 x) = y
// is taken with probability mu/(mu + x1) and the larger, mu^2/x1,
// otherwise. The smaller root mu (1 + t - sqrt(t (t + 2))), t = mu y /
// (2 shape), is computed as mu / (1 + t + sqrt(t (t + 2))), which does not
// cancel when t is large. Non-finite or non-positive parameters give NaN.
func invGaussRand(rng *rand.Rand, mu, shape float64) float64 {
	if !(mu > 0 && mu <= math.MaxFloat64 && shape > 0 && shape <= math.MaxFloat64) {
		return math.NaN()
	}
	z := rng.NormFloat64()
	t := mu * (z * z) / (2 * shape)
	x1 := mu / (1 + t + math.Sqrt(t*(t+2)))
	if rng.Float64()*(mu+x1) <= mu {
		return x1
	}
	return mu * (mu / x1)
}
