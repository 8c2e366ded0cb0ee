package bnmf

import (
	"fmt"
	"slices"
	"testing"
)

// Simulation-based calibration (TestSBC) of GGGU, GEG, GEEA, GLL and GLLI,
// with the same sizes, thinning, rank statistics and family error rate,
// on the same 12 x 10 matrix at K = 3 with 40 observed entries, and
// GEEA's wrong rate conditional (uniWrongARD) as the sampler it must
// reject.

// uniSBCModels are the models with the hyperparameters of the calibration
// runs, chosen so that a prediction w_i . z_j has a prior variance near
// that of the noise (sigma^2 ~ InvGamma(3, 2), mean 1): the per-entry
// prior variance is 1/2 for GGGU and GEG (Lambda 2; second moment 1/2 for
// W of GEG), 2/Eta = 1/2 for GLL, and about 1/2 for GLLI (eta around its
// prior mean sqrt(B/A) = 4); GEEA's rates have prior mean 2.
func uniSBCModels() []Model {
	return []Model{
		GGGU{Lambda: 2, Likelihood: gewekeLik()},
		GEG{Lambda: 2, Likelihood: gewekeLik()},
		GEEA{Alpha0: 6, Beta0: 3, Likelihood: gewekeLik()},
		GLL{Eta: 4, Likelihood: gewekeLik()},
		GLLI{A: 1, B: 16, Likelihood: gewekeLik()},
		GL21{Lambda: 4, Likelihood: gewekeLik()},
	}
}

// uniSBCShape is defaultSimShape's matrix, rank and training entries.
func uniSBCShape() uniShape {
	sh := defaultSimShape()
	return uniShape{rows: sh.rows, cols: sh.cols, k: sh.k, observed: sh.train}
}

// uniQuantities are the ranked quantities: two entries of W and two of
// Z, sigma^2, the prediction w_0 . z_0 and, for every hyperparameter
// array, its first element and its mean.
func uniQuantities(st *uniState, sh uniShape) []uniFunc {
	k := sh.k
	wLast, zLast := (sh.rows-1)*k+k-1, (sh.cols-1)*k+k-1
	qs := []uniFunc{
		{"W[0][0]", func(s *uniState) float64 { return s.w[0] }},
		{fmt.Sprintf("W[%d][%d]", sh.rows-1, k-1), func(s *uniState) float64 { return s.w[wLast] }},
		{"Z[1][0]", func(s *uniState) float64 { return s.zt[1] }},
		{fmt.Sprintf("Z[%d][%d]", k-1, sh.cols-1), func(s *uniState) float64 { return s.zt[zLast] }},
		{"sigma2", func(s *uniState) float64 { return s.sigma2 }},
		{"pred(0,0)", func(s *uniState) float64 { return s.pred(k, 0, 0) }},
	}
	for h := range st.hyper {
		qs = append(qs,
			uniFunc{fmt.Sprintf("hyper%d[0]", h), func(s *uniState) float64 { return s.hyper[h][0] }},
			uniFunc{fmt.Sprintf("mean hyper%d", h), func(s *uniState) float64 { return sbcMean(s.hyper[h]) }},
		)
	}
	return qs
}

// uniReplicate is one draw from a model's joint prior on uniSBCShape: the
// parameters and the training values at cells (row-major).
type uniReplicate struct {
	st    *uniState
	cells [][2]int
}

// uniDrawReplicate draws the training cells uniformly without
// replacement, the parameters from the joint prior and the values from
// the likelihood, from one stream seeded with seed.
func uniDrawReplicate(model Model, sh uniShape, seed uint64) *uniReplicate {
	g := newGewekeSampler(seed)
	cells := g.rng.Perm(sh.rows * sh.cols)[:sh.observed]
	slices.Sort(cells)
	r := &uniReplicate{st: newUniState(model, sh)}
	for _, v := range cells {
		r.cells = append(r.cells, [2]int{v / sh.cols, v % sh.cols})
	}
	uniDrawParams(g, model, sh.k, r.st)
	uniDrawData(g, r.st, sh.k, r.cells)
	return r
}

// uniSBCRun runs one replicate's chain from the true parameters and ranks
// each quantity's true value among its thinned draws, as sbcRun does.
func uniSBCRun(t *testing.T, model Model, mutant bool, qs []uniFunc, sh uniShape, r *uniReplicate, th sbcThinning, seed uint64) sbcOutcome {
	t.Helper()
	data := observedMatrix(t, sh.rows, sh.cols, r.cells, r.st.a)
	c := uniChain(t, model, data, sh.k, mutant)
	p := newPool(1, seed, c.scratchSize())
	defer p.close()
	uniWrite(t, c, p, r.st, 0)
	st := newUniState(model, sh)
	return sbcRankChain(t, th, qs, r.st, st, func(n int) error {
		if err := c.sweep(p, n); err != nil {
			return fmt.Errorf("%s: %w", model.Name(), err)
		}
		uniRead(c, st)
		return nil
	})
}

// TestSBCUnivariate is TestSBC for the models of uniSBCModels, with a
// Bonferroni bound over their quantities, and GEEA with uniWrongARD,
// which must be rejected.
func TestSBCUnivariate(t *testing.T) {
	skipUnderRace(t)
	size := sbcSizeFor()
	sh := uniSBCShape()
	study := func(name string, model Model, mutant bool, seed uint64) sbcStudy {
		qs := uniQuantities(newUniState(model, sh), sh)
		return sbcStudy{name: name, mutant: mutant, quantities: stateFuncNames(qs),
			replicate: func(t *testing.T, r int) sbcOutcome {
				rep := uniDrawReplicate(model, sh, replicateSeed(seed, r))
				return uniSBCRun(t, model, mutant, qs, sh, rep, size.th, replicateSeed(seed+1, r))
			}}
	}
	var studies []sbcStudy
	models := uniSBCModels()
	for mi, m := range models {
		studies = append(studies, study(m.Name(), m, false, uint64(5000+10*mi)))
	}
	// The mutants see the same replicates as GEEA (models[2], seed 5020)
	// and GL21 (models[5], seed 5050).
	studies = append(studies, study("GEEA-wrong-rate-shape", models[2], true, 5020),
		study("GL21-coupling-forgotten", models[5], true, 5050))
	// The ranks are not written with -sbc.out, which results/sbc and
	// results/sbc-rowwise use for TestSBC's and TestSBCRowwise's.
	checkSBC(t, size, studies, "the wrong conditional", "")
}
