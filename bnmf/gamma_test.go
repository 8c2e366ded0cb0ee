package bnmf

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

func TestGammaRandMoments(t *testing.T) {
	const n = 50000
	for i, shape := range []float64{0.01, 0.5, 1, 1.5, 10, 1000} {
		for j, rate := range []float64{0.5, 1, 20} {
			t.Run(fmt.Sprintf("shape=%g/rate=%g", shape, rate), func(t *testing.T) {
				rng := rand.New(rand.NewPCG(uint64(i), uint64(j)))
				xs := make([]float64, n)
				for k := range xs {
					x := gammaRand(rng, shape, rate)
					if !(x >= 0 && x <= math.MaxFloat64) {
						t.Fatalf("draw %d = %v, want finite and >= 0", k, x)
					}
					xs[k] = x
				}
				// Exact standard errors: Var X = a/b^2 and the fourth
				// central moment is 3a(a+2)/b^4, so the sample variance
				// has variance (2a^2 + 6a)/(n b^4). The sample estimate
				// checkMoments uses would be unstable for shape 0.01.
				mean, variance := shape/rate, shape/(rate*rate)
				seMean := math.Sqrt(variance / n)
				seVariance := math.Sqrt((2*shape*shape+6*shape)/n) / (rate * rate)
				gotMean, gotVariance, _, _ := sampleStats(t, xs)
				if z := (gotMean - mean) / seMean; !(math.Abs(z) <= zMax) {
					t.Errorf("mean = %.6g, want %.6g (z = %.2f, limit %v)", gotMean, mean, z, zMax)
				}
				if z := (gotVariance - variance) / seVariance; !(math.Abs(z) <= zMax) {
					t.Errorf("variance = %.6g, want %.6g (z = %.2f, limit %v)", gotVariance, variance, z, zMax)
				}
			})
		}
	}
}

func TestGammaRandKS(t *testing.T) {
	const n = 4000
	for i, tt := range []struct{ shape, rate float64 }{
		{shape: 0.01, rate: 2},
		{shape: 0.5, rate: 2},
		{shape: 0.999, rate: 1e-3},
		{shape: 1, rate: 2},
		{shape: 1.5, rate: 2},
		{shape: 10, rate: 1e3},
		{shape: 1000, rate: 2},
	} {
		t.Run(fmt.Sprintf("shape=%g/rate=%g", tt.shape, tt.rate), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(8, uint64(i)))
			xs := make([]float64, n)
			for k := range xs {
				xs[k] = gammaRand(rng, tt.shape, tt.rate)
			}
			checkKS(t, xs, distuv.Gamma{Alpha: tt.shape, Beta: tt.rate}.CDF)
		})
	}
}

// TestGammaRandUnderflow checks that, for tiny shapes, a draw is 0 exactly
// as often as the Gamma variate lies below 2^-1075, where rounding to
// float64 gives 0, whatever the rate: computing Y U^(1/shape) before
// dividing by the rate would flush far more draws to 0 when the rate is
// small.
func TestGammaRandUnderflow(t *testing.T) {
	const (
		n     = 20000
		shape = 0.001
	)
	for i, rate := range []float64{1e-250, 1, 1e250} {
		t.Run(fmt.Sprintf("rate=%g", rate), func(t *testing.T) {
			// P(X < c) = P(G < c*rate) for G ~ Gamma(shape, 1), which for
			// c*rate < 1e-70 is (c*rate)^shape / Gamma(shape+1) to
			// within a relative 1e-73.
			logBound := -1075*math.Ln2 + math.Log(rate)
			lg, _ := math.Lgamma(shape + 1)
			p := math.Exp(shape*logBound - lg)
			rng := rand.New(rand.NewPCG(9, uint64(i)))
			zeros := 0
			for range n {
				if gammaRand(rng, shape, rate) == 0 {
					zeros++
				}
			}
			// Binomial count: standard error sqrt(n p (1-p)).
			if z := (float64(zeros) - n*p) / math.Sqrt(n*p*(1-p)); !(math.Abs(z) <= zMax) {
				t.Errorf("%d zeros in %d draws, want %.1f (z = %.2f, limit %v)", zeros, n, n*p, z, zMax)
			}
		})
	}
}

func TestGammaRandInvalid(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	tests := []struct{ shape, rate float64 }{
		{shape: 0, rate: 1},
		{shape: -1, rate: 1},
		{shape: nan, rate: 1},
		{shape: inf, rate: 1},
		{shape: 1, rate: 0},
		{shape: 1, rate: -1},
		{shape: 1, rate: nan},
		{shape: 1, rate: inf},
		{shape: 2, rate: 1e-320}, // the draw overflows
	}
	rng := rand.New(rand.NewPCG(10, 0))
	for _, tt := range tests {
		if x := gammaRand(rng, tt.shape, tt.rate); !math.IsNaN(x) {
			t.Errorf("gammaRand(shape=%v, rate=%v) = %v, want NaN", tt.shape, tt.rate, x)
		}
	}
}
