package bnmf

import (
	"fmt"
	"math"
	"testing"

	"github.com/bnmf-lab/bnmf/mcmcdiag"
)

// The machinery of simulation-based calibration (sbc_test.go): the
// quantities whose ranks are recorded, and the chain of one replicate,
// started at the true parameters.

// sbcQuantities returns the quantities ranked for a model on shape sh: two
// entries of W and two of Z (first and last line, different factors),
// sigma^2, the prediction w_0 . z_0 (the same under any relabelling of the
// factors) and, for GTTN and GRRN, the hyperparameters mu, tau (and
// lambda) of the W and Z entries ranked and the means of mu and tau (and
// lambda) over all entries of W. A mean moves with every entry's
// hyperparameters, so a conditional that is slightly wrong for each entry
// shifts it by many of its posterior standard deviations: GTTN's wrong tau
// shape (gewekeWrongTauShape) moves each tau by about a quarter of its
// posterior spread, too little to see in one entry's ranks at a hundred
// replicates, but the mean of 36 of them by much more.
func sbcQuantities(h gewekeHyper, sh simShape) []gewekeFunc {
	k := sh.k
	wLast, zLast := (sh.rows-1)*k+k-1, (sh.cols-1)*k+k-1
	qs := []gewekeFunc{
		{"W[0][0]", func(s *gewekeState) float64 { return s.w[0] }},
		{fmt.Sprintf("W[%d][%d]", sh.rows-1, k-1), func(s *gewekeState) float64 { return s.w[wLast] }},
		{"Z[1][0]", func(s *gewekeState) float64 { return s.zt[1] }},
		{fmt.Sprintf("Z[%d][%d]", k-1, sh.cols-1), func(s *gewekeState) float64 { return s.zt[zLast] }},
		{"sigma2", func(s *gewekeState) float64 { return s.sigma2 }},
		{"pred(0,0)", func(s *gewekeState) float64 { return simPred(s, k, 0, 0) }},
	}
	if h.hierarchical {
		qs = append(qs,
			gewekeFunc{"muW[0][0]", func(s *gewekeState) float64 { return s.mu[0][0] }},
			gewekeFunc{"tauW[0][0]", func(s *gewekeState) float64 { return s.tau[0][0] }},
			gewekeFunc{fmt.Sprintf("muZ[%d][%d]", k-1, sh.cols-1), func(s *gewekeState) float64 { return s.mu[1][zLast] }},
			gewekeFunc{fmt.Sprintf("tauZ[%d][%d]", k-1, sh.cols-1), func(s *gewekeState) float64 { return s.tau[1][zLast] }},
			gewekeFunc{"mean muW", func(s *gewekeState) float64 { return sbcMean(s.mu[0]) }},
			gewekeFunc{"mean tauW", func(s *gewekeState) float64 { return sbcMean(s.tau[0]) }},
		)
	}
	if h.biases {
		qs = append(qs,
			gewekeFunc{"mu", func(s *gewekeState) float64 { return s.mu0 }},
			gewekeFunc{"b[0]", func(s *gewekeState) float64 { return s.b[0] }},
			gewekeFunc{fmt.Sprintf("c[%d]", sh.cols-1), func(s *gewekeState) float64 { return s.c[sh.cols-1] }},
			gewekeFunc{"tau_b", func(s *gewekeState) float64 { return s.tauB }},
			gewekeFunc{"tau_c", func(s *gewekeState) float64 { return s.tauC }},
		)
	}
	if h.withLambda {
		qs = append(qs,
			gewekeFunc{"lambdaW[0][0]", func(s *gewekeState) float64 { return s.lambda[0][0] }},
			gewekeFunc{fmt.Sprintf("lambdaZ[%d][%d]", k-1, sh.cols-1), func(s *gewekeState) float64 { return s.lambda[1][zLast] }},
			gewekeFunc{"mean lambdaW", func(s *gewekeState) float64 { return sbcMean(s.lambda[0]) }},
		)
	}
	return qs
}

// sbcMean returns the mean of x.
func sbcMean(x []float64) float64 {
	var s float64
	for _, v := range x {
		s += v
	}
	return s / float64(len(x))
}

// sbcChain returns a chain of model (or, with mutant, of GTTN with the
// wrong tau conditional gewekeWrongTauShape) on the replicate's training
// data, set to the replicate's true parameters, and a one-worker pool
// seeded with seed. The caller closes the pool.
func sbcChain(t *testing.T, model Model, h gewekeHyper, mutant bool, r *simReplicate, seed uint64) (*gibbsChain, *pool) {
	t.Helper()
	data := r.matrix(t)
	sh := r.shape
	c := testGibbsChain(t, gewekeChainModel(model, mutant), data, sh.k, h, Likelihood{AlphaSigma: h.alphaSigma, BetaSigma: h.betaSigma}, mutant && !h.biases)
	p := newPool(1, seed, c.scratchSize())
	gewekeWrite(t, c, p, r.st, 0)
	return c, p
}

