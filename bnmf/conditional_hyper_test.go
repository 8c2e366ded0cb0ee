package bnmf

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

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
			model := condModel(tc.model)
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
			condCheckHyperDraws(t, hyper, saved, uint64(100+ci), func(rng *rand.Rand, chk *condCheck) {
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
			})
		})
	}
}

// condCheckHyperDraws makes condDraws draws of hyperparameters, each from
// the same state (the slices hyper restored to saved) with rng seeded
// with (seed, d) for draw d: draw makes one and adds its values to chk,
// which is then asserted.
func condCheckHyperDraws(t *testing.T, hyper, saved [][]float64, seed uint64, draw func(rng *rand.Rand, chk *condCheck)) {
	t.Helper()
	pcg := rand.NewPCG(0, 0)
	rng := rand.New(pcg)
	var chk condCheck
	for d := range condDraws {
		condRestoreAll(hyper, saved)
		pcg.Seed(seed, uint64(d))
		draw(rng, &chk)
	}
	chk.assert(t)
}
