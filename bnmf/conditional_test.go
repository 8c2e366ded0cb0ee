package bnmf

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/integrate/quad"
)

// Full-conditional tests: every draw of one factor entry or one
// hyperparameter, taken through the sampler's own code path from a fixed
// state, is compared with the conditional density written out here from the
// model's definition and normalised by numerical integration. The
// probability integral transform u = F(x) of the draws must be uniform and
// their mean must match the integrated mean.

const (
	// condDraws is the number of draws per case.
	condDraws = 4000
	// condKSCrit is the 0.1% critical value of the Kolmogorov-Smirnov
	// statistic, 1.95/sqrt(n) (asymptotic Kolmogorov distribution), a false
	// alarm rate of 1e-3 per case.
	condKSCrit = 1.95
	// condMeanSE is the tolerance of the mean check in Monte Carlo standard
	// errors: |z| > 4 has probability 6e-5 per case for a correct sampler.
	// Over the 20 cases, KS and mean checks together raise a false alarm
	// for about 2% of seeds; the seeds are fixed.
	condMeanSE = 4
	// condLogDrop is how far below its maximum the log density falls at the
	// ends of the integration range; the mass left out is below e^-40
	// times the range's length in scale units.
	condLogDrop = 40
	// condPanels and condNodes define the composite Gauss-Legendre rule on
	// the integration range, which spans about 18 standard deviations of a
	// normal; a panel then spans under a third of one, where the 8-point
	// rule is exact to about 1e-12 (TestConditionalIntegrator checks it).
	condPanels = 64
	condNodes  = 8
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
			if math.Abs(d.mean-tc.mean) > tol*math.Max(1, math.Abs(tc.mean)) {
				t.Errorf("mean %v, want %v", d.mean, tc.mean)
			}
			if !math.IsNaN(tc.vari) && math.Abs(d.variance-tc.vari) > tol*tc.vari {
				t.Errorf("variance %v, want %v", d.variance, tc.vari)
			}
			if got := d.cdf(tc.x); math.Abs(got-tc.cdf) > tol {
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
	if ks > crit {
		t.Errorf("KS statistic %.4f of the probability integral transforms exceeds the 0.1%% critical value %.4f", ks, crit)
	}
	if math.Abs(z) > condMeanSE {
		t.Errorf("sample mean %.6g differs from the integrated mean %.6g by %.2f standard errors (limit %v)", c.sumX/n, c.sumM/n, z, float64(condMeanSE))
	}
}

// condFixture is the fixed state the conditionals are taken at: a 3 x 4
// matrix whose row 1 holds large negative values (so that, with a small
// sigma^2, the conditional of W[1][0] sits far in the tail of its parent
// normal) and whose row 2 is entirely unobserved, with K = 2.
type condFixture struct {
	data            *Matrix
	w, zt           []float64
	muW, tauW, lamW []float64
	muZ, tauZ, lamZ []float64
	entries         []Entry
}

const condK = 2

func newCondFixture(t *testing.T) *condFixture {
	t.Helper()
	entries := []Entry{
		{0, 0, 1.3}, {0, 1, 0.4}, {0, 3, 2.1},
		{1, 0, -4.0}, {1, 2, -3.5}, {1, 3, -4.2},
	}
	data, err := NewMatrix(3, 4, entries)
	if err != nil {
		t.Fatal(err)
	}
	return &condFixture{
		data:    data,
		entries: data.Entries(),
		w:       []float64{0.9, 0.4, 1.2, 0.7, 0.5, 1.1},
		zt:      []float64{1.0, 0.3, 0.6, 0.8, 1.3, 0.2, 0.7, 1.1},
		muW:     []float64{0.4, -0.3, 1.0, 0.2, -0.5, 0.8},
		tauW:    []float64{1.5, 0.7, 2.0, 1.2, 0.9, 3.0},
		lamW:    []float64{0.6, 1.4, 0.3, 2.0, 0.8, 0.5},
		muZ:     []float64{0.3, 0.9, -0.2, 0.5, 1.1, 0.0, 0.6, -0.4},
		tauZ:    []float64{0.8, 1.6, 2.2, 0.5, 1.0, 1.3, 0.6, 2.5},
		lamZ:    []float64{1.2, 0.4, 0.9, 1.7, 0.3, 1.1, 0.7, 0.2},
	}
}

// Hyperparameters of the models in the conditional tests.
var condModels = map[string]Model{
	"GEE":  GEE{Lambda: 1.5},
	"GTT":  GTT{Mu: 0.8, Tau: 2},
	"GTTN": GTTN{MuMu: 0.5, TauMu: 1, A: 2, B: 1.5},
	"GRRN": GRRN{MuMu: 0.5, TauMu: 1, A: 2, B: 1.5, AlphaLambda: 2, BetaLambda: 1},
}

// condChain builds the model's chain on the fixture, sets its state and
// returns it with a one-worker pool.
func condChain(t *testing.T, f *condFixture, model Model, sigma2 float64) (*gibbsChain, *pool) {
	t.Helper()
	ch, err := model.newChain(f.data, condK)
	if err != nil {
		t.Fatal(err)
	}
	c, ok := ch.(*gibbsChain)
	if !ok {
		t.Fatalf("%s chain is %T, not *gibbsChain", model.Name(), ch)
	}
	copy(c.w, f.w)
	copy(c.zt, f.zt)
	for s, hyper := range [2][3][]float64{{f.muW, f.tauW, f.lamW}, {f.muZ, f.tauZ, f.lamZ}} {
		if h, ok := c.sides[s].prior.(*hierarchicalPrior); ok {
			copy(h.mu, hyper[0])
			copy(h.tau, hyper[1])
			if h.lambda != nil {
				copy(h.lambda, hyper[2])
			}
		}
	}
	c.sigma2 = sigma2
	c.invSigma2 = 1 / sigma2
	p := newPool(1, 1, c.scratchSize())
	t.Cleanup(p.close)
	if err := c.recomputeResiduals(p, 0); err != nil {
		t.Fatal(err)
	}
	return c, p
}

// condFactorLogDensity is the unnormalised log full conditional of entry
// (line, 0) of side s (0: row of W, 1: column of Z) at value x, from the
// model's definition: the Gaussian likelihood of the line's observed
// entries times the entry's prior density on x >= 0.
func condFactorLogDensity(f *condFixture, model Model, s, line int, sigma2 float64) func(float64) float64 {
	w, zt := slices.Clone(f.w), slices.Clone(f.zt)
	x, mu, tau, lam := w, f.muW, f.tauW, f.lamW
	if s == 1 {
		x, mu, tau, lam = zt, f.muZ, f.tauZ, f.lamZ
	}
	e := line * condK
	return func(v float64) float64 {
		if v < 0 {
			return math.Inf(-1)
		}
		x[e] = v
		var lp float64
		for _, en := range f.entries {
			if (s == 0 && en.Row != line) || (s == 1 && en.Col != line) {
				continue
			}
			var pred float64
			for k := range condK {
				pred += w[en.Row*condK+k] * zt[en.Col*condK+k]
			}
			r := en.Value - pred
			lp -= r * r / (2 * sigma2)
		}
		switch m := model.(type) {
		case GEE:
			lp -= m.Lambda * v // Exp(lambda)
		case GTT:
			lp -= m.Tau * (v - m.Mu) * (v - m.Mu) / 2 // TN(mu, 1/tau)
		case GTTN:
			lp -= tau[e] * (v - mu[e]) * (v - mu[e]) / 2 // TN(mu_mk, 1/tau_mk)
		case GRRN:
			lp -= tau[e]*(v-mu[e])*(v-mu[e])/2 + lam[e]*v // N(mu, 1/tau) exp(-lambda w)
		}
		return lp
	}
}

// condStandardizedBound returns -lin/sqrt(prec) for a log density of the
// form -prec x^2/2 + lin x + c, read off its second differences at 0, 1, 2.
func condStandardizedBound(logf func(float64) float64) float64 {
	f0, f1, f2 := logf(0), logf(1), logf(2)
	prec := 2*(f1-f0) - (f2 - f0)
	lin := f1 - f0 + prec/2
	return -lin / math.Sqrt(prec)
}

// TestConditionalFactorEntry checks the draw of W[i][0] (or Z[j][0]) by
// gibbsChain.updateLine against its full conditional.
func TestConditionalFactorEntry(t *testing.T) {
	f := newCondFixture(t)
	cases := []struct {
		name     string
		model    string
		side     int // 0: a row of W, 1: a column of Z
		line     int
		sigma2   float64
		minAlpha float64 // if > 0, the case must be in the far tail
	}{
		{"GEE/W0", "GEE", 0, 0, 0.5, 0},
		{"GEE/W1/far-tail", "GEE", 0, 1, 0.05, 10},
		{"GEE/W2/unobserved-is-exponential-prior", "GEE", 0, 2, 0.5, 0},
		{"GTT/W0", "GTT", 0, 0, 0.5, 0},
		{"GTT/W1/far-tail", "GTT", 0, 1, 0.05, 10},
		{"GTT/Z3", "GTT", 1, 3, 0.5, 0},
		{"GTTN/W0", "GTTN", 0, 0, 0.5, 0},
		{"GTTN/W2/unobserved", "GTTN", 0, 2, 0.5, 0},
		{"GRRN/W0", "GRRN", 0, 0, 0.5, 0},
		{"GRRN/W1/far-tail", "GRRN", 0, 1, 0.05, 10},
		{"GRRN/Z3", "GRRN", 1, 3, 0.5, 0},
		{"GRRN/Z1/one-entry", "GRRN", 1, 1, 0.2, 0},
	}
	for ci, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			model := condModels[tc.model]
			c, p := condChain(t, f, model, tc.sigma2)
			logf := condFactorLogDensity(f, model, tc.side, tc.line, tc.sigma2)
			if tc.minAlpha > 0 {
				if a := condStandardizedBound(logf); !(a > tc.minAlpha) {
					t.Fatalf("standardized bound %.2f is not above %v: the case is not in the far tail", a, tc.minAlpha)
				} else {
					t.Logf("standardized bound %.1f", a)
				}
			}
			dens := newCondDensity(t, logf, 0, 0, 40)
			side := &c.sides[tc.side]
			e := tc.line * condK
			saved := slices.Clone(side.x)
			savedResid := slices.Clone(c.resid)
			hyper := condHyperSlices(c, tc.side)
			savedHyper := condCloneAll(hyper)
			wk := p.workers[0]
			var chk condCheck
			for d := range condDraws {
				copy(side.x, saved)
				copy(c.resid, savedResid)
				condRestoreAll(hyper, savedHyper)
				wk.pcg.Seed(uint64(ci)+1, uint64(d))
				if err := c.updateLine(side, wk, tc.line); err != nil {
					t.Fatal(err)
				}
				chk.add(dens, side.x[e])
				if d == 0 {
					condCheckResiduals(t, c)
				}
			}
			chk.assert(t)
		})
	}
}

