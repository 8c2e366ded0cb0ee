package bnmf

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

// Joint-distribution tests (Geweke 2004; see geweke_test.go) of the
// row-wise Gaussian models. The marginal-conditional simulator draws the
// parameters from the prior with gonum's distributions (distuv.Gamma,
// distmat.Wishart, distmv.Normal), independently of the package's
// Cholesky and Bartlett code, and the data given them.

// mvnFunc is a bounded test function of a draw of a row-wise Gaussian
// model, or a quantity ranked by TestSBCRowwise.
type mvnFunc = stateFunc[mvnState]

func mvnGewekeFuncs(model Model, sigmaMedian float64) []mvnFunc {
	ratio := func(v float64) float64 { return v / (1 + math.Abs(v)) }
	if bm, ok := model.(Biased); ok {
		return append(mvnGewekeFuncs(bm.Model, sigmaMedian),
			mvnFunc{"mu", func(s *mvnState) float64 { return ratio(s.mu0) }},
			mvnFunc{"b[0]", func(s *mvnState) float64 { return ratio(s.b[0]) }},
			mvnFunc{"c[2]", func(s *mvnState) float64 { return ratio(s.c[2]) }},
			mvnFunc{"tau_b", func(s *mvnState) float64 { return ratio(s.tauB) }},
			mvnFunc{"tau_c", func(s *mvnState) float64 { return ratio(s.tauC) }},
			mvnFunc{"b[1]*W[1][0]", func(s *mvnState) float64 { return ratio(s.b[1] * s.w[s.k]) }},
		)
	}
	k := gewekeK
	fs := []mvnFunc{
		{"W[0][0]", func(s *mvnState) float64 { return ratio(s.w[0]) }},
		{"W[0][0]^2", func(s *mvnState) float64 { return ratio(s.w[0] * s.w[0]) }},
		{"W[0][0]W[0][1]", func(s *mvnState) float64 { return ratio(s.w[0] * s.w[1]) }},
		{"W[2][1]", func(s *mvnState) float64 { return ratio(s.w[2*k+1]) }},
		{"Z[1][1]^2", func(s *mvnState) float64 { return ratio(s.zt[k+1] * s.zt[k+1]) }},
		{"Z[1][0]Z[1][1]", func(s *mvnState) float64 { return ratio(s.zt[k] * s.zt[k+1]) }},
		{"1{sigma2<median}", func(s *mvnState) float64 {
			if s.sigma2 < sigmaMedian {
				return 1
			}
			return 0
		}},
		{"pred(0,0) observed", func(s *mvnState) float64 { return ratio(s.pred(0, 0)) }},
		{"pred(1,1)^2 unobserved", func(s *mvnState) float64 { return ratio(s.pred(1, 1) * s.pred(1, 1)) }},
		{"a(2,2)^2", func(s *mvnState) float64 { return ratio(s.a[len(s.a)-1] * s.a[len(s.a)-1]) }},
	}
	switch model.(type) {
	case GGGA:
		fs = append(fs,
			mvnFunc{"lambda[0]", func(s *mvnState) float64 { return ratio(s.lambda[0]) }},
			mvnFunc{"lambda[1]", func(s *mvnState) float64 { return ratio(s.lambda[1]) }},
		)
	case GGGW:
		fs = append(fs,
			mvnFunc{"muW[0]", func(s *mvnState) float64 { return ratio(s.mu[0][0]) }},
			mvnFunc{"muZ[1]", func(s *mvnState) float64 { return ratio(s.mu[1][1]) }},
			mvnFunc{"LambdaW[0][0]", func(s *mvnState) float64 { return ratio(s.prec[0][0]) }},
			mvnFunc{"LambdaW[0][1]", func(s *mvnState) float64 { return ratio(s.prec[0][1]) }},
			mvnFunc{"LambdaZ[1][1]", func(s *mvnState) float64 { return ratio(s.prec[1][k*k-1]) }},
		)
	}
	return fs
}

// mvnGewekeMarginal runs the marginal-conditional simulator.
func mvnGewekeMarginal(t *testing.T, model Model, fs []mvnFunc, n int, seed uint64) (mean, se []float64) {
	g := newGewekeSampler(seed)
	st := newMVNState(gewekeRows, gewekeCols, gewekeK, len(gewekeObserved()))
	return gewekeMarginalMoments(fs, st, n, func() {
		mvnDrawParams(t, g, model, st)
		mvnDrawData(g, st)
	})
}