// sbcThinning says how a replicate's chain is run and thinned, after
// Talts et al. (2018, Section 5.1): the chain runs until the draws are
// worth at least essFactor*draws independent ones, then draws equally
// spaced sweeps are kept.
type sbcThinning struct {
	// draws is the number L of kept draws; ranks lie in [0, L].
	draws int
	// essFactor is the bulk effective sample size, per kept draw, that
	// every quantity's chain must reach.
	essFactor float64
	// minSweeps is the first length tried; it doubles up to maxSweeps.
	minSweeps, maxSweeps int
}

// sbcOutcome is what one replicate gives: the rank of each quantity's
// true value among the kept draws, the sweeps run, and whether the chain
// stopped at maxSweeps short of the effective sample size asked for.
type sbcOutcome struct {
	ranks  []int
	sweeps int
	capped bool
}

// run runs one replicate's chain as sbcRun describes: step makes sweep n
// (from 1) and puts the quantities' values after it in vals; truth holds
// their true values. It returns the ranks of the true values among
// th.draws equally spaced sweeps, once every quantity's bulk effective
// sample size reaches th.essFactor*th.draws or the chain th.maxSweeps.
func (th sbcThinning) run(t *testing.T, truth []float64, step func(n int, vals []float64) error) sbcOutcome {
	t.Helper()
	trace := make([][]float64, len(truth))
	vals := make([]float64, len(truth))
	var ws mcmcdiag.Workspace
	n := 0
	for target := th.minSweeps; ; target = min(2*target, th.maxSweeps) {
		for ; n < target; n++ {
			if err := step(n+1, vals); err != nil {
				t.Fatal(err)
			}
			for q, v := range vals {
				trace[q] = append(trace[q], v)
			}
		}
		ess := math.Inf(1)
		for q := range truth {
			ess = min(ess, ws.ESSBulk([][]float64{trace[q]}))
		}
		if ess >= th.essFactor*float64(th.draws) || n >= th.maxSweeps {
			out := sbcOutcome{ranks: make([]int, len(truth)), sweeps: n, capped: !(ess >= th.essFactor*float64(th.draws))}
			for q, v := range truth {
				for j := range th.draws {
					if trace[q][(j+1)*n/th.draws-1] < v {
						out.ranks[q]++
					}
				}
			}
			return out
		}
	}
}

// sbcRun runs one replicate from the true parameters. It runs
// th.minSweeps sweeps, doubling the length until the smallest bulk
// effective sample size (mcmcdiag.ESSBulk) over the quantities reaches
// th.essFactor*th.draws or the length reaches th.maxSweeps, keeps th.draws
// equally spaced sweeps (the last is the final one) and ranks each true
// value among them: the number of kept draws below it. The length depends
// on the draws, as in Talts et al.'s procedure; that could tilt the ranks
// of a correct sampler slightly, by less than the large run can resolve
// (results/sbc).
func sbcRun(t *testing.T, model Model, h gewekeHyper, mutant bool, qs []gewekeFunc, r *simReplicate, th sbcThinning, seed uint64) sbcOutcome {
	t.Helper()
	c, p := sbcChain(t, model, h, mutant, r, seed)
	defer p.close()
	st := newSimState(h, r.shape)
	return sbcRankChain(t, th, qs, r.st, st, func(n int) error {
		if err := c.sweep(p, n); err != nil {
			return fmt.Errorf("%s: %w", model.Name(), err)
		}
		gewekeRead(c, st)
		return nil
	})
}

// sbcRankChain runs a replicate's chain as sbcThinning.run describes and
// ranks each quantity of qs at the true parameters and data truth among
// the kept draws: step makes sweep n (from 1) and copies the chain's
// parameters into st, where qs are evaluated after it.
func sbcRankChain[S any](t *testing.T, th sbcThinning, qs []stateFunc[S], truth, st *S, step func(n int) error) sbcOutcome {
	t.Helper()
	values := make([]float64, len(qs))
	for q, f := range qs {
		values[q] = f.f(truth)
	}
	return th.run(t, values, func(n int, vals []float64) error {
		if err := step(n); err != nil {
			return err
		}
		for q, f := range qs {
			vals[q] = f.f(st)
		}
		return nil
	})
}
