package bnmf

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// Statistical tolerances shared by the sampler tests in this package.
const (
	// zMax bounds |z-scores| of Monte Carlo means and variances:
	// P(|N(0,1)| > 4.5) = 7e-6, so the few hundred checks per run fail
	// by chance with probability below 1e-2 even for a new seed.
	zMax = 4.5
	// ksMax bounds sqrt(n) times the Kolmogorov-Smirnov distance: the
	// Kolmogorov distribution exceeds 1.95 with probability 0.001.
	ksMax = 1.95
)

// sampleStats returns the sample mean and variance of xs and their standard
// errors, the latter from the sample fourth central moment.
func sampleStats(t *testing.T, xs []float64) (mean, variance, seMean, seVariance float64) {
	t.Helper()
	n := float64(len(xs))
	for _, x := range xs {
		mean += x
	}
	mean /= n
	var m4 float64
	for _, x := range xs {
		d := (x - mean) * (x - mean)
		variance += d
		m4 += d * d
	}
	variance /= n
	m4 /= n
	return mean, variance, math.Sqrt(variance / n), math.Sqrt(math.Max(m4-variance*variance, 0) / n)
}

// checkMoments fails the test when the sample mean or variance of xs is more
// than zMax standard errors from the given values.
func checkMoments(t *testing.T, xs []float64, wantMean, wantVariance float64) {
	t.Helper()
	mean, variance, seMean, seVariance := sampleStats(t, xs)
	if z := (mean - wantMean) / seMean; !(math.Abs(z) <= zMax) {
		t.Errorf("mean = %.6g, want %.6g (z = %.2f, limit %v)", mean, wantMean, z, zMax)
	}
	if z := (variance - wantVariance) / seVariance; !(math.Abs(z) <= zMax) {
		t.Errorf("variance = %.6g, want %.6g (z = %.2f, limit %v)", variance, wantVariance, z, zMax)
	}
}

// checkKS fails the test when sqrt(n) times the Kolmogorov-Smirnov distance
// between xs and cdf exceeds ksMax. It sorts xs.
func checkKS(t *testing.T, xs []float64, cdf func(float64) float64) {
	t.Helper()
	slices.Sort(xs)
	n := float64(len(xs))
	var d float64
	for i, x := range xs {
		f := cdf(x)
		d = max(d, f-float64(i)/n, float64(i+1)/n-f)
	}
	if s := math.Sqrt(n) * d; !(s <= ksMax) {
		t.Errorf("sqrt(n) * KS distance = %.3f, limit %v", s, ksMax)
	}
}

// refStdMoments returns the mean excess E[Z-a] and the variance of a
// standard normal Z truncated to [a, inf), computed independently of
// stdTruncMoments: from math.Erfc for a <= 10 and from the asymptotic
// expansion of the Mills ratio, (1-Phi(a))/phi(a) ~ (1 - u + 3u^2 - 15u^3
// + ...)/a with u = 1/a^2, inverted term by term, for a >= 20 (the first
// omitted terms are below 1e-12 relative there).
func refStdMoments(t *testing.T, a float64) (mean, variance float64) {
	t.Helper()
	switch {
	case a <= 10:
		h := math.Sqrt(2/math.Pi) * math.Exp(-a*a/2) / math.Erfc(a/math.Sqrt2)
		return h - a, 1 - h*(h-a)
	case a >= 20:
		u := 1 / (a * a)
		mean = (1 + u*(-2+u*(10+u*(-74+u*(706+u*(-8162+u*(110410+u*-1708394))))))) / a
		variance = u * (1 + u*(-6+u*(50+u*(-518+u*(6354+u*(-89782+u*(1435330+u*-25625910)))))))
		return mean, variance
	}
	t.Fatalf("no reference for a = %v", a)
	return 0, 0
}

// checkTruncNormalNatMoments draws n values at standardized bound alpha and
// precision prec and compares the mean and variance of the standardized
// excess sqrt(prec)*x with refStdMoments.
func checkTruncNormalNatMoments(t *testing.T, rng *rand.Rand, alpha, prec float64, n int) {
	t.Helper()
	s := math.Sqrt(prec)
	lin := -alpha * s
	ys := make([]float64, n)
	for k := range ys {
		x := truncNormalNat(rng, lin, prec)
		if !(x >= 0) || math.IsInf(x, 0) {
			t.Fatalf("draw %d = %v, want finite and >= 0", k, x)
		}
		ys[k] = x * s
	}
	mean, variance := refStdMoments(t, alpha)
	checkMoments(t, ys, mean, variance)
}

func TestTruncNormalNatMoments(t *testing.T) {
	for _, prec := range []float64{1e-6, 1, 1e6} {
		for i, alpha := range []float64{-10, -3, -1, 0, 0.5, 1, 2, 5, 10, 30, 60} {
			t.Run(fmt.Sprintf("prec=%g/alpha=%g", prec, alpha), func(t *testing.T) {
				checkTruncNormalNatMoments(t, rand.New(rand.NewPCG(1, uint64(i))), alpha, prec, 20000)
			})
		}
	}
}

