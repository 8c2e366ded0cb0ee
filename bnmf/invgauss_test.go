package bnmf

import (
	"math"
	"math/rand/v2"
	"testing"
)

// invGaussCDF is the inverse Gaussian's distribution function in closed
// form:
//
//	Phi(sqrt(shape/x) (x/mu - 1)) + exp(2 shape/mu) Phi(-sqrt(shape/x) (x/mu + 1)),
//
// accurate while exp(2 shape/mu) does not overflow (shape/mu below about
// 350; the cases below stay under 100).
func invGaussCDF(x, mu, shape float64) float64 {
	if x <= 0 {
		return 0
	}
	phi := func(z float64) float64 { return 0.5 * math.Erfc(-z/math.Sqrt2) }
	r := math.Sqrt(shape / x)
	return phi(r*(x/mu-1)) + math.Exp(2*shape/mu)*phi(-r*(x/mu+1))
}

// TestInvGaussRand checks invGaussRand's draws against the closed-form
// distribution function (Kolmogorov-Smirnov) and their mean against mu.
func TestInvGaussRand(t *testing.T) {
	cases := []struct{ mu, shape float64 }{
		{1, 1},
		{0.5, 20},  // nearly normal
		{50, 2},    // heavy right tail: t = mu y/(2 shape) is often large
		{2, 100},   // shape/mu = 50
		{1e4, 0.3}, // tiny |x| in GLL's conditional gives mu this large
	}
	const n = 20000
	for ci, tc := range cases {
		rng := rand.New(rand.NewPCG(uint64(ci), 77))
		u := make([]float64, n)
		var sum float64
		for i := range u {
			x := invGaussRand(rng, tc.mu, tc.shape)
			if !(x > 0) || math.IsInf(x, 0) {
				t.Fatalf("IG(%v, %v): draw %v", tc.mu, tc.shape, x)
			}
			u[i] = invGaussCDF(x, tc.mu, tc.shape)
			sum += x
		}
		ks := condKS(u)
		crit := condKSCrit / math.Sqrt(n)
		// The mean's standard error is sqrt(mu^3/shape/n); 4.5 of them is
		// a false alarm rate below 1e-5 per case.
		se := math.Sqrt(tc.mu * tc.mu * tc.mu / tc.shape / n)
		z := (sum/n - tc.mu) / se
		t.Logf("IG(%v, %v): KS %.4f (0.1%% critical %.4f), mean z %+.2f", tc.mu, tc.shape, ks, crit, z)
		if !(ks <= crit) {
			t.Errorf("IG(%v, %v): KS statistic %.4f exceeds %.4f", tc.mu, tc.shape, ks, crit)
		}
		if !(math.Abs(z) <= 4.5) {
			t.Errorf("IG(%v, %v): sample mean %v is %.2f standard errors from %v", tc.mu, tc.shape, sum/n, z, tc.mu)
		}
	}
	rng := rand.New(rand.NewPCG(1, 1))
	for _, bad := range [][2]float64{{0, 1}, {1, 0}, {-1, 1}, {math.Inf(1), 1}, {math.NaN(), 1}} {
		if x := invGaussRand(rng, bad[0], bad[1]); !math.IsNaN(x) {
			t.Errorf("IG(%v, %v) gave %v, want NaN", bad[0], bad[1], x)
		}
	}
}
