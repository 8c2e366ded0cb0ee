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
func gammaRand(rng *rand.Rand, shape, rate float64) float64 {
	if !(shape > 0 && shape <= math.MaxFloat64) || !(rate > 0 && rate <= math.MaxFloat64) {
		return math.NaN()
	}
	var x float64
	switch {
	case shape < 1:
		y := gammaMarsagliaTsang(rng, shape+1)
		x = math.Exp(math.Log(y) - rng.ExpFloat64()/shape - math.Log(rate))
	case shape == 1:
		x = rng.ExpFloat64() / rate
	default:
		x = gammaMarsagliaTsang(rng, shape) / rate
	}
	if x > math.MaxFloat64 {
		return math.NaN()
	}
	return x
}

// gammaMarsagliaTsang draws from Gamma(shape, 1) for shape >= 1 by Marsaglia
// and Tsang (2000): with d = shape - 1/3 and c = 1/sqrt(9d), propose
// d(1 + c z)^3 for standard normal z and accept when
// log u < z^2/2 + d(1 - v + log v), v = (1 + c z)^3, after the cheap
// squeeze u < 1 - 0.0331 z^4 that spares the logarithms almost always. The
// acceptance probability is lowest at shape 1, where it is 0.951, and tends
// to 1 as the shape grows.
func gammaMarsagliaTsang(rng *rand.Rand, shape float64) float64 {
	d := shape - 1.0/3
	c := 1 / (3 * math.Sqrt(d))
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
