package predictive

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"
	"gonum.org/v1/gonum/integrate/quad"
	"gonum.org/v1/gonum/stat/distuv"
)

// z95 is the standard normal 0.95-quantile.
var z95 = distuv.UnitNormal.Quantile(0.95)

// TestQuantileKnown checks Mixture.Quantile and Interval against mixtures
// whose quantiles are known in closed form, with the default tolerance and
// with tol = 1e-10. The search stops when Newton's error estimate is below
// tol sd; the checks allow 10 tol sd, for the estimate's neglected
// higher-order terms and the error of neglecting the far component in the
// separated mixtures (Phi(-8) = 6e-16, moving the quantile by under
// 1e-14).
func TestQuantileKnown(t *testing.T) {
	// Two unit normals at -4 and 4: symmetric, so the median is 0; at
	// p >= 0.75 the lower component's CDF is 1 to within 6e-16, so F(q) =
	// 1/2 + Phi(q-4)/2 and q = 4 + z_(2p-1); symmetrically below.
	separated := Mixture{Mu: []float64{-4, 4}, Sigma2: []float64{1, 1}}
	// Weights 1/4 and 3/4 at 0 and 10: F(q) = Phi(q)/4 below 5 and
	// 1/4 + 3 Phi(q-10)/4 above, to within Phi(-10) = 8e-24.
	weighted := Mixture{Mu: []float64{0, 10}, Sigma2: []float64{1, 1}, Weight: []float64{0.25, 0.75}}
	cases := []struct {
		name string
		m    Mixture
		p    float64
		want float64
	}{
		{"normal/0.025", Mixture{Mu: []float64{1.5}, Sigma2: []float64{4}}, 0.025, 1.5 - 2*distuv.UnitNormal.Quantile(0.975)},
		{"normal/0.5", Mixture{Mu: []float64{1.5}, Sigma2: []float64{4}}, 0.5, 1.5},
		{"normal/0.9", Mixture{Mu: []float64{1.5}, Sigma2: []float64{4}}, 0.9, 1.5 + 2*distuv.UnitNormal.Quantile(0.9)},
		{"normal/tiny", Mixture{Mu: []float64{1e3}, Sigma2: []float64{1e-12}}, 0.975, 1e3 + 1e-6*distuv.UnitNormal.Quantile(0.975)},
		{"normal/huge", Mixture{Mu: []float64{-3}, Sigma2: []float64{1e12}}, 0.1, -3 + 1e6*distuv.UnitNormal.Quantile(0.1)},
		{"equal-components", Mixture{Mu: []float64{2, 2, 2}, Sigma2: []float64{1, 1, 1}}, 0.8, 2 + distuv.UnitNormal.Quantile(0.8)},
		{"separated/0.025", separated, 0.025, -4 - z95},
		{"separated/0.25", separated, 0.25, -4},
		{"separated/0.5", separated, 0.5, 0},
		{"separated/0.75", separated, 0.75, 4},
		{"separated/0.975", separated, 0.975, 4 + z95},
		{"weighted/0.125", weighted, 0.125, 0},
		{"weighted/0.625", weighted, 0.625, 10},
		{"weighted/0.95", weighted, 0.95, 10 + distuv.UnitNormal.Quantile((0.95-0.25)/0.75)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sd := math.Sqrt(c.m.Variance())
			for _, tol := range []float64{0, 1e-10} {
				got := c.m.Quantile(c.p, tol)
				limit := 10 * tol * sd
				if tol == 0 {
					limit = 10 * DefaultTol * sd
				}
				if !scalar.EqualWithinAbs(got, c.want, limit) {
					t.Errorf("Quantile(%v, %v) = %.15g, want %.15g (error %.3g sd)", c.p, tol, got, c.want, (got-c.want)/sd)
				}
			}
		})
	}
	lo, hi := separated.Interval(0.95, 1e-10)
	if !scalar.EqualWithinAbs(lo, -4-z95, 1e-8) || !scalar.EqualWithinAbs(hi, 4+z95, 1e-8) {
		t.Errorf("separated.Interval(0.95) = [%.12g, %.12g], want -/+ %.12g", lo, hi, 4+z95)
	}
}