// condCheckResiduals asserts that the incrementally updated residuals equal
// a_mn - w_m . z_n recomputed from scratch.
func condCheckResiduals(t *testing.T, c *gibbsChain) {
	t.Helper()
	for p, en := range c.data.Entries() {
		var pred float64
		for k := range c.k {
			pred += c.w[en.Row*c.k+k] * c.zt[en.Col*c.k+k]
		}
		// Tolerance: a few rounding errors of values of order 10.
		if got, want := c.resid[p], en.Value-pred; math.Abs(got-want) > 1e-12 {
			t.Errorf("residual of (%d, %d) is %v after the update, recomputed %v", en.Row, en.Col, got, want)
		}
	}
}

// condHyperSlices returns the hyperparameter slices of side s that
// updateLine may change (none for GEE and GTT).
func condHyperSlices(c *gibbsChain, s int) [][]float64 {
	h, ok := c.sides[s].prior.(*hierarchicalPrior)
	if !ok {
		return nil
	}
	out := [][]float64{h.mu, h.tau}
	if h.lambda != nil {
		out = append(out, h.lambda)
	}
	return out
}

func condCloneAll(xs [][]float64) [][]float64 {
	out := make([][]float64, len(xs))
	for i, x := range xs {
		out[i] = slices.Clone(x)
	}
	return out
}

