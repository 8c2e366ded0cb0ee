package bnmf

import (
	"math"
	"slices"
	"testing"

	"gonum.org/v1/gonum/integrate/quad"
)

// condDensity is a univariate density known up to a constant, normalised
// by numerical integration over the range that holds all but a negligible
// part of its mass.
type condDensity struct {
	logf           func(float64) float64
	logMax         float64
	left, h        float64   // range start and panel width
	cum            []float64 // normalised mass below each panel edge
	z              float64   // normalising constant of exp(logf - logMax)
	mean, variance float64
	nodes, weights []float64 // Gauss-Legendre rule on [0, 1]
}

// newCondDensity normalises exp(logf) on its support [lo, inf) (lo may be
// -Inf). logf must be unimodal, as every log-concave density is, and its
// mode must lie in [a, b]; logf(b) and, unless a == lo, logf(a) must be
// more than condLogDrop below the maximum.
func newCondDensity(t *testing.T, logf func(float64) float64, lo, a, b float64) *condDensity {
	t.Helper()
	a = math.Max(a, lo)
	// Coarse grid, then golden-section search around its best point: a
	// unimodal function has its mode within one grid step of it. 64 golden
	// steps (and below, 64 bisections) shrink a bracket by more than 1e13.
	const grid = 256
	step := (b - a) / grid
	best, bestF := a, logf(a)
	for i := 1; i <= grid; i++ {
		x := a + float64(i)*step
		if f := logf(x); f > bestF {
			best, bestF = x, f
		}
	}
	l, r := math.Max(a, best-step), math.Min(b, best+step)
	const g = 0.6180339887498949
	for range 64 {
		m1, m2 := r-g*(r-l), l+g*(r-l)
		if logf(m1) < logf(m2) {
			l = m1
		} else {
			r = m2
		}
	}
	mode := (l + r) / 2
	if f := logf(mode); f > bestF {
		bestF = f
	} else {
		mode = best
	}
	cut := bestF - condLogDrop
	// crossing finds the point between in (above cut) and out (below) where
	// logf crosses cut.
	crossing := func(in, out float64) float64 {
		for range 64 {
			m := (in + out) / 2
			if logf(m) > cut {
				in = m
			} else {
				out = m
			}
		}
		return out
	}
	if !(logf(b) < cut) {
		t.Fatalf("log density at the search bound %g is %g, not below the cut %g: widen the search range", b, logf(b), cut)
	}
	right := crossing(mode, b)
	left := a
	switch {
	case logf(a) < cut:
		left = crossing(mode, a)
	case a != lo:
		t.Fatalf("log density at the search bound %g is %g, not below the cut %g: widen the search range", a, logf(a), cut)
	}

	d := &condDensity{
		logf:    logf,
		logMax:  bestF,
		left:    left,
		h:       (right - left) / condPanels,
		cum:     make([]float64, condPanels+1),
		nodes:   make([]float64, condNodes),
		weights: make([]float64, condNodes),
	}
	quad.Legendre{}.FixedLocations(d.nodes, d.weights, 0, 1)
	// One pass, with moments about the mode, which is close enough to the
	// mean that E[(x-mode)^2] - E[x-mode]^2 loses no precision.
	var m1, m2 float64
	for p := range condPanels {
		x0 := left + float64(p)*d.h
		var mass float64
		for q, u := range d.nodes {
			x := x0 + u*d.h
			f := d.weights[q] * d.h * math.Exp(logf(x)-bestF)
			mass += f
			m1 += f * (x - mode)
			m2 += f * (x - mode) * (x - mode)
		}
		d.cum[p+1] = d.cum[p] + mass
	}
	d.z = d.cum[condPanels]
	if !(d.z > 0) || math.IsInf(d.z, 0) {
		t.Fatalf("normalising constant %g on [%g, %g]", d.z, left, right)
	}
	for i := range d.cum {
		d.cum[i] /= d.z
	}
	m1 /= d.z
	d.mean = mode + m1
	d.variance = m2/d.z - m1*m1
	return d
}

// cdf returns the normalised integral of the density up to x.
func (d *condDensity) cdf(x float64) float64 {
	if x <= d.left {
		return 0
	}
	p := int((x - d.left) / d.h)
	if p >= condPanels {
		return 1
	}
	x0 := d.left + float64(p)*d.h
	w := x - x0
	var mass float64
	for q, u := range d.nodes {
		mass += d.weights[q] * w * math.Exp(d.logf(x0+u*w)-d.logMax)
	}
	return math.Min(1, d.cum[p]+mass/d.z)
}

