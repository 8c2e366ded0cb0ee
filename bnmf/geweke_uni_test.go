package bnmf

import (
	"fmt"
	"math"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

// The joint-distribution test (geweke_test.go) of GGGU, GEG, GEEA, GLL and
// GLLI on the same 3 x 3 matrix with two unobserved entries at K = 2, with
// the exact prior samplers of sim_uni_test.go, and GEEA with a wrong rate
// conditional (uniWrongARD) to show the test's power.

// uniGewekeModels are the models with the hyperparameters of the Geweke
// test, chosen so that the factors, hyperparameters and sigma^2 stay of
// order one; sigma^2 ~ InvGamma(3, 2) as for the other models.
func uniGewekeModels() []Model {
	return []Model{
		GGGU{Lambda: 1, Likelihood: gewekeLik()},
		GEG{Lambda: 1, Likelihood: gewekeLik()},
		GEEA{Alpha0: 3, Beta0: 2, Likelihood: gewekeLik()},
		GLL{Eta: 2, Likelihood: gewekeLik()},
		GLLI{A: 1, B: 2, Likelihood: gewekeLik()},
		GL21{Lambda: 2, Likelihood: gewekeLik()},
	}
}

// uniFunc is a bounded test function of a draw of a model of
// uniGewekeModels, or a quantity ranked by TestSBCUnivariate.
type uniFunc = stateFunc[uniState]

// uniGewekeFuncs returns the test functions: factors (and, the priors of
// the real-valued models being symmetric, their absolute values, whose
// means are not zero by symmetry), sigma^2, predictions, data and the
// first and last element of every hyperparameter array, and with offsets
// (st.b set) those of TestGewekeRowwise: mu, b[0], c[2], tau_b, tau_c
// and b[1]W[1][0], with c[1]Z[1][1] for the columns of Z.
func uniGewekeFuncs(st *uniState, lik Likelihood) []uniFunc {
	ratio := func(v float64) float64 { return v / (1 + math.Abs(v)) }
	median := 1 / distuv.Gamma{Alpha: lik.AlphaSigma, Beta: lik.BetaSigma}.Quantile(0.5)
	k := gewekeK
	fs := []uniFunc{
		{"W[0][0]", func(s *uniState) float64 { return ratio(s.w[0]) }},
		{"|W[0][0]|", func(s *uniState) float64 { return ratio(math.Abs(s.w[0])) }},
		{"|W[2][1]|", func(s *uniState) float64 { return ratio(math.Abs(s.w[2*k+1])) }},
		{"|Z[1][1]|", func(s *uniState) float64 { return ratio(math.Abs(s.zt[1*k+1])) }},
		{"1{sigma2<median}", func(s *uniState) float64 {
			if s.sigma2 < median {
				return 1
			}
			return 0
		}},
		{"pred(0,0) observed", func(s *uniState) float64 { return ratio(s.pred(k, 0, 0)) }},
		{"pred(1,1) unobserved", func(s *uniState) float64 { return ratio(s.pred(k, 1, 1)) }},
		{"a(2,2)^2", func(s *uniState) float64 { return ratio(s.a[len(s.a)-1] * s.a[len(s.a)-1]) }},
	}
	for h := range st.hyper {
		last := len(st.hyper[h]) - 1
		fs = append(fs,
			uniFunc{fmt.Sprintf("hyper%d[0]", h), func(s *uniState) float64 { return ratio(s.hyper[h][0]) }},
			uniFunc{fmt.Sprintf("hyper%d[%d]", h, last), func(s *uniState) float64 { return ratio(s.hyper[h][last]) }},
		)
	}
	if st.b != nil {
		fs = append(fs,
			uniFunc{"mu", func(s *uniState) float64 { return ratio(s.mu0) }},
			uniFunc{"b[0]", func(s *uniState) float64 { return ratio(s.b[0]) }},
			uniFunc{"c[2]", func(s *uniState) float64 { return ratio(s.c[2]) }},
			uniFunc{"tau_b", func(s *uniState) float64 { return ratio(s.tauB) }},
			uniFunc{"tau_c", func(s *uniState) float64 { return ratio(s.tauC) }},
			uniFunc{"b[1]*W[1][0]", func(s *uniState) float64 { return ratio(s.b[1] * s.w[k]) }},
			uniFunc{"c[1]*Z[1][1]", func(s *uniState) float64 { return ratio(s.c[1] * s.zt[k+1]) }},
		)
	}
	return fs
}

// uniLikelihood returns the model's Likelihood (for a Biased model, its
// inner model's).
func uniLikelihood(model Model) Likelihood {
	switch m := model.(type) {
	case Biased:
		return uniLikelihood(m.Model)
	case GGGU:
		return m.Likelihood
	case GEG:
		return m.Likelihood
	case GEEA:
		return m.Likelihood
	case GLL:
		return m.Likelihood
	case GLLI:
		return m.Likelihood
	case GL21:
		return m.Likelihood
	}
	panic("no likelihood for " + model.Name())
}

var uniGewekeShape = uniShape{rows: gewekeRows, cols: gewekeCols, k: gewekeK, observed: len(gewekeObserved())}

// uniDrawData draws every observed entry from N(w_i . z_j, sigma^2).
func uniDrawData(g gewekeSampler, st *uniState, k int, cells [][2]int) {
	sd := math.Sqrt(st.sigma2)
	for q, ij := range cells {
		st.a[q] = st.pred(k, ij[0], ij[1]) + sd*g.rng.NormFloat64()
	}
}

// uniGewekeMarginal runs the marginal-conditional simulator.
func uniGewekeMarginal(model Model, fs []uniFunc, n int, seed uint64) (mean, se []float64) {
	g := newGewekeSampler(seed)
	st := newUniState(model, uniGewekeShape)
	return gewekeMarginalMoments(fs, st, n, func() {
		uniDrawParams(g, model, gewekeK, st)
		uniDrawData(g, st, gewekeK, gewekeObserved())
	})
}

// uniGewekeSuccessive runs the successive-conditional simulator from an
// exact prior draw and returns batch means and their standard errors.
func uniGewekeSuccessive(t *testing.T, model Model, mutant bool, fs []uniFunc, n int, seed uint64) (mean, se []float64) {
	t.Helper()
	g := newGewekeSampler(seed)
	st := newUniState(model, uniGewekeShape)
	uniDrawParams(g, model, gewekeK, st)
	uniDrawData(g, st, gewekeK, gewekeObserved())
	data := observedMatrix(t, gewekeRows, gewekeCols, gewekeObserved(), st.a)
	c := uniChain(t, model, data, gewekeK, mutant)
	p := newPool(1, seed, c.scratchSize())
	defer p.close()
	uniWrite(t, c, p, st, 0)
	return gewekeBatchMoments(fs, st, n, func(s int) {
		if err := c.sweep(p, s); err != nil {
			t.Fatal(err)
		}
		uniRead(c, st)
		uniDrawData(g, st, gewekeK, gewekeObserved())
		gibbsWriteData(t, c, p, st.a, s)
	})
}

// TestGewekeUnivariate is TestGewekeJointDistribution for the models of
// uniGewekeModels. Its 5 models have 60 test functions in all; at
// |z| < gewekeZLimit each (about 4e-5 per function), a correct sampler
// fails with probability below 3e-3. The wrong GEEA rate conditional
// (uniWrongARD) and the wrong GLL variance conditional (uniWrongLaplace)
// must each give some |z| above gewekeMutantZ.
func TestGewekeUnivariate(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a million sweeps: several seconds")
	}
	type tcase struct {
		name   string
		model  Model
		mutant bool
	}
	var cases []tcase
	for _, m := range uniGewekeModels() {
		cases = append(cases, tcase{m.Name(), m, false})
	}
	cases = append(cases,
		tcase{"GEEA/wrong-rate-shape", uniGewekeModels()[2], true},
		tcase{"GLL/wrong-variance-rate", uniGewekeModels()[3], true},
		tcase{"GL21/coupling-forgotten", uniGewekeModels()[5], true})
	// Sizes as in TestGewekeJointDistribution.
	const nMarginal, nSuccessive = 100000, 200000
	for ci, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fs := uniGewekeFuncs(newUniState(tc.model, uniGewekeShape), uniLikelihood(tc.model))
			mm, ms := uniGewekeMarginal(tc.model, fs, nMarginal, uint64(4000+2*ci))
			sm, ss := uniGewekeSuccessive(t, tc.model, tc.mutant, fs, nSuccessive, uint64(4001+2*ci))
			gewekeCompare(t, stateFuncNames(fs), mm, ms, sm, ss, tc.mutant, "the wrong conditional")
		})
	}
}
