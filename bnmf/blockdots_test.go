package bnmf

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/floats"
)

// TestDots4MatchesDot checks dots4, and each of its kernels that this
// processor runs (dots4Kernels), against floats.Dot bit for bit, for
// lengths 0 to 40 (every remainder mod 4, and the empty vector) and
// strides from the length up.
func TestDots4MatchesDot(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for n := 0; n <= 40; n++ {
		for _, extra := range []int{0, 1, 3, 7} {
			stride := n + extra
			x := make([]float64, n)
			y := make([]float64, 3*stride+n)
			for i := range x {
				x[i] = rng.NormFloat64() * math.Exp(3*rng.NormFloat64())
			}
			for i := range y {
				y[i] = rng.NormFloat64() * math.Exp(3*rng.NormFloat64())
			}
			for _, kernel := range dots4Kernels() {
				d0, d1, d2, d3 := kernel.dots4(x, y, stride)
				for r, got := range []float64{d0, d1, d2, d3} {
					want := floats.Dot(x, y[r*stride:r*stride+n])
					if math.Float64bits(got) != math.Float64bits(want) {
						t.Errorf("%s: n=%d stride=%d: dot %d is %v, floats.Dot gives %v", kernel.name, n, stride, r, got, want)
					}
				}
			}
		}
	}
}

// dots4Kernel is an implementation of dots4, by name.
type dots4Kernel struct {
	name  string
	dots4 func(x, y []float64, stride int) (d0, d1, d2, d3 float64)
}

// TestDots2x4MatchesDot checks dots2x4, and each of its kernels that this
// processor runs, against floats.Dot bit for bit, for lengths 0 to 40
// (every remainder mod 4) and strides from the length up, with values
// over many magnitudes, where any other order of summation rounds
// differently.
func TestDots2x4MatchesDot(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for n := 0; n <= 40; n++ {
		for _, extra := range []int{0, 1, 3, 7} {
			stride := n + extra
			x := make([]float64, stride+n)
			y := make([]float64, 3*stride+n)
			for i := range x {
				x[i] = rng.NormFloat64() * math.Exp(3*rng.NormFloat64())
			}
			for i := range y {
				y[i] = rng.NormFloat64() * math.Exp(3*rng.NormFloat64())
			}
			for _, kernel := range dots2x4Kernels() {
				d00, d01, d02, d03, d10, d11, d12, d13 := kernel.dots2x4(x, y, n, stride)
				for i, got := range []float64{d00, d01, d02, d03, d10, d11, d12, d13} {
					r, c := i/4, i%4
					want := floats.Dot(x[r*stride:r*stride+n], y[c*stride:c*stride+n])
					if math.Float64bits(got) != math.Float64bits(want) {
						t.Errorf("%s: n=%d stride=%d: d%d%d is %v, floats.Dot gives %v", kernel.name, n, stride, r, c, got, want)
					}
				}
			}
		}
	}
}

// dots2x4Kernel is an implementation of dots2x4, by name.
type dots2x4Kernel struct {
	name    string
	dots2x4 func(x, y []float64, n, stride int) (d00, d01, d02, d03, d10, d11, d12, d13 float64)
}