// TestQuantileSearch checks the documented tolerance on harder mixtures
// (skewed, components on scales from 1e-6 to 1e6, five separated modes):
// the p-quantile x* lies within tol = 1e-6 (DefaultTol) standard deviations
// of the returned x, that is CDF(x - tol sd) <= p <= CDF(x + tol sd), up
// to 1e-15 for the rounding of the CDF's sum.
func TestQuantileSearch(t *testing.T) {
	cases := []struct {
		name string
		m    Mixture
	}{
		{"skewed", Mixture{Mu: []float64{0, 0.5, 1, 8}, Sigma2: []float64{1, 0.3, 2, 0.01}}},
		{"spread-scales", Mixture{Mu: []float64{0, 0, 1}, Sigma2: []float64{1e-12, 1e12, 1}}},
		{"many-modes", Mixture{Mu: []float64{-30, -10, 0, 10, 30}, Sigma2: []float64{1, 1, 1, 1, 1}}},
	}
	for _, c := range cases {
		tol := DefaultTol * math.Sqrt(c.m.Variance())
		for _, p := range []float64{1e-4, 0.025, 0.1, 0.3, 0.5, 0.7, 0.9, 0.975, 1 - 1e-4} {
			x := c.m.Quantile(p, 0)
			if below, above := c.m.CDF(x-tol), c.m.CDF(x+tol); !(below <= p+1e-15 && above >= p-1e-15) {
				t.Errorf("%s: p = %v: CDF is %.15g at x - tol and %.15g at x + tol; the quantile is not within tol = %.3g of x = %.15g",
					c.name, p, below, above, tol, x)
			}
		}
	}
}

// TestLogProbExtreme checks that the log density stays finite, and equals
// its closed form to 1e-14 relative, when sigma^2 is 1e-12 or 1e12 and y is
// far from every component (each term of the sum underflows by itself).
func TestLogProbExtreme(t *testing.T) {
	logNormal := func(y, mu, v float64) float64 { // log N(y | mu, v)
		return -0.5*(y-mu)*(y-mu)/v - 0.5*math.Log(2*math.Pi*v)
	}
	cases := []struct {
		name string
		m    Mixture
		y    float64
		want float64
	}{
		// exp(-5e17) from the narrow component is 0; the wide one gives
		// everything.
		{"narrow-and-wide", Mixture{Mu: []float64{0, 0}, Sigma2: []float64{1e-12, 1e12}}, 1e3,
			math.Log(0.5) + logNormal(1e3, 0, 1e12)},
		// Both terms are about exp(-4e13); the nearer is larger by a
		// factor exp(9.5e12), so the sum is the nearer term alone.
		{"both-narrow-far", Mixture{Mu: []float64{0, 1}, Sigma2: []float64{1e-12, 1e-12}}, 10,
			math.Log(0.5) + logNormal(10, 1, 1e-12)},
		// Equal terms exp(-5e13): log(2 e^l / 2) = l.
		{"symmetric-far", Mixture{Mu: []float64{-1, 1}, Sigma2: []float64{1e-12, 1e-12}}, 0,
			logNormal(0, 1, 1e-12)},
		{"wide-far", Mixture{Mu: []float64{0, 0}, Sigma2: []float64{1e12, 1e12}}, 1e9,
			logNormal(1e9, 0, 1e12)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := c.m.LogProb(c.y)
			if math.IsInf(got, 0) || math.IsNaN(got) || !scalar.EqualWithinRel(got, c.want, 1e-14) {
				t.Errorf("Mixture.LogProb = %.17g, want %.17g", got, c.want)
			}
			acc := feed(t, [][]float64{{c.y}}, c.m, Settings{Samples: len(c.m.Mu)})
			res, err := acc.Finish()
			if err != nil {
				t.Fatal(err)
			}
			if got := res.Scores[0].LogDensity[0]; math.IsInf(got, 0) || math.IsNaN(got) || !scalar.EqualWithinRel(got, c.want, 1e-14) {
				t.Errorf("Accumulator log density = %.17g, want %.17g", got, c.want)
			}
		})
	}
}

