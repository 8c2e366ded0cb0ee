package bnmf

import (
	"math"
	"math/rand/v2"
)

// gammaRand draws from Gamma(shape, rate), the density
// rate^shape/Gamma(shape) x^(shape-1) exp(-rate x) on x > 0, with shape > 0
// and rate > 0, both finite. It returns NaN on invalid input, and also when
// the draw exceeds the largest float64 (only possible for a rate near the
// smallest floats); it never returns Inf. It does not allocate.
//
// For shape >= 1 it uses Marsaglia and Tsang (2000), "A simple method for
// generating gamma variables", ACM Transactions on Mathematical Software
// 26(3):363-372. For shape < 1 it uses their boost X = Y U^(1/shape) with
// Y ~ Gamma(shape+1, 1) and U uniform, evaluated in logarithms as
// exp(log Y - E/shape - log rate) with E = -log U ~ Exp(1): for small shapes
// U^(1/shape) underflows long before the draw itself does, and dividing by
// the rate inside the exponent keeps every draw whose value is a positive
// float64 from being flushed to zero.
//
// A caller that draws many times with one shape should keep a gammaSampler
// for it: the draws are the same, without the square root and division
// that set the shape up on every call.
func gammaRand(rng *rand.Rand, shape, rate float64) float64 {
	return newGammaSampler(shape).rand(rng, rate)
}

// gammaSampler draws from Gamma(shape, rate) for one fixed shape and any
// rate, exactly as gammaRand does, with the Marsaglia-Tsang constants
// d = s - 1/3 and c = 1/sqrt(9d) of the shape s it works with (the shape,
// or shape + 1 for the boost) computed once.
type gammaSampler struct {
	shape float64
	valid bool // shape > 0 and finite
	d, c  float64
}

// newGammaSampler returns the sampler of Gamma(shape, .). An invalid shape
// gives a sampler whose every draw is NaN.
func newGammaSampler(shape float64) gammaSampler {
	g := gammaSampler{shape: shape, valid: shape > 0 && shape <= math.MaxFloat64}
	if !g.valid || shape == 1 {
		return g
	}
	mt := shape
	if shape < 1 {
		mt = shape + 1
	}
	g.d = mt - 1.0/3
	g.c = 1 / (3 * math.Sqrt(g.d))
	return g
}

// rand draws from Gamma(g.shape, rate); see gammaRand.
func (g gammaSampler) rand(rng *rand.Rand, rate float64) float64 {
	if !g.valid || !(rate > 0 && rate <= math.MaxFloat64) {
		return math.NaN()
	}
	var x float64
	switch {
	case g.shape < 1:
		y := gammaMarsagliaTsang(rng, g.d, g.c)
		x = math.Exp(math.Log(y) - rng.ExpFloat64()/g.shape - math.Log(rate))
	case g.shape == 1:
		x = rng.ExpFloat64() / rate
	default:
		x = gammaMarsagliaTsang(rng, g.d, g.c) / rate
	}
	if x > math.MaxFloat64 {
		return math.NaN()
	}
	return x
}

// gammaMarsagliaTsang draws from Gamma(shape, 1) for shape >= 1 by Marsaglia
// and Tsang (2000), given d = shape - 1/3 and c = 1/sqrt(9d): propose
// d(1 + c z)^3 for standard normal z and accept when
// log u < z^2/2 + d(1 - v + log v), v = (1 + c z)^3, after the cheap
// squeeze u < 1 - 0.0331 z^4 that spares the logarithms almost always. The
// acceptance probability is lowest at shape 1, where it is 0.951, and tends
// to 1 as the shape grows.
func gammaMarsagliaTsang(rng *rand.Rand, d, c float64) float64 {
	for {
		z := rng.NormFloat64()
		v := 1 + c*z
		if v <= 0 {
			continue
		}
		v = v * v * v
		u := rng.Float64()
		z2 := z * z
		if u < 1-0.0331*z2*z2 || math.Log(u) < z2/2+d*(1-v+math.Log(v)) {
			return d * v
		}
	}
}
