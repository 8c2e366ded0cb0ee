package bnmf

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestSamplersDoNotAllocate checks that the samplers used in the Gibbs
// sweeps' innermost loops allocate nothing in any regime.
func TestSamplersDoNotAllocate(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	tests := []struct {
		name string
		draw func() float64
	}{
		{"truncNormalNat/alpha=-3", func() float64 { return truncNormalNat(rng, 3, 1) }},
		{"truncNormalNat/alpha=0.3", func() float64 { return truncNormalNat(rng, -0.3, 1) }},
		{"truncNormalNat/alpha=5", func() float64 { return truncNormalNat(rng, -5, 1) }},
		{"truncNormalNat/prec=0", func() float64 { return truncNormalNat(rng, -2, 0) }},
		{"gammaRand/shape=0.5", func() float64 { return gammaRand(rng, 0.5, 2) }},
		{"gammaRand/shape=1", func() float64 { return gammaRand(rng, 1, 2) }},
		{"gammaRand/shape=10", func() float64 { return gammaRand(rng, 10, 2) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var sum float64
			allocs := testing.AllocsPerRun(1000, func() { sum += tt.draw() })
			if allocs != 0 {
				t.Errorf("%v allocations per draw, want 0", allocs)
			}
			if math.IsNaN(sum) || math.IsInf(sum, 0) {
				t.Errorf("sum of draws = %v, want finite", sum)
			}
		})
	}
}

// BenchmarkTruncNormalNat measures one draw at a range of standardized
// bounds alpha = -lin/sqrt(prec), spanning every branch of the sampler.
func BenchmarkTruncNormalNat(b *testing.B) {
	for _, alpha := range []float64{-3, 0, 0.3, 0.6, 1, 3, 60, 1e8} {
		b.Run(fmt.Sprintf("alpha=%g", alpha), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, 2))
			const prec = 4
			lin := -alpha * math.Sqrt(prec)
			b.ReportAllocs()
			for b.Loop() {
				truncNormalNat(rng, lin, prec)
			}
		})
	}
}

// BenchmarkGammaRand measures one draw for shapes on both sides of the
// boost at shape 1.
func BenchmarkGammaRand(b *testing.B) {
	for _, shape := range []float64{0.5, 1, 1.5, 10, 1000} {
		b.Run(fmt.Sprintf("shape=%g", shape), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, 2))
			b.ReportAllocs()
			for b.Loop() {
				gammaRand(rng, shape, 2)
			}
		})
	}
}