// mvnDrawData draws every observed entry of the Geweke matrix from
// N(w_i . z_j, sigma^2).
func mvnDrawData(g gewekeSampler, st *mvnState) {
	sd := math.Sqrt(st.sigma2)
	for q, ij := range gewekeObserved() {
		st.a[q] = st.pred(ij[0], ij[1]) + sd*g.rng.NormFloat64()
	}
}

// mvnGewekeSuccessive runs the successive-conditional simulator from an
// exact prior draw, with batch-means standard errors.
func mvnGewekeSuccessive(t *testing.T, model Model, mutant bool, fs []mvnFunc, n int, seed uint64) (mean, se []float64) {
	g := newGewekeSampler(seed)
	st := newMVNState(gewekeRows, gewekeCols, gewekeK, len(gewekeObserved()))
	mvnDrawParams(t, g, model, st)
	mvnDrawData(g, st)
	data := observedMatrix(t, gewekeRows, gewekeCols, gewekeObserved(), st.a)
	c := mvnTestChain(t, model, data, gewekeK, mutant)
	p := newPool(1, seed, c.scratchSize())
	defer p.close()
	mvnWrite(t, c, p, st, 0)
	return gewekeBatchMoments(fs, st, n, func(s int) {
		if err := c.sweep(p, s); err != nil {
			t.Fatal(err)
		}
		mvnRead(c, st)
		mvnDrawData(g, st)
		mvnWriteData(t, c, p, st, s)
	})
}

// mvnGewekeModels returns the row-wise Gaussian models with the
// hyperparameters of the joint-distribution and calibration tests, chosen
// so that factors and hyperparameters stay of order one: GGG Lambda 2;
// GGGA Alpha0 = 3, Beta0 = 4 (lambda of mean 0.75 whose inverse has a
// mean); GGGW Mu0 0.2, Beta0 2, V0 5 (K + 3, so that Sigma has a mean),
// W0 2; sigma^2 ~ InvGamma(3, 2) for all.
func mvnGewekeModels() []Model {
	return []Model{
		GGG{Lambda: 2, Likelihood: gewekeLik()},
		GGGA{Alpha0: 3, Beta0: 4, Likelihood: gewekeLik()},
		GGGW{Mu0: 0.2, Beta0: 2, V0: 5, W0: 2, Likelihood: gewekeLik()},
	}
}

// TestGewekeRowwise compares the two simulators for GGG, GGGA and GGGW on
// the Geweke test's 3 x 3 matrix at K = 2, and shows on GGGW with the
// reference code's uncentred Normal-inverse-Wishart scale matrix that the
// comparison has power. Sizes, limits and their reasons are those of
// TestGewekeJointDistribution; there are 74 comparisons here (37 of them
// for GGG and GGGW with offsets), for a false alarm probability below
// 3e-3. It takes about 7 s, and runs under
// -short too: it is the one test of every step of a sweep together.
func TestGewekeRowwise(t *testing.T) {
	skipUnderRace(t)
	models := mvnGewekeModels()
	cases := []struct {
		name   string
		model  Model
		mutant bool
	}{
		{"GGG", models[0], false},
		{"GGGA", models[1], false},
		{"GGGW", models[2], false},
		{"GGGW/uncentred-scale", models[2], true},
		{"GGG+b", Biased{Model: models[0], Offsets: gewekeOffsets()}, false},
		{"GGGW+b", Biased{Model: models[2], Offsets: gewekeOffsets()}, false},
	}
	const nMarginal, nSuccessive = 100000, 200000
	for ci, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			lik := gewekeLik()
			median := 1 / distuvGammaQuantile(lik.AlphaSigma, lik.BetaSigma, 0.5)
			fs := mvnGewekeFuncs(tc.model, median)
			mm, ms := mvnGewekeMarginal(t, tc.model, fs, nMarginal, uint64(2*ci+101))
			sm, ss := mvnGewekeSuccessive(t, tc.model, tc.mutant, fs, nSuccessive, uint64(2*ci+102))
			gewekeCompare(t, stateFuncNames(fs), mm, ms, sm, ss, tc.mutant, "the uncentred scale matrix")
		})
	}
}

// distuvGammaQuantile returns the p-quantile of Gamma(shape, rate).
func distuvGammaQuantile(shape, rate, p float64) float64 {
	return distuv.Gamma{Alpha: shape, Beta: rate}.Quantile(p)
}