// TestTruncNormalNatMomentsLong repeats the moment check with 50 times more
// draws where the rejection samplers' acceptance tests matter most, so that
// biases of a few tenths of a percent show.
func TestTruncNormalNatMomentsLong(t *testing.T) {
	if testing.Short() {
		t.Skip("long Monte Carlo check")
	}
	for i, alpha := range []float64{-0.5, 0, 0.3, tnTailStart, 1, 2, 5} {
		t.Run(fmt.Sprintf("alpha=%g", alpha), func(t *testing.T) {
			checkTruncNormalNatMoments(t, rand.New(rand.NewPCG(7, uint64(i))), alpha, 1, 1000000)
		})
	}
}

func TestTruncNormalNatKS(t *testing.T) {
	const n = 4000
	tests := []struct{ lin, prec float64 }{
		{lin: 3, prec: 1},            // alpha = -3: normal rejection
		{lin: 0, prec: 1e6},          // alpha = 0
		{lin: -0.5, prec: 1},         // half-normal rejection
		{lin: -tnTailStart, prec: 1}, // first alpha of the tail branch
		{lin: -2e-3, prec: 1e-6},     // alpha = 2
		{lin: -30, prec: 1},          // deep tail
		{lin: -60e6, prec: 1e12},     // deep tail, large precision
		{lin: -1, prec: 1e-16},       // alpha = 1e8: nearly Exp(1)
		{lin: -0.25, prec: 0},        // exactly Exp(0.25)
		{lin: 1e5, prec: 1e-4},       // alpha = -1e7
	}
	for i, tt := range tests {
		t.Run(fmt.Sprintf("lin=%g/prec=%g", tt.lin, tt.prec), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(2, uint64(i)))
			xs := make([]float64, n)
			for k := range xs {
				xs[k] = truncNormalNat(rng, tt.lin, tt.prec)
			}
			cdf := func(x float64) float64 { return 1 - math.Exp(tt.lin*x) }
			if tt.prec > 0 {
				cdf = TruncatedNormal{Mu: tt.lin / tt.prec, Sigma: 1 / math.Sqrt(tt.prec)}.CDF
			}
			checkKS(t, xs, cdf)
		})
	}
}

func TestTruncNormalNatExtreme(t *testing.T) {
	const n = 200
	precs := []float64{0, 1e-300, 1e-12, 1, 1e12, 1e300}
	lins := []float64{-1e300, -1e12, -1, -1e-12, -1e-300, 0, 1e-300, 1e-12, 1, 1e12, 1e300}
	for i, prec := range precs {
		for j, lin := range lins {
			// Draws are representable unless the mean lin/prec is
			// beyond the largest float64; prec == 0 needs lin < 0.
			wantNaN := lin > 0 && math.IsInf(lin/prec, 1) || prec == 0 && lin >= 0
			rng := rand.New(rand.NewPCG(uint64(i), uint64(j)))
			for range n {
				x := truncNormalNat(rng, lin, prec)
				if wantNaN && !math.IsNaN(x) || !wantNaN && !(x >= 0 && x <= math.MaxFloat64) {
					t.Fatalf("truncNormalNat(lin=%g, prec=%g) = %v, want NaN: %t", lin, prec, x, wantNaN)
				}
			}
		}
	}
}

// TestTruncNormalNatExponentialLimit checks the mean where the density is,
// or nearly is, the exponential with rate -lin, down to means near the
// smallest normal floats.
func TestTruncNormalNatExponentialLimit(t *testing.T) {
	const n = 20000
	tests := []struct{ lin, prec float64 }{
		{lin: -2, prec: 0},
		{lin: -1, prec: 1e-16},       // alpha = 1e8
		{lin: -1e-12, prec: 1e-300},  // alpha = 1e138
		{lin: -1e300, prec: 1e300},   // alpha = 1e150, mean 1e-300
		{lin: -1e300, prec: 1e-300},  // alpha overflows to +Inf
		{lin: -1e-150, prec: 1e-320}, // subnormal precision, mean 1e150
	}
	for i, tt := range tests {
		t.Run(fmt.Sprintf("lin=%g/prec=%g", tt.lin, tt.prec), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(3, uint64(i)))
			scale := 1 / -tt.lin // the exponential's mean and sd
			var sum float64
			for range n {
				sum += truncNormalNat(rng, tt.lin, tt.prec) / scale
			}
			// Within about 1e-16 of Exp(1) after rescaling; the mean of n
			// draws has standard error 1/sqrt(n).
			if z := (sum/n - 1) * math.Sqrt(n); !(math.Abs(z) <= zMax) {
				t.Errorf("mean/scale = %v, want 1 (z = %.2f, limit %v)", sum/n, z, zMax)
			}
		})
	}
}

func TestTruncNormalNatInvalid(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	tests := []struct{ lin, prec float64 }{
		{lin: -1, prec: -1},
		{lin: -1, prec: -inf},
		{lin: -1, prec: inf},
		{lin: -1, prec: nan},
		{lin: nan, prec: 1},
		{lin: inf, prec: 1},
		{lin: -inf, prec: 1},
		{lin: 0, prec: 0},
		{lin: 1, prec: 0},
		{lin: math.Copysign(0, -1), prec: 0},
		{lin: nan, prec: 0},
	}
	rng := rand.New(rand.NewPCG(4, 0))
	for _, tt := range tests {
		if x := truncNormalNat(rng, tt.lin, tt.prec); !math.IsNaN(x) {
			t.Errorf("truncNormalNat(lin=%v, prec=%v) = %v, want NaN", tt.lin, tt.prec, x)
		}
	}
}
