package bnmf

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// Full-conditional tests of GGGU, GEG, GEEA, GLL and GLLI, as
// conditional_test.go does for the paper's models: every draw, taken
// through the sampler's own code from a fixed state (condFixture), against
// the conditional density written out here from the model's definition
// and normalised by numerical integration.

// uniCondModels are the models with the hyperparameters of these tests.
func uniCondModels() map[string]Model {
	return map[string]Model{
		"GGGU": GGGU{Lambda: 0.8},
		"GEG":  GEG{Lambda: 1.5},
		"GEEA": GEEA{Alpha0: 2, Beta0: 1.5},
		"GLL":  GLL{Eta: 2},
		"GLLI": GLLI{A: 0.5, B: 2},
		"GL21": GL21{Lambda: 1.3},
	}
}

// uniCondARD are GEEA's rates lambda_k in the fixed state.
var uniCondARD = []float64{1.5, 0.7}

// uniLogPrior returns the log prior density of entry (line, 0) of side s
// at v, up to a constant, and whether its support is the real line.
func uniLogPrior(f *condFixture, model Model, s, line int) (logp func(float64) float64, real bool) {
	e := line * condK
	tau := f.tauW
	if s == 1 {
		tau = f.tauZ
	}
	gauss := func(prec float64) func(float64) float64 { return func(v float64) float64 { return -prec * v * v / 2 } }
	expo := func(rate float64) func(float64) float64 { return func(v float64) float64 { return -rate * v } }
	switch m := model.(type) {
	case GGGU:
		return gauss(m.Lambda), true // N(0, 1/lambda)
	case GEG:
		if s == 0 {
			return expo(m.Lambda), false // Exp(lambda) on W
		}
		return gauss(m.Lambda), true // N(0, 1/lambda) on Z
	case GEEA:
		return expo(uniCondARD[0]), false // Exp(lambda_0)
	case GLL, GLLI:
		return gauss(tau[e]), true // N(0, lambda_ik) with 1/lambda_ik = tau
	case GL21:
		// -Lambda/2 (x_i0 + sum_{k>0} x_ik)^2 with the line's other
		// entries at the fixture's values.
		x := f.w
		if s == 1 {
			x = f.zt
		}
		var others float64
		for k := 1; k < condK; k++ {
			others += x[e+k]
		}
		return func(v float64) float64 { return -m.Lambda / 2 * (v + others) * (v + others) }, false
	}
	panic("no prior for " + model.Name())
}

// uniFactorLogDensity is the unnormalised log full conditional of entry
// (line, 0) of side s: the Gaussian likelihood of the line's observed
// entries times the prior.
func uniFactorLogDensity(f *condFixture, model Model, s, line int, sigma2 float64) (func(float64) float64, bool) {
	w, zt := slices.Clone(f.w), slices.Clone(f.zt)
	x := w
	if s == 1 {
		x = zt
	}
	e := line * condK
	logp, real := uniLogPrior(f, model, s, line)
	return func(v float64) float64 {
		if v < 0 && !real {
			return math.Inf(-1)
		}
		x[e] = v
		return f.addLineLogLikelihood(logp(v), w, zt, s, line, sigma2)
	}, real
}

// TestConditionalUnivariateFactorEntry checks the draw of W[i][0] (or
// Z[j][0]) by gibbsChain.updateLine for the models of uniCondModels.
func TestConditionalUnivariateFactorEntry(t *testing.T) {
	f := newCondFixture(t)
	cases := []struct {
		name   string
		model  string
		side   int // 0: a row of W, 1: a column of Z
		line   int
		sigma2 float64
	}{
		{"GGGU/W0", "GGGU", 0, 0, 0.5},
		{"GGGU/W1/negative-data", "GGGU", 0, 1, 0.05},
		{"GGGU/W2/unobserved-is-prior", "GGGU", 0, 2, 0.5},
		{"GGGU/Z3", "GGGU", 1, 3, 0.5},
		{"GEG/W0", "GEG", 0, 0, 0.5},
		{"GEG/W1/far-tail", "GEG", 0, 1, 0.05},
		{"GEG/Z3/real", "GEG", 1, 3, 0.5},
		{"GEG/Z1/one-entry", "GEG", 1, 1, 0.2},
		{"GEEA/W0", "GEEA", 0, 0, 0.5},
		{"GEEA/W1/far-tail", "GEEA", 0, 1, 0.05},
		{"GEEA/Z3", "GEEA", 1, 3, 0.5},
		{"GLL/W0", "GLL", 0, 0, 0.5},
		{"GLL/W2/unobserved", "GLL", 0, 2, 0.5},
		{"GLL/Z3", "GLL", 1, 3, 0.5},
		{"GLLI/W1/negative-data", "GLLI", 0, 1, 0.05},
		{"GLLI/Z1/one-entry", "GLLI", 1, 1, 0.2},
		{"GL21/W0", "GL21", 0, 0, 0.5},
		{"GL21/W1/far-tail", "GL21", 0, 1, 0.05},
		{"GL21/W2/unobserved-is-prior", "GL21", 0, 2, 0.5},
		{"GL21/Z3", "GL21", 1, 3, 0.5},
	}
	for ci, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			model := uniCondModels()[tc.model]
			c, p := condChain(t, f, model, tc.sigma2)
			logf, real := uniFactorLogDensity(f, model, tc.side, tc.line, tc.sigma2)
			side := &c.sides[tc.side]
			if side.real != real {
				t.Fatalf("side %s real = %v, want %v", side.name, side.real, real)
			}
			var dens *condDensity
			if real {
				dens = newCondDensity(t, logf, math.Inf(-1), -40, 40)
			} else {
				dens = newCondDensity(t, logf, 0, 0, 40)
			}
			condCheckFactorDraws(t, c, p, side, tc.line, uniHyperSlices(c), dens, uint64(ci)+500)
		})
	}
}

