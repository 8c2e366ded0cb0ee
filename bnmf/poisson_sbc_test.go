package bnmf

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"gonum.org/v1/gonum/stat/distuv"
)

// Checks of the Poisson models' sampler (poisson.go) against their joint
// distribution: Geweke's test and simulation-based calibration in the
// harness of the Gaussian models (sbc_test.go); poisson_cond_test.go
// checks the split and a line's update. The prior draws here use gonum's
// distuv samplers, not the package's gammaRand.

// poissonState is a draw of a Poisson model's parameters, and data at
// the training cells in row-major order.
type poissonState struct {
	w, zt []float64
	h     [2][]float64 // PGGG's rates of the rows of W and columns of Z
	a     []float64
}

// poissonHyper returns the resolved hyperparameters of a PGG or PGGG.
func poissonHyper(model Model) (a, b float64, hier bool, ap, bp float64) {
	switch m := model.(type) {
	case PGG:
		return orDefault(m.A, 1), orDefault(m.B, 1), false, 0, 0
	case PGGG:
		return orDefault(m.A, 1), 0, true, orDefault(m.APrime, 1), orDefault(m.BPrime, 1)
	}
	panic(fmt.Sprintf("bnmf: %T is not a Poisson model", model))
}

// drawPoissonPrior draws the parameters of a rows x cols model at rank k
// from model's prior and the counts at cells from the likelihood.
func drawPoissonPrior(model Model, rows, cols, k int, cells [][2]int, rng *rand.Rand) *poissonState {
	a, b, hier, ap, bp := poissonHyper(model)
	st := &poissonState{w: make([]float64, rows*k), zt: make([]float64, cols*k), a: make([]float64, len(cells))}
	for s, x := range [2][]float64{st.w, st.zt} {
		lines := len(x) / k
		if hier {
			st.h[s] = make([]float64, lines)
		}
		for i := range lines {
			rate := b
			if hier {
				rate = distuv.Gamma{Alpha: ap, Beta: ap / bp, Src: rng}.Rand()
				st.h[s][i] = rate
			}
			for kk := range k {
				x[i*k+kk] = distuv.Gamma{Alpha: a, Beta: rate, Src: rng}.Rand()
			}
		}
	}
	st.drawData(k, cells, rng)
	return st
}

// drawData redraws the counts at cells given the parameters.
func (st *poissonState) drawData(k int, cells [][2]int, rng *rand.Rand) {
	for q, ij := range cells {
		st.a[q] = distuv.Poisson{Lambda: st.pred(k, ij[0], ij[1]), Src: rng}.Rand()
	}
}

func (st *poissonState) pred(k, i, j int) float64 {
	var v float64
	for kk := range k {
		v += st.w[i*k+kk] * st.zt[j*k+kk]
	}
	return v
}

// poissonTestChain returns model's chain on the counts st.a at cells
// (row-major) of a rows x cols matrix, set to st's parameters.
func poissonTestChain(t *testing.T, model Model, rows, cols, k int, cells [][2]int, st *poissonState) *poissonChain {
	t.Helper()
	entries := make([]Entry, len(cells))
	for q, ij := range cells {
		entries[q] = Entry{Row: ij[0], Col: ij[1], Value: st.a[q]}
	}
	data, err := NewMatrix(rows, cols, entries)
	if err != nil {
		t.Fatal(err)
	}
	ch, err := model.newChain(data, k)
	if err != nil {
		t.Fatal(err)
	}
	c := ch.(*poissonChain)
	copy(c.w, st.w)
	copy(c.zt, st.zt)
	for s := range c.sides {
		copy(c.sides[s].h, st.h[s])
	}
	return c
}

// read copies the chain's parameters into st.
func (st *poissonState) read(c *poissonChain) {
	copy(st.w, c.w)
	copy(st.zt, c.zt)
	for s := range c.sides {
		copy(st.h[s], c.sides[s].h)
	}
}

// The Geweke test's 3 x 3 matrix (gewekeObserved) at rank 2.
const poissonGewekeK = 2

// poissonGewekeFuncs are the test functions of the Geweke test: entries
// of W and Z, their squares, a prediction, a count, a count times a
// factor and, for PGGG, the rates h.
func poissonGewekeFuncs(hier bool) []func(st *poissonState) float64 {
	fs := []func(st *poissonState) float64{
		func(st *poissonState) float64 { return st.w[0] },
		func(st *poissonState) float64 { return st.zt[3] },
		func(st *poissonState) float64 { return st.w[5] * st.w[5] },
		func(st *poissonState) float64 { return st.pred(poissonGewekeK, 0, 0) },
		func(st *poissonState) float64 { return st.a[0] },
		func(st *poissonState) float64 { return st.a[2] * st.zt[0] },
	}
	if hier {
		fs = append(fs,
			func(st *poissonState) float64 { return st.h[0][0] },
			func(st *poissonState) float64 { return st.h[1][2] * st.w[0] },
		)
	}
	return fs
}

