package bnmf

import (
	"math"
	"slices"
	"testing"
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
		{Row: 0, Col: 0, Value: 1.3}, {Row: 0, Col: 1, Value: 0.4}, {Row: 0, Col: 3, Value: 2.1},
		{Row: 1, Col: 0, Value: -4.0}, {Row: 1, Col: 2, Value: -3.5}, {Row: 1, Col: 3, Value: -4.2},
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

// condModel returns the model named name with the hyperparameters of the
// conditional tests.
func condModel(name string) Model {
	return map[string]Model{
		"GEE":  GEE{Lambda: 1.5},
		"GTT":  GTT{Mu: 0.8, Tau: 2},
		"GTTN": GTTN{MuMu: 0.5, TauMu: 1, A: 2, B: 1.5},
		"GRRN": GRRN{MuMu: 0.5, TauMu: 1, A: 2, B: 1.5, AlphaLambda: 2, BetaLambda: 1},
	}[name]
}

// condChain builds the model's chain on the fixture, sets its state and
// returns it with a one-worker pool. The state is the fixture's factors
// and, by prior: its mu, tau and lambda as a hierarchical prior's; its tau
// as GLL's and GLLI's prior precisions 1/lambda_ik and its lambda as
// GLLI's eta_ik; uniCondARD as GEEA's rates.
func condChain(t *testing.T, f *condFixture, model Model, sigma2 float64) (*gibbsChain, *pool) {
	t.Helper()
	c := gibbsChainOf(t, model, f.data, condK)
	copy(c.w, f.w)
	copy(c.zt, f.zt)
	for s, hyper := range [2][3][]float64{{f.muW, f.tauW, f.lamW}, {f.muZ, f.tauZ, f.lamZ}} {
		switch p := c.sides[s].prior.(type) {
		case *hierarchicalPrior:
			copy(p.mu, hyper[0])
			copy(p.tau, hyper[1])
			if p.lambda != nil {
				copy(p.lambda, hyper[2])
			}
		case *laplacePrior:
			copy(p.prec, hyper[1])
			if p.etas != nil {
				copy(p.etas, hyper[2])
			}
		case ardExponentialPrior:
			copy(p.lambda, uniCondARD)
		case ardExponentialLast:
			copy(p.lambda, uniCondARD)
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
		lp := f.addLineLogLikelihood(0, w, zt, s, line, sigma2)
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

// addLineLogLikelihood returns lp plus the log Gaussian likelihood, up to
// a constant, of the observed entries of line (a row of W for s = 0, a
// column of Z for s = 1) given the factors w and zt: lp less
// (a_mn - w_m . z_n)^2 / (2 sigma2) for each entry, in the fixture's
// order.
func (f *condFixture) addLineLogLikelihood(lp float64, w, zt []float64, s, line int, sigma2 float64) float64 {
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
	return lp
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
			model := condModel(tc.model)
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
			condCheckFactorDraws(t, c, p, &c.sides[tc.side], tc.line, condHyperSlices(c, tc.side), dens, uint64(ci)+1)
		})
	}
}

// condCheckFactorDraws draws line (a row of W or a column of Z, as side
// is) condDraws times by gibbsChain.updateLine, each time from the same
// state (the factors, residuals and the hyperparameter slices hyper
// restored) with p's first worker's stream seeded with (seed, d) for draw
// d, and checks the draws of the line's first entry against dens; after
// the first draw, the residuals must match the data (condCheckResiduals).
func condCheckFactorDraws(t *testing.T, c *gibbsChain, p *pool, side *factorSide, line int, hyper [][]float64, dens *condDensity, seed uint64) {
	t.Helper()
	e := line * condK
	saved := slices.Clone(side.x)
	savedResid := slices.Clone(c.resid)
	savedHyper := condCloneAll(hyper)
	wk := p.workers[0]
	var chk condCheck
	for d := range condDraws {
		copy(side.x, saved)
		copy(c.resid, savedResid)
		condRestoreAll(hyper, savedHyper)
		wk.pcg.Seed(seed, uint64(d))
		if err := c.updateLine(side, wk, line); err != nil {
			t.Fatal(err)
		}
		chk.add(dens, side.x[e])
		if d == 0 {
			condCheckResiduals(t, c)
		}
	}
	chk.assert(t)
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