// feed returns an accumulator for one entry (or len(targets[0]) entries
// with the same mixture) fed the components of m as samples.
func feed(t *testing.T, targets [][]float64, m Mixture, s Settings) *Accumulator {
	t.Helper()
	acc, err := New(targets, s)
	if err != nil {
		t.Fatal(err)
	}
	mu := make([]float64, len(targets[0]))
	for i, v := range m.Mu {
		for k := range mu {
			mu[k] = v
		}
		if err := acc.Add(mu, m.Sigma2[i]); err != nil {
			t.Fatal(err)
		}
	}
	return acc
}

// crpsNormal is the CRPS of N(mu, s^2) at y (Gneiting and Raftery 2007,
// Eq. 5): s [z (2 Phi(z) - 1) + 2 phi(z) - 1/sqrt(pi)], z = (y - mu)/s.
func crpsNormal(mu, s, y float64) float64 {
	z := (y - mu) / s
	return s * (z*(2*distuv.UnitNormal.CDF(z)-1) + 2*distuv.UnitNormal.Prob(z) - 1/math.Sqrt(math.Pi))
}

// TestCRPSNormal checks the CRPS of a one-component mixture against the
// closed form for a normal distribution, from Mixture and from an
// Accumulator. Both use A(0, 2 s^2)/2 = s/sqrt(pi) for the pair term; the
// tolerance, 1e-12 relative plus 1e-13 s absolute, covers the table's
// error in phi (below 3e-13, times 2 s) and cancellation at small z.
func TestCRPSNormal(t *testing.T) {
	cases := []struct{ mu, s, y float64 }{
		{0, 1, 0}, {0, 1, 0.3}, {2, 0.5, -1}, {0, 1, 8.9}, {0, 1, 9.1}, {0, 1, -30},
		{5, 1e-6, 5.000001}, {0, 1e6, 2e6}, {1, 3, 1},
	}
	for _, c := range cases {
		want := crpsNormal(c.mu, c.s, c.y)
		m := Mixture{Mu: []float64{c.mu}, Sigma2: []float64{c.s * c.s}}
		if got := m.CRPS(c.y); !scalar.EqualWithinAbsOrRel(got, want, 1e-13*c.s, 1e-12) {
			t.Errorf("N(%v, %v^2) at %v: Mixture.CRPS = %.15g, want %.15g", c.mu, c.s, c.y, got, want)
		}
		res, err := feed(t, [][]float64{{c.y}}, m, Settings{Samples: 1}).Finish()
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Scores[0].CRPS[0]; !scalar.EqualWithinAbsOrRel(got, want, 1e-13*c.s, 1e-12) {
			t.Errorf("N(%v, %v^2) at %v: Accumulator CRPS = %.15g, want %.15g", c.mu, c.s, c.y, got, want)
		}
	}
}