// TestPoissonGeweke is the joint-distribution test of Geweke (2004), as
// TestGewekeJointDistribution does it for the Gaussian models: test
// functions' means under exact prior draws against a chain that
// alternates one sweep with redrawing the counts. A PGG sampler whose
// factor conditionals have shape A + 1/2 + tally (the chain of PGG with
// A 2.5 run on replicates of A 2) must be detected. The limits are the
// Gaussian models' (gewekeZLimit, gewekeMutantZ).
func TestPoissonGeweke(t *testing.T) {
	if testing.Short() {
		t.Skip("runs 200,000 sweeps per model: seconds")
	}
	cells := gewekeObserved()
	cases := []struct {
		name         string
		model, prior Model
		mutant       bool
		nMarg, nSucc int
		seedM, seedS uint64
	}{
		{"PGG", PGG{A: 2, B: 2}, PGG{A: 2, B: 2}, false, 100000, 200000, 1, 2},
		{"PGGG", PGGG{A: 2, APrime: 3, BPrime: 2}, PGGG{A: 2, APrime: 3, BPrime: 2}, false, 100000, 200000, 3, 4},
		{"PGG/wrong-shape", PGG{A: 2.5, B: 2}, PGG{A: 2, B: 2}, true, 100000, 200000, 1, 6},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, _, hier, _, _ := poissonHyper(tc.prior)
			fs := poissonGewekeFuncs(hier)
			// Marginal-conditional: independent draws.
			rng := rand.New(rand.NewPCG(tc.seedM, 5))
			msum, msum2 := make([]float64, len(fs)), make([]float64, len(fs))
			for range tc.nMarg {
				st := drawPoissonPrior(tc.prior, gewekeRows, gewekeCols, poissonGewekeK, cells, rng)
				for i, f := range fs {
					v := f(st)
					msum[i] += v
					msum2[i] += v * v
				}
			}
			// Successive-conditional, batch means.
			rng = rand.New(rand.NewPCG(tc.seedS, 5))
			st := drawPoissonPrior(tc.prior, gewekeRows, gewekeCols, poissonGewekeK, cells, rng)
			c := poissonTestChain(t, tc.model, gewekeRows, gewekeCols, poissonGewekeK, cells, st)
			p := newPool(1, tc.seedS, c.scratchSize())
			defer p.close()
			batch := tc.nSucc / gewekeBatches
			bsum := make([][]float64, len(fs))
			for i := range bsum {
				bsum[i] = make([]float64, gewekeBatches)
			}
			for s := 1; s <= batch*gewekeBatches; s++ {
				if err := c.sweep(p, s); err != nil {
					t.Fatal(err)
				}
				st.read(c)
				st.drawData(poissonGewekeK, cells, rng)
				c.setData(c.data.WithValues(st.a))
				for i, f := range fs {
					bsum[i][(s-1)/batch] += f(st)
				}
			}
			var maxZ float64
			for i := range fs {
				mm := msum[i] / float64(tc.nMarg)
				ms := math.Sqrt((msum2[i]/float64(tc.nMarg) - mm*mm) / float64(tc.nMarg))
				var sum, sum2 float64
				for _, v := range bsum[i] {
					m := v / float64(batch)
					sum += m
					sum2 += m * m
				}
				sm := sum / gewekeBatches
				ss := math.Sqrt((sum2 - sum*sm) / (gewekeBatches - 1) / gewekeBatches)
				z := (mm - sm) / math.Hypot(ms, ss)
				t.Logf("function %d: marginal %.4f±%.4f successive %.4f±%.4f z=%+.2f", i, mm, ms, sm, ss, z)
				maxZ = math.Max(maxZ, math.Abs(z))
				if !tc.mutant && !(math.Abs(z) < gewekeZLimit) {
					t.Errorf("function %d: means %.4f and %.4f differ by z = %.2f (limit %v)", i, mm, sm, z, gewekeZLimit)
				}
			}
			t.Logf("largest |z| = %.2f", maxZ)
			if tc.mutant && !(maxZ > gewekeMutantZ) {
				t.Errorf("the wrong shape went undetected: largest |z| is %.2f, want > %v", maxZ, gewekeMutantZ)
			}
		})
	}
}

// poissonSBCQuantities are the quantities TestPoissonSBC ranks: two
// entries each of W and Z, the prediction w_0 . z_0, the mean of W and,
// for PGGG, two rates h and the mean rate of the rows.
func poissonSBCQuantities(hier bool, sh simShape) []stateFunc[poissonState] {
	k := sh.k
	wLast, zLast := (sh.rows-1)*k+k-1, (sh.cols-1)*k+k-1
	type q = stateFunc[poissonState]
	qs := []q{
		{"W[0][0]", func(s *poissonState) float64 { return s.w[0] }},
		{fmt.Sprintf("W[%d][%d]", sh.rows-1, k-1), func(s *poissonState) float64 { return s.w[wLast] }},
		{"Z[1][0]", func(s *poissonState) float64 { return s.zt[1] }},
		{fmt.Sprintf("Z[%d][%d]", k-1, sh.cols-1), func(s *poissonState) float64 { return s.zt[zLast] }},
		{"pred(0,0)", func(s *poissonState) float64 { return s.pred(k, 0, 0) }},
		{"mean W", func(s *poissonState) float64 { return sbcMean(s.w) }},
	}
	if hier {
		qs = append(qs,
			q{"hW[0]", func(s *poissonState) float64 { return s.h[0][0] }},
			q{fmt.Sprintf("hZ[%d]", sh.cols-1), func(s *poissonState) float64 { return s.h[1][sh.cols-1] }},
			q{"mean hW", func(s *poissonState) float64 { return sbcMean(s.h[0]) }},
		)
	}
	return qs
}