// TestConditionalIntegrator checks newCondDensity against closed forms.
func TestConditionalIntegrator(t *testing.T) {
	normCDF := func(x float64) float64 { return 0.5 * math.Erfc(-x/math.Sqrt2) }
	cases := []struct {
		name       string
		logf       func(float64) float64
		lo, a, b   float64
		mean, vari float64
		x, cdf     float64 // one point of the CDF
	}{
		{"Exp(1.5)", func(x float64) float64 { return -1.5 * x }, 0, 0, 40,
			1 / 1.5, 1 / 2.25, 0.7, -math.Expm1(-1.5 * 0.7)},
		{"Exp(270)", func(x float64) float64 { return -270 * x }, 0, 0, 40,
			1.0 / 270, 1.0 / (270 * 270), 0.002, -math.Expm1(-270 * 0.002)},
		{"N(0.3,0.5^2)", func(x float64) float64 { return -(x - 0.3) * (x - 0.3) / 0.5 }, math.Inf(-1), -30, 30,
			0.3, 0.25, 0.1, normCDF((0.1 - 0.3) / 0.5)},
		{"Gamma(2,3)", func(x float64) float64 { return math.Log(x) - 3*x }, 0, 0, 80,
			2.0 / 3, 2.0 / 9, 0.5, 1 - math.Exp(-1.5)*(1+1.5)},
		{"TN(-1,1)", func(x float64) float64 { return -(x + 1) * (x + 1) / 2 }, 0, 0, 40,
			math.Sqrt(2/math.Pi)*math.Exp(-0.5)/math.Erfc(1/math.Sqrt2) - 1, math.NaN(),
			0.5, (normCDF(1.5) - normCDF(1)) / (1 - normCDF(1))},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d := newCondDensity(t, tc.logf, tc.lo, tc.a, tc.b)
			// Tolerance: quadrature error, far below any Monte Carlo error
			// the other tests resolve.
			const tol = 1e-9
			if !(math.Abs(d.mean-tc.mean) <= tol*math.Max(1, math.Abs(tc.mean))) { // NaN fails too
				t.Errorf("mean %v, want %v", d.mean, tc.mean)
			}
			if !math.IsNaN(tc.vari) && !(math.Abs(d.variance-tc.vari) <= tol*tc.vari) {
				t.Errorf("variance %v, want %v", d.variance, tc.vari)
			}
			if got := d.cdf(tc.x); !(math.Abs(got-tc.cdf) <= tol) {
				t.Errorf("CDF(%v) = %v, want %v", tc.x, got, tc.cdf)
			}
		})
	}
}

// condKS returns the Kolmogorov-Smirnov distance between the empirical
// distribution of u (sorted in place) and the uniform distribution on
// [0, 1].
func condKS(u []float64) float64 {
	slices.Sort(u)
	n := float64(len(u))
	var d float64
	for i, v := range u {
		d = math.Max(d, math.Max(float64(i+1)/n-v, v-float64(i)/n))
	}
	return d
}

// condCheck accumulates the probability integral transforms of draws and
// their deviations from the conditional means, and asserts uniformity and
// unbiasedness.
type condCheck struct {
	u          []float64
	dev, vsum  float64 // sum of x - E[x] and of Var[x]
	sumX, sumM float64
}

func (c *condCheck) add(d *condDensity, x float64) {
	c.u = append(c.u, d.cdf(x))
	c.dev += x - d.mean
	c.vsum += d.variance
	c.sumX += x
	c.sumM += d.mean
}

func (c *condCheck) assert(t *testing.T) {
	t.Helper()
	n := float64(len(c.u))
	ks := condKS(c.u)
	crit := condKSCrit / math.Sqrt(n)
	// The draws are independent with conditional variances vsum/n on
	// average, so the mean deviation has standard error sqrt(vsum)/n.
	z := c.dev / math.Sqrt(c.vsum)
	t.Logf("n=%d KS=%.4f (0.1%% critical %.4f) mean=%.6g integrated=%.6g z=%+.2f", len(c.u), ks, crit, c.sumX/n, c.sumM/n, z)
	if !(ks <= crit) {
		t.Errorf("KS statistic %.4f of the probability integral transforms exceeds the 0.1%% critical value %.4f", ks, crit)
	}
	if !(math.Abs(z) <= condMeanSE) {
		t.Errorf("sample mean %.6g differs from the integrated mean %.6g by %.2f standard errors (limit %v)", c.sumX/n, c.sumM/n, z, float64(condMeanSE))
	}
}