// TestCRPSIntegral checks the closed-form CRPS of small mixtures against a
// numerical integral of (F(x) - 1{x >= y})^2 over x: 16-point
// Gauss-Legendre on each unit interval from 40 sd below the lowest
// component to 40 sd above the highest. The integrand is smooth within each
// interval (y is a node) and varies on a scale of at least 0.3, so the
// rule's error is below 1e-12; the tails beyond 40 sd add under 1e-300.
func TestCRPSIntegral(t *testing.T) {
	cases := []struct {
		name string
		m    Mixture
	}{
		{"two", Mixture{Mu: []float64{-1, 2}, Sigma2: []float64{0.5, 2}}},
		{"three-weighted", Mixture{Mu: []float64{0, 0.4, 3}, Sigma2: []float64{1, 0.09, 0.25}, Weight: []float64{0.5, 0.3, 0.2}}},
		{"overlapping", Mixture{Mu: []float64{1, 1.1, 1.2, 0.9}, Sigma2: []float64{0.8, 0.81, 0.79, 0.8}}},
	}
	for _, c := range cases {
		for _, y := range []float64{-3, 0, 0.7, 2.5, 6} {
			lo, hi := math.Inf(1), math.Inf(-1)
			for s, mu := range c.m.Mu {
				sd := math.Sqrt(c.m.Sigma2[s])
				lo, hi = math.Min(lo, mu-40*sd), math.Max(hi, mu+40*sd)
			}
			lo, hi = math.Floor(math.Min(lo, y)), math.Ceil(math.Max(hi, y))
			var want float64
			edges := []float64{lo}
			for x := lo + 1; x < hi; x++ {
				if y > x-1 && y < x {
					edges = append(edges, y)
				}
				edges = append(edges, x)
			}
			edges = append(edges, hi)
			for i := 1; i < len(edges); i++ {
				a, b := edges[i-1], edges[i]
				want += quad.Fixed(func(x float64) float64 {
					d := c.m.CDF(x)
					if x >= y {
						d--
					}
					return d * d
				}, a, b, 16, quad.Legendre{}, 0)
			}
			if got := c.m.CRPS(y); !scalar.EqualWithinAbs(got, want, 1e-10) {
				t.Errorf("%s at y = %v: CRPS %.14g, integral %.14g", c.name, y, got, want)
			}
		}
	}
}

// TestGaussianInterval checks the moment-matched interval against its
// formula, and that it differs from the mixture's own interval for a
// bimodal mixture (so that the two cannot be confused).
func TestGaussianInterval(t *testing.T) {
	m := Mixture{Mu: []float64{-4, 4}, Sigma2: []float64{1, 1}}
	lo, hi := m.GaussianInterval(0.9)
	h := z95 * math.Sqrt(17) // variance 1 + 16
	if !scalar.EqualWithinAbs(lo, -h, 1e-12) || !scalar.EqualWithinAbs(hi, h, 1e-12) {
		t.Errorf("GaussianInterval(0.9) = [%v, %v], want -/+ %v", lo, hi, h)
	}
	if _, mhi := m.Interval(0.9, 0); math.Abs(mhi-hi) < 1 {
		t.Errorf("mixture interval end %v is within 1 of the Gaussian one %v", mhi, hi)
	}
}

// TestCheckLevel checks the levels the interval functions accept: those
// in (0, 1) whose ends' probabilities (1-a)/2 and (1+a)/2 stay inside
// (0, 1) in float64, which leaves out only the last float64 below 1.
func TestCheckLevel(t *testing.T) {
	below1 := math.Nextafter(1, 0) // 1 - 2^-53: (1 + a)/2 rounds to 1
	tests := []struct {
		a    float64
		want string // "" when accepted
	}{
		{0.9, ""},
		{math.SmallestNonzeroFloat64, ""},
		{MaxLevel, ""},
		{below1, "is too close to 1"},
		{1, "must be in (0, 1)"},
		{0, "must be in (0, 1)"},
		{math.NaN(), "must be in (0, 1)"},
	}
	m := Mixture{Mu: []float64{0, 1}, Sigma2: []float64{1, 4}}
	for _, tt := range tests {
		err := CheckLevel(tt.a)
		if tt.want == "" {
			if err != nil {
				t.Errorf("CheckLevel(%v) = %v, want nil", tt.a, err)
				continue
			}
			// Accepted levels give finite ends; MaxLevel's are about
			// -/+ 8.2 sd (the normal quantile at 2^-53).
			lo, hi := m.Interval(tt.a, 0)
			if math.IsInf(lo, 0) || math.IsInf(hi, 0) || !(lo <= hi) {
				t.Errorf("Interval(%v) = [%v, %v]", tt.a, lo, hi)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("CheckLevel(%v) = %v, want an error containing %q", tt.a, err, tt.want)
		}
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), tt.want) {
					t.Errorf("Interval(%v) panicked with %v, want a panic containing %q", tt.a, r, tt.want)
				}
			}()
			m.Interval(tt.a, 0)
		}()
	}
	if MaxLevel != math.Nextafter(below1, 0) {
		t.Errorf("MaxLevel is %v, want the float64 below %v", MaxLevel, below1)
	}
}