func condRestoreAll(dst, src [][]float64) {
	for i := range dst {
		copy(dst[i], src[i])
	}
}

// condLogJoint is the log of the joint density of one entry w and its
// hyperparameters, up to a constant:
//
//	N(w | mu, 1/tau) u(w) lambda exp(-lambda w) N(mu | muMu, 1/tauMu)
//	Gamma(tau | a, b) Gamma(lambda | alphaLambda, betaLambda)
//
// for GRRN, and the same without the lambda factors for GTTN. This is the
// joint whose exact conditionals the paper's Eqs. (posterior_grrn_mu_tau1),
// (posterior_grrn_tau_tau1), (posterior_grrn_lambda1) and Appendix B.3
// state.
func condLogJoint(model Model, w, mu, tau, lambda float64) float64 {
	if w < 0 || tau <= 0 {
		return math.Inf(-1)
	}
	var muMu, tauMu, a, b float64
	switch m := model.(type) {
	case GTTN:
		muMu, tauMu, a, b = m.MuMu, m.TauMu, m.A, m.B
	case GRRN:
		muMu, tauMu, a, b = m.MuMu, m.TauMu, m.A, m.B
	}
	d, dm := w-mu, mu-muMu
	lp := 0.5*math.Log(tau) - tau*d*d/2 - tauMu*dm*dm/2 + (a-1)*math.Log(tau) - b*tau
	if m, ok := model.(GRRN); ok {
		if lambda <= 0 {
			return math.Inf(-1)
		}
		lp += math.Log(lambda) - lambda*w + (m.AlphaLambda-1)*math.Log(lambda) - m.BetaLambda*lambda
	}
	return lp
}

