package bnmf

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"
	"gonum.org/v1/gonum/integrate/quad"
)

// integrate returns the integral of f over [lo, hi] by 400-point
// Gauss-Legendre quadrature, which for the smooth, Gaussian-like integrands
// here is accurate to about 1e-14 relative.
func integrate(f func(float64) float64, lo, hi float64) float64 {
	return quad.Fixed(f, lo, hi, 400, quad.Legendre{}, 0)
}

func TestTruncatedNormalAgainstQuadrature(t *testing.T) {
	for _, tt := range []struct{ mu, sigma float64 }{
		{mu: 20, sigma: 2},   // alpha = -10
		{mu: 1, sigma: 2},    // alpha = -0.5
		{mu: 0, sigma: 3},    // alpha = 0
		{mu: -0.5, sigma: 1}, // alpha = 0.5
		{mu: -5.8, sigma: 2}, // alpha = 2.9, erfc form
		{mu: -6.2, sigma: 2}, // alpha = 3.1, continued fraction
		{mu: -5, sigma: 0.5}, // alpha = 10
		{mu: -30, sigma: 1},  // alpha = 30
		{mu: -6e-5, sigma: 1e-6},
	} {
		d := TruncatedNormal{Mu: tt.mu, Sigma: tt.sigma}
		a := -tt.mu / tt.sigma
		// Where the density is not negligible (below exp(-40) beyond hi).
		hi := tt.sigma * (max(-a, 0) + 12)
		if a >= 3 {
			hi = tt.sigma * 40 / a
		}
		mass := integrate(d.Prob, 0, hi)
		mean := integrate(func(x float64) float64 { return x * d.Prob(x) }, 0, hi)
		variance := integrate(func(x float64) float64 { return (x - mean) * (x - mean) * d.Prob(x) }, 0, hi)
		// 1e-12: quadrature is good to ~1e-14 and the variance's
		// integrand loses up to two digits to cancellation at alpha = -10.
		const tol = 1e-12
		for _, c := range []struct {
			name      string
			got, want float64
		}{
			{"mass", mass, 1},
			{"Mean", d.Mean(), mean},
			{"Variance", d.Variance(), variance},
			{"CDF(hi/8)", d.CDF(hi / 8), integrate(d.Prob, 0, hi/8)},
			{"CDF(hi/2)", d.CDF(hi / 2), integrate(d.Prob, 0, hi/2)},
		} {
			if !scalar.EqualWithinAbsOrRel(c.got, c.want, 0, tol) {
				t.Errorf("Mu=%g Sigma=%g: %s = %.16g, quadrature %.16g", tt.mu, tt.sigma, c.name, c.got, c.want)
			}
		}
	}
}

func TestTruncatedNormalTailMoments(t *testing.T) {
	for _, tt := range []struct {
		mu, sigma float64
		tol       float64
	}{
		{mu: -20, sigma: 1, tol: 1e-11},    // omitted expansion terms are 8e-13 relative
		{mu: -60, sigma: 1, tol: 1e-13},    // expansion error below 1e-16
		{mu: -6, sigma: 0.1, tol: 1e-13},   // alpha = 60
		{mu: -1e3, sigma: 1, tol: 1e-14},   // far beyond 1-Phi underflow
		{mu: -1e8, sigma: 1, tol: 1e-14},   // the empty-row limit
		{mu: -1, sigma: 1e-10, tol: 1e-14}, // alpha = 1e10
	} {
		d := TruncatedNormal{Mu: tt.mu, Sigma: tt.sigma}
		mean, variance := refStdMoments(t, -tt.mu/tt.sigma)
		if got, want := d.Mean(), tt.sigma*mean; !scalar.EqualWithinAbsOrRel(got, want, 0, tt.tol) {
			t.Errorf("Mu=%g Sigma=%g: Mean = %.16g, want %.16g", tt.mu, tt.sigma, got, want)
		}
		if got, want := d.Variance(), tt.sigma*tt.sigma*variance; !scalar.EqualWithinAbsOrRel(got, want, 0, tt.tol) {
			t.Errorf("Mu=%g Sigma=%g: Variance = %.16g, want %.16g", tt.mu, tt.sigma, got, want)
		}
	}
}

