package bnmf

import (
	"fmt"
	"math"
	"slices"
	"testing"
)

// Simulation-based calibration (see TestSBC) of the row-wise Gaussian
// models, in the same harness: the same shape (defaultSimShape), sizes
// (sbcSizeFor), thinning by effective sample size, chi-square test and
// Bonferroni bound, with the models and prior samplers of the
// joint-distribution test (mvnGewekeModels, mvnDrawParams).

// mvnReplicate is one draw from a row-wise model's joint prior on the
// calibration shape.
type mvnReplicate struct {
	st    *mvnState
	train [][2]int
}

// drawMVNReplicate draws the training cells uniformly without
// replacement, the parameters from the prior and the values from the
// likelihood, from one stream seeded with seed.
func drawMVNReplicate(t testing.TB, model Model, sh simShape, seed uint64) *mvnReplicate {
	g := newGewekeSampler(seed)
	cells := g.rng.Perm(sh.rows * sh.cols)[:sh.train]
	slices.Sort(cells)
	r := &mvnReplicate{st: newMVNState(sh.rows, sh.cols, sh.k, sh.train)}
	for _, c := range cells {
		r.train = append(r.train, [2]int{c / sh.cols, c % sh.cols})
	}
	mvnDrawParams(t, g, model, r.st)
	sd := math.Sqrt(r.st.sigma2)
	for q, ij := range r.train {
		r.st.a[q] = r.st.pred(ij[0], ij[1]) + sd*g.rng.NormFloat64()
	}
	return r
}

// mvnSBCQuantities returns the ranked quantities: entries of W and Z at
// both ends, sigma^2, the prediction w_0 . z_0 and, for GGGA, lambda_0 and
// the mean of lambda; for GGGW, mu and the diagonal of Lambda of each
// side's first dimension, and the trace of Lambda_W. A trace moves with
// every entry of the conditional's scale matrix.
func mvnSBCQuantities(model Model, sh simShape) []mvnFunc {
	if bm, ok := model.(Biased); ok {
		return append(mvnSBCQuantities(bm.Model, sh),
			mvnFunc{"mu", func(s *mvnState) float64 { return s.mu0 }},
			mvnFunc{"b[0]", func(s *mvnState) float64 { return s.b[0] }},
			mvnFunc{fmt.Sprintf("c[%d]", sh.cols-1), func(s *mvnState) float64 { return s.c[sh.cols-1] }},
			mvnFunc{"tau_b", func(s *mvnState) float64 { return s.tauB }},
			mvnFunc{"tau_c", func(s *mvnState) float64 { return s.tauC }},
		)
	}
	k := sh.k
	wLast, zLast := (sh.rows-1)*k+k-1, (sh.cols-1)*k+k-1
	qs := []mvnFunc{
		{"W[0][0]", func(s *mvnState) float64 { return s.w[0] }},
		{fmt.Sprintf("W[%d][%d]", sh.rows-1, k-1), func(s *mvnState) float64 { return s.w[wLast] }},
		{"Z[1][0]", func(s *mvnState) float64 { return s.zt[1] }},
		{fmt.Sprintf("Z[%d][%d]", k-1, sh.cols-1), func(s *mvnState) float64 { return s.zt[zLast] }},
		{"sigma2", func(s *mvnState) float64 { return s.sigma2 }},
		{"pred(0,0)", func(s *mvnState) float64 { return s.pred(0, 0) }},
	}
	switch model.(type) {
	case GGGA:
		qs = append(qs,
			mvnFunc{"lambda[0]", func(s *mvnState) float64 { return s.lambda[0] }},
			mvnFunc{"mean lambda", func(s *mvnState) float64 { return sbcMean(s.lambda) }},
		)
	case GGGW:
		trace := func(p []float64) float64 {
			var v float64
			for a := range k {
				v += p[a*k+a]
			}
			return v
		}
		qs = append(qs,
			mvnFunc{"muW[0]", func(s *mvnState) float64 { return s.mu[0][0] }},
			mvnFunc{"muZ[0]", func(s *mvnState) float64 { return s.mu[1][0] }},
			mvnFunc{"LambdaW[0][0]", func(s *mvnState) float64 { return s.prec[0][0] }},
			mvnFunc{"LambdaZ[0][0]", func(s *mvnState) float64 { return s.prec[1][0] }},
			mvnFunc{"trace LambdaW", func(s *mvnState) float64 { return trace(s.prec[0]) }},
		)
	}
	return qs
}

