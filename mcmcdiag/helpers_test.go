package mcmcdiag

import (
	"math"
	"math/rand/v2"
)

// ar1Chains returns m chains of n draws of a stationary Gaussian AR(1)
// process x[t] = rho*x[t-1] + e[t], e ~ N(0, 1), plus shift[j] on chain j
// (nil for none), drawn from src.
func ar1Chains(src *rand.Rand, m, n int, rho float64, shift []float64) [][]float64 {
	chains := make([][]float64, m)
	for j := range chains {
		c := make([]float64, n)
		x := src.NormFloat64() / math.Sqrt(1-rho*rho)
		for t := range c {
			if t > 0 {
				x = rho*x + src.NormFloat64()
			}
			c[t] = x
		}
		if shift != nil {
			for t := range c {
				c[t] += shift[j]
			}
		}
		chains[j] = c
	}
	return chains
}

// newRand returns a generator with a fixed seed, one stream per test.
func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x6d636d63)) }