func TestTruncatedNormalRand(t *testing.T) {
	const n = 20000
	for i, d := range []TruncatedNormal{
		{Mu: 3, Sigma: 2},
		{Mu: -1, Sigma: 0.5},
		{Mu: -600, Sigma: 10},
	} {
		d.Src = rand.NewPCG(5, uint64(i))
		xs := make([]float64, n)
		for k := range xs {
			xs[k] = d.Rand()
		}
		checkMoments(t, xs, d.Mean(), d.Variance())
	}
}

func TestRectifiedNormal(t *testing.T) {
	for _, r := range []RectifiedNormal{
		{Mu: 1, Tau: 2, Lambda: 0.5},
		{Mu: -1, Tau: 0.25, Lambda: 3},
		{Mu: 2, Tau: 4, Lambda: 0},
	} {
		// The paper's form: N(x | Mu, 1/Tau) Exp(x | Lambda) / C with
		// C = lambda(1 - Phi(-w)) exp(-mu lambda + lambda^2/(2 tau)),
		// w = (tau mu - lambda)/sqrt(tau), here divided by lambda so that
		// Lambda = 0 (the truncated-normal limit) is covered; 1 - Phi(-w)
		// is written 0.5 erfc(-w/sqrt(2)) to avoid cancellation.
		lam := r.Lambda
		w := (r.Tau*r.Mu - lam) / math.Sqrt(r.Tau)
		c := 0.5 * math.Erfc(-w/math.Sqrt2) * math.Exp(-r.Mu*lam+lam*lam/(2*r.Tau))
		for _, x := range []float64{0, 0.3, 1, 4} {
			normal := math.Sqrt(r.Tau/(2*math.Pi)) * math.Exp(-r.Tau*(x-r.Mu)*(x-r.Mu)/2)
			want := normal * math.Exp(-lam*x) / c
			// 1e-13: a few roundings of exp and erfc.
			if got := r.Prob(x); !scalar.EqualWithinAbsOrRel(got, want, 0, 1e-13) {
				t.Errorf("%+v: Prob(%v) = %.16g, want %.16g", r, x, got, want)
			}
		}
		if got := r.LogProb(-1); !math.IsInf(got, -1) {
			t.Errorf("%+v: LogProb(-1) = %v, want -Inf", r, got)
		}
		// The rectified normal is the normal of mean mu - lambda/tau
		// truncated to [0, inf): the same closed forms, reached through a
		// differently rounded shifted mean, so they differ only by
		// rounding; 1e-14 relative allows for it.
		tn := TruncatedNormal{Mu: (r.Tau*r.Mu - lam) / r.Tau, Sigma: 1 / math.Sqrt(r.Tau)}
		if got, want := r.Mean(), tn.Mean(); !scalar.EqualWithinAbsOrRel(got, want, 0, 1e-14) {
			t.Errorf("%+v: Mean = %v, want %v", r, got, want)
		}
		if got, want := r.Variance(), tn.Variance(); !scalar.EqualWithinAbsOrRel(got, want, 0, 1e-14) {
			t.Errorf("%+v: Variance = %v, want %v", r, got, want)
		}
		r.Src = rand.NewPCG(6, 0)
		xs := make([]float64, 20000)
		for k := range xs {
			xs[k] = r.Rand()
		}
		checkMoments(t, xs, tn.Mean(), tn.Variance())
	}
}

func TestRandNilSrcPanics(t *testing.T) {
	for name, draw := range map[string]func() float64{
		"TruncatedNormal": TruncatedNormal{Mu: 1, Sigma: 1}.Rand,
		"RectifiedNormal": RectifiedNormal{Mu: 1, Tau: 1, Lambda: 1}.Rand,
	} {
		t.Run(name, func(t *testing.T) {
			defer func() {
				msg, ok := recover().(string)
				if !ok || !strings.HasPrefix(msg, "bnmf: ") {
					t.Errorf("recovered %q, want a panic starting with \"bnmf: \"", msg)
				}
			}()
			draw()
		})
	}
}

func ExampleTruncatedNormal() {
	d := TruncatedNormal{Mu: -1, Sigma: 2, Src: rand.NewPCG(1, 2)}
	fmt.Printf("mean %.4f, variance %.4f\n", d.Mean(), d.Variance())

	// The sample mean of 1e5 draws has standard error 0.0033, far below
	// the rounding to one decimal.
	const n = 100000
	var sum float64
	for range n {
		sum += d.Rand()
	}
	fmt.Printf("sample mean %.1f\n", sum/n)
	// Output:
	// mean 1.2822, variance 1.0739
	// sample mean 1.3
}