// mvnSBCModels returns the models of the calibration study: GGG Lambda 2;
// GGGA Alpha0 = Beta0 = 10 (lambda_k near 1, within about 0.3); GGGW Mu0
// 0.2, Beta0 20, V0 = W0 = 12 (Sigma of mean 1.5 I, mu within about 0.3
// of Mu0); sigma^2 ~ InvGamma(3, 2) for all. With Beta0 2, GGGW's chains
// needed 12,500 sweeps per replicate on average (the means mu drift with
// the rows), with Beta0 20 about 2,000.
func mvnSBCModels() []Model {
	return []Model{
		GGG{Lambda: 2, Likelihood: gewekeLik()},
		GGGA{Alpha0: 10, Beta0: 10, Likelihood: gewekeLik()},
		GGGW{Mu0: 0.2, Beta0: 20, V0: 12, W0: 12, Likelihood: gewekeLik()},
	}
}

// mvnSBCRun runs one replicate's chain from the true parameters, thinned
// as sbcRun does, and ranks each true value among the kept draws.
func mvnSBCRun(t *testing.T, model Model, mutant bool, qs []mvnFunc, sh simShape, r *mvnReplicate, th sbcThinning, seed uint64) sbcOutcome {
	t.Helper()
	data := observedMatrix(t, sh.rows, sh.cols, r.train, r.st.a)
	c := mvnTestChain(t, model, data, sh.k, false)
	if mutant {
		h := c.hyper.(isotropicPrior)
		h.lambda /= 2
		c.hyper = h
	}
	p := newPool(1, seed, c.scratchSize())
	defer p.close()
	mvnWrite(t, c, p, r.st, 0)
	st := newMVNState(sh.rows, sh.cols, sh.k, sh.train)
	if c.off != nil {
		st.b, st.c = make([]float64, sh.rows), make([]float64, sh.cols)
	}
	return sbcRankChain(t, th, qs, r.st, st, func(n int) error {
		if err := c.sweep(p, n); err != nil {
			return fmt.Errorf("%s: %w", model.Name(), err)
		}
		mvnRead(c, st)
		return nil
	})
}

// TestSBCRowwise is simulation-based calibration of GGG, GGGA and GGGW,
// with GGG whose row conditionals use half the prior precision as the
// sampler that must be rejected. Each quantity's chi-square test rejects
// at sbcFamily over the number of quantities of the three models.
//
// The hyperparameters are mvnSBCModels', tighter than the Geweke test's:
// with those, GGGA's and GGGW's chains on the calibration shape needed
// 17,000 to 18,000 sweeps on average to reach the effective sample size
// (their scale drifts along the ridge (w c, z / c) of the likelihood),
// and the uncentred scale matrix that the Geweke test rejects moved the
// ranks too little to be seen at 100 replicates (smallest p 0.06).
func TestSBCRowwise(t *testing.T) {
	skipUnderRace(t)
	size := sbcSizeFor()
	sh := defaultSimShape()
	models := mvnSBCModels()
	study := func(name string, model Model, mutant bool, seed uint64) sbcStudy {
		qs := mvnSBCQuantities(model, sh)
		return sbcStudy{name: name, mutant: mutant, quantities: stateFuncNames(qs),
			replicate: func(t *testing.T, r int) sbcOutcome {
				rep := drawMVNReplicate(t, model, sh, replicateSeed(seed, r))
				return mvnSBCRun(t, model, mutant, qs, sh, rep, size.th, replicateSeed(seed+1, r))
			}}
	}
	var studies []sbcStudy
	for mi, m := range models {
		studies = append(studies, study(m.Name(), m, false, uint64(5000+10*mi)))
	}
	// GGG with offsets (the Geweke test's offsets' hyperparameters).
	biased := Biased{Model: models[0], Offsets: gewekeOffsets()}
	studies = append(studies, study(biased.Name(), biased, false, 5100))
	// The mutant sees the same replicates as GGG.
	studies = append(studies, study("GGG-half-prior-precision", models[0], true, 5000))
	checkSBC(t, size, studies, "the halved prior precision", *sbcOut)
}