// TestPoissonSBC is simulation-based calibration of PGG and PGGG in the
// harness of TestSBC: replicates of the 12 x 10 matrix at K = 3 with 40
// counts drawn from the prior, chains started at the truth and thinned by
// their effective sample size (sbcSizeFor: 100 replicates under -short,
// 400 without, 2,000 with -sbc.large), ranks tested by chi-square with a
// Bonferroni bound over the quantities of both models (sbcFamily). The
// sampler with the wrong shape (see TestPoissonGeweke) sees PGG's
// replicates and must be rejected.
func TestPoissonSBC(t *testing.T) {
	skipUnderRace(t)
	size := sbcSizeFor()
	sh := defaultSimShape()
	cases := []struct {
		name         string
		model, prior Model
		mutant       bool
		seed         uint64
	}{
		{"PGG", PGG{A: 2, B: 2}, PGG{A: 2, B: 2}, false, 5000},
		{"PGGG", PGGG{A: 2, APrime: 3, BPrime: 2}, PGGG{A: 2, APrime: 3, BPrime: 2}, false, 5010},
		{"PGG-wrong-shape", PGG{A: 2.5, B: 2}, PGG{A: 2, B: 2}, true, 5000},
	}
	total := len(poissonSBCQuantities(false, sh)) + len(poissonSBCQuantities(true, sh))
	alpha := sbcFamily / float64(total)
	t.Logf("%d replicates, L = %d draws, %d bins; %d quantities: each rejects at p < %.2g", size.reps, size.th.draws, size.bins, total, alpha)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			_, _, hier, _, _ := poissonHyper(tc.prior)
			qs := poissonSBCQuantities(hier, sh)
			ranks := make([][]int, len(qs))
			var sweeps, capped int
			for r := range size.reps {
				g := rand.New(rand.NewPCG(replicateSeed(tc.seed, r), 13))
				cells := g.Perm(sh.rows * sh.cols)[:sh.train]
				slices.Sort(cells)
				train := make([][2]int, len(cells))
				for q, v := range cells {
					train[q] = [2]int{v / sh.cols, v % sh.cols}
				}
				truth := drawPoissonPrior(tc.prior, sh.rows, sh.cols, sh.k, train, g)
				c := poissonTestChain(t, tc.model, sh.rows, sh.cols, sh.k, train, truth)
				out := poissonSBCRun(t, c, truth, qs, size.th, replicateSeed(tc.seed+1, r))
				sweeps += out.sweeps
				if out.capped {
					capped++
				}
				for q := range qs {
					ranks[q] = append(ranks[q], out.ranks[q])
				}
			}
			t.Logf("%d replicates in %v, %.0f sweeps per replicate, %d capped", size.reps, time.Since(start).Round(time.Millisecond), float64(sweeps)/float64(size.reps), capped)
			minP, worst := 1.0, ""
			for q, f := range qs {
				stat, p := rankChiSquare(ranks[q], size.th.draws, size.bins)
				t.Logf("%-14s chi2(%d) = %7.2f  p = %.3g", f.name, size.bins-1, stat, p)
				if p < minP {
					minP, worst = p, f.name
				}
				if !tc.mutant && !(p >= alpha) {
					t.Errorf("%s: ranks of the true values are not uniform: chi2(%d) = %.2f, p = %.3g < %.2g", f.name, size.bins-1, stat, p, alpha)
				}
			}
			t.Logf("smallest p = %.3g (%s)", minP, worst)
			if tc.mutant && !(minP < alpha) {
				t.Errorf("the wrong shape went undetected: smallest p = %.3g (%s), want < %.2g", minP, worst, alpha)
			}
		})
	}
}

// poissonSBCRun runs one replicate's chain from the truth as sbcRun does:
// doubling its length from th.minSweeps until every quantity's bulk
// effective sample size reaches th.essFactor*th.draws (or th.maxSweeps),
// then ranking each true value among th.draws equally spaced draws.
func poissonSBCRun(t *testing.T, c *poissonChain, truth *poissonState, qs []stateFunc[poissonState], th sbcThinning, seed uint64) sbcOutcome {
	t.Helper()
	p := newPool(1, seed, c.scratchSize())
	defer p.close()
	st := &poissonState{w: slices.Clone(truth.w), zt: slices.Clone(truth.zt), h: [2][]float64{slices.Clone(truth.h[0]), slices.Clone(truth.h[1])}}
	return sbcRankChain(t, th, qs, truth, st, func(n int) error {
		if err := c.sweep(p, n); err != nil {
			return err
		}
		st.read(c)
		return nil
	})
}