// TestConditionalHyperparameters checks mu, tau and lambda of one entry as
// drawn by hierarchicalPrior.updateLine (mu given w and tau, then tau given
// w and the new mu, then lambda given w) against the conditionals of
// condLogJoint.
func TestConditionalHyperparameters(t *testing.T) {
	f := newCondFixture(t)
	cases := []struct {
		name    string
		model   string
		param   string // "mu", "tau" or "lambda"
		line, k int
	}{
		{"GTTN/mu/W00", "GTTN", "mu", 0, 0},
		{"GTTN/tau/W00", "GTTN", "tau", 0, 0},
		{"GTTN/mu/W21", "GTTN", "mu", 2, 1},
		{"GTTN/tau/W21", "GTTN", "tau", 2, 1},
		{"GRRN/mu/W00", "GRRN", "mu", 0, 0},
		{"GRRN/tau/W00", "GRRN", "tau", 0, 0},
		{"GRRN/lambda/W00", "GRRN", "lambda", 0, 0},
		{"GRRN/lambda/W11", "GRRN", "lambda", 1, 1},
	}
	for ci, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			model := condModels[tc.model]
			c, _ := condChain(t, f, model, 1)
			h, ok := c.sides[0].prior.(*hierarchicalPrior)
			if !ok {
				t.Fatalf("W prior is %T, not *hierarchicalPrior", c.sides[0].prior)
			}
			e := tc.line*condK + tc.k
			x := slices.Clone(f.w[tc.line*condK : (tc.line+1)*condK])
			w, mu0, tau0 := x[tc.k], f.muW[e], f.tauW[e]
			lam0 := 0.0
			if h.lambda != nil {
				lam0 = f.lamW[e]
			}
			hyper := condHyperSlices(c, 0)
			saved := condCloneAll(hyper)
			// mu's and lambda's conditionals do not depend on the draws made
			// before them in updateLine (the joint's lambda factor involves
			// neither mu nor tau), so one density serves every draw; tau's
			// is conditional on the freshly drawn mu and is rebuilt per draw.
			var fixed *condDensity
			switch tc.param {
			case "mu":
				fixed = newCondDensity(t, func(v float64) float64 { return condLogJoint(model, w, v, tau0, lam0) }, math.Inf(-1), -30, 30)
			case "lambda":
				fixed = newCondDensity(t, func(v float64) float64 { return condLogJoint(model, w, mu0, tau0, v) }, 0, 0, 80)
			}
			pcg := rand.NewPCG(0, 0)
			rng := rand.New(pcg)
			var chk condCheck
			for d := range condDraws {
				condRestoreAll(hyper, saved)
				pcg.Seed(uint64(100+ci), uint64(d))
				if bad := h.updateLine(tc.line, x, rng); bad >= 0 {
					t.Fatalf("updateLine reports entry %d out of support", bad)
				}
				switch tc.param {
				case "mu":
					chk.add(fixed, h.mu[e])
				case "lambda":
					chk.add(fixed, h.lambda[e])
				case "tau":
					mu := h.mu[e]
					dens := newCondDensity(t, func(v float64) float64 { return condLogJoint(model, w, mu, v, lam0) }, 0, 0, 80)
					chk.add(dens, h.tau[e])
				}
			}
			chk.assert(t)
		})
	}
}