// uniHyperSlices returns the hyperparameter slices of a chain of the
// models here, each once: GLL's and GLLI's per-entry precisions (and
// eta), then GEEA's rates.
func uniHyperSlices(c *gibbsChain) [][]float64 {
	var out [][]float64
	for s := range c.sides {
		switch p := c.sides[s].prior.(type) {
		case *laplacePrior:
			out = append(out, p.prec)
			if p.etas != nil {
				out = append(out, p.etas)
			}
		case ardExponentialLast:
			out = append(out, p.lambda)
		}
	}
	return out
}

// uniLaplaceLogJoint is the log joint density of one entry x, its prior
// variance lambda and its eta, up to a constant:
//
//	N(x | 0, lambda) Exp(lambda | eta/2) [GIG(eta | -1/2, a, b) for GLLI],
//
// the definition of GLL and GLLI.
func uniLaplaceLogJoint(glli bool, a, b, x, lambda, eta float64) float64 {
	if !(lambda > 0 && eta > 0) || math.IsInf(lambda, 0) || math.IsInf(eta, 0) {
		return math.Inf(-1)
	}
	lp := -0.5*math.Log(lambda) - x*x/(2*lambda) + math.Log(eta/2) - eta*lambda/2
	if glli {
		lp += -1.5*math.Log(eta) - (a*eta+b/eta)/2
	}
	return lp
}

// TestConditionalUnivariateHyperparameters checks the hyperparameter draws
// against the conditionals of the models' joints: GLL's and GLLI's
// precision s = 1/lambda_ik of one entry given x (a density in s, with the
// Jacobian 1/s^2 of lambda = 1/s), GLLI's eta_ik given the lambda_ik just
// drawn, and GEEA's rates lambda_k given W and Z, whose joint with them is
// prod_k Gamma(lambda_k | Alpha0, Beta0) prod_{ik} lambda_k exp(-lambda_k x_ik).
func TestConditionalUnivariateHyperparameters(t *testing.T) {
	f := newCondFixture(t)
	cases := []struct {
		name    string
		model   string
		param   string // "prec", "eta" or "lambda"
		line, k int
	}{
		{"GLL/prec/W00", "GLL", "prec", 0, 0},
		{"GLL/prec/W11", "GLL", "prec", 1, 1},
		{"GLLI/prec/W00", "GLLI", "prec", 0, 0},
		{"GLLI/eta/W00", "GLLI", "eta", 0, 0},
		{"GLLI/eta/W21", "GLLI", "eta", 2, 1},
		{"GEEA/lambda/0", "GEEA", "lambda", 0, 0},
		{"GEEA/lambda/1", "GEEA", "lambda", 0, 1},
	}
	for ci, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			model := uniCondModels()[tc.model]
			c, _ := condChain(t, f, model, 1)
			hyper := uniHyperSlices(c)
			saved := condCloneAll(hyper)
			e := tc.line*condK + tc.k
			switch tc.param {
			case "lambda":
				m := model.(GEEA)
				g := c.sides[1].prior.(ardExponentialLast)
				var n, sum float64
				for _, x := range [][]float64{f.w, f.zt} {
					for i := tc.k; i < len(x); i += condK {
						n++
						sum += x[i]
					}
				}
				dens := newCondDensity(t, func(v float64) float64 {
					if v <= 0 {
						return math.Inf(-1)
					}
					return (m.Alpha0-1+n)*math.Log(v) - (m.Beta0+sum)*v
				}, 0, 0, 80)
				condCheckHyperDraws(t, hyper, saved, uint64(700+ci), func(rng *rand.Rand, chk *condCheck) {
					if err := g.updateGlobal(f.w, f.zt, rng); err != nil {
						t.Fatal(err)
					}
					chk.add(dens, g.lambda[tc.k])
				})
			default:
				p := c.sides[0].prior.(*laplacePrior)
				glli := p.etas != nil
				var a, b, eta0 float64
				if m, ok := model.(GLL); ok {
					eta0 = m.Eta
				} else {
					m := model.(GLLI)
					a, b, eta0 = m.A, m.B, f.lamW[e]
				}
				x := slices.Clone(f.w[tc.line*condK : (tc.line+1)*condK])
				xe := x[tc.k]
				precDens := newCondDensity(t, func(s float64) float64 {
					if !(s > 0) {
						return math.Inf(-1)
					}
					return uniLaplaceLogJoint(glli, a, b, xe, 1/s, eta0) - 2*math.Log(s)
				}, 0, 0, 400)
				condCheckHyperDraws(t, hyper, saved, uint64(700+ci), func(rng *rand.Rand, chk *condCheck) {
					if bad := p.updateLine(tc.line, x, rng); bad >= 0 {
						t.Fatalf("updateLine reports entry %d out of support", bad)
					}
					if tc.param == "prec" {
						chk.add(precDens, p.prec[e])
						return
					}
					lambda := 1 / p.prec[e]
					dens := newCondDensity(t, func(v float64) float64 { return uniLaplaceLogJoint(true, a, b, xe, lambda, v) }, 0, 0, 400)
					chk.add(dens, p.etas[e])
				})
			}
		})
	}
}
