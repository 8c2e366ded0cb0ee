package bnmf

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"gonum.org/v1/gonum/integrate/quad"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/bnmf-lab/bnmf/mcmcdiag"
)

// Checks of the Poisson models' sampler (poisson.go) against their
// definition: the split against the multinomial by exhaustive sums, each
// line's update against its conditional integrated numerically, Geweke's
// joint-distribution test and simulation-based calibration in the harness
// of the Gaussian models (sbc_test.go). The prior draws here use gonum's
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

// TestPoissonSplit checks splitCount against the multinomial distribution
// by summing over every outcome: Pearson's chi-square of the tallies of
// 200,000 splits of one count, against the multinomial masses, must not
// reject at 1e-4 (a correct split fails with that probability per case).
// A category of weight zero must never be drawn.
func TestPoissonSplit(t *testing.T) {
	cases := []struct {
		name string
		p    []float64
		y    int
	}{
		{"K=1", []float64{2.5}, 3},
		{"K=3", []float64{0.2, 0.5, 0.3}, 4},
		{"K=4/zero-weight", []float64{0.1, 0, 1.3, 0.6}, 3},
		{"K=5/unequal", []float64{1e-3, 0.4, 2, 0.05, 0.7}, 2},
		{"K=20", []float64{0.3, 1, 0.2, 0.7, 0.05, 1.5, 0.4, 0.9, 0.6, 0, 0.8, 1.1, 0.25, 0.5, 2, 0.35, 0.45, 0.1, 1.2, 0.65}, 2},
	}
	const n = 200000
	for ci, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			k := len(c.p)
			cum := make([]float64, k)
			var total float64
			for kk, v := range c.p {
				total += v
				cum[kk] = total
			}
			zero := slices.Index(c.p, 0)
			src := rand.NewPCG(uint64(ci), 9)
			counts := map[string]int{}
			tally, tally2 := make([]float64, k), make([]float64, k)
			for range n {
				clear(tally)
				clear(tally2)
				splitCount(src, cum, c.y, tally, tally2)
				if !slices.Equal(tally, tally2) {
					t.Fatalf("the two tallies differ: %v, %v", tally, tally2)
				}
				if zero >= 0 && tally[zero] != 0 {
					t.Fatal("a category of weight zero was drawn")
				}
				counts[fmt.Sprint(tally)]++
			}
			// Every outcome with positive mass: compositions of y into k
			// parts.
			// Outcomes expected fewer than 5 times are pooled into one
			// bin, as Pearson's approximation needs.
			var stat, restGot, restWant float64
			outcomes, matched := 0, 0
			var walk func(kk, left int, x []float64)
			walk = func(kk, left int, x []float64) {
				if kk == k-1 {
					x[kk] = float64(left)
					logp, _ := math.Lgamma(float64(c.y) + 1)
					for l, v := range x {
						lg, _ := math.Lgamma(v + 1)
						if c.p[l] == 0 {
							if v > 0 {
								return
							}
							continue
						}
						logp += v*math.Log(c.p[l]/total) - lg
					}
					want := n * math.Exp(logp)
					got, ok := counts[fmt.Sprint(x)]
					if ok {
						matched++
					}
					if want < 5 {
						restGot += float64(got)
						restWant += want
						return
					}
					stat += (float64(got) - want) * (float64(got) - want) / want
					outcomes++
					return
				}
				for v := 0; v <= left; v++ {
					x[kk] = float64(v)
					walk(kk+1, left-v, x)
				}
			}
			walk(0, c.y, make([]float64, k))
			if matched != len(counts) {
				t.Errorf("%d of the %d outcomes drawn are impossible", len(counts)-matched, len(counts))
			}
			if restWant > 0 {
				stat += (restGot - restWant) * (restGot - restWant) / restWant
				outcomes++
			}
			if outcomes == 1 {
				return
			}
			p := distuv.ChiSquared{K: float64(outcomes - 1)}.Survival(stat)
			t.Logf("%d outcomes, chi2 = %.2f, p = %.3g", outcomes, stat, p)
			if !(p > 1e-4) {
				t.Errorf("chi2(%d) = %.2f, p = %.3g: the split is not multinomial", outcomes-1, stat, p)
			}
		})
	}
}

// TestPoissonConditionalLine checks the update of one row of W, with Z
// fixed, against the conditional of that row given Z and the data with
// the split integrated out. The update (split, then the factors given
// it) is a data-augmentation step that leaves this conditional invariant,
// not a direct draw from it, so each of condDraws (1000 under -short)
// independent chains runs
// 40 updates from w = 1 and its last value is compared with the
// conditional's marginal, found by integrating the joint density over the
// row's other unknown with a 200-point Gauss-Legendre rule on [0, 30]
// (the densities there are below e^-40 of their peaks). PGG at K = 2 checks w_00 (integrating
// over w_01); PGGG at K = 1 checks w_00 and the row's rate h_0 (each
// integrating over the other).
func TestPoissonConditionalLine(t *testing.T) {
	// Row 0 has counts 3, 0 and 5; row 1 one count.
	entries := []Entry{{Row: 0, Col: 0, Value: 3}, {Row: 0, Col: 1, Value: 0}, {Row: 0, Col: 2, Value: 5}, {Row: 1, Col: 0, Value: 1}}
	data, err := NewMatrix(2, 3, entries)
	if err != nil {
		t.Fatal(err)
	}
	zt := map[int][]float64{
		2: {0.8, 0.3, 0.5, 1.2, 1.5, 0.6},
		1: {0.8, 0.5, 1.5},
	}
	cases := []struct {
		name  string
		model Model
		k     int
		h     bool // check h_0 rather than w_00
	}{
		{"PGG/w00", PGG{A: 1.5, B: 2}, 2, false},
		{"PGGG/w00", PGGG{A: 1.5, APrime: 2, BPrime: 1.5}, 1, false},
		{"PGGG/h0", PGGG{A: 1.5, APrime: 2, BPrime: 1.5}, 1, true},
	}
	for ci, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a, b, _, ap, bp := poissonHyper(tc.model)
			z := zt[tc.k]
			// logJoint is the log density of (u, v) given Z and row 0's
			// counts: u, v are (w_00, w_01) for PGG and (w_00, h_0) for
			// PGGG.
			logJoint := func(u, v float64) float64 {
				if u <= 0 || v <= 0 {
					return math.Inf(-1)
				}
				w := []float64{u, v}
				rate := b
				if tc.k == 1 {
					w, rate = []float64{u}, v
				}
				var lp float64
				for _, e := range entries[:3] {
					var mu float64
					for kk := range tc.k {
						mu += w[kk] * z[e.Col*tc.k+kk]
					}
					lp += e.Value*math.Log(mu) - mu
				}
				for _, x := range w {
					lp += a*math.Log(rate) + (a-1)*math.Log(x) - rate*x
				}
				if tc.k == 1 {
					lp += (ap-1)*math.Log(v) - ap/bp*v
				}
				return lp
			}
			marginal := func(x float64) float64 {
				f := func(y float64) float64 {
					if tc.h {
						return math.Exp(logJoint(y, x))
					}
					return math.Exp(logJoint(x, y))
				}
				return math.Log(quad.Fixed(f, 0, 30, 200, nil, 0))
			}
			dens := newCondDensity(t, marginal, 0, 0, 25)
			ch, err := tc.model.newChain(data, tc.k)
			if err != nil {
				t.Fatal(err)
			}
			c := ch.(*poissonChain)
			copy(c.zt, z)
			p := newPool(1, 1, c.scratchSize())
			defer p.close()
			wk := p.workers[0]
			side := &c.sides[0]
			draws := condDraws
			if testing.Short() {
				draws = 1000
			}
			var chk condCheck
			for d := range draws {
				for kk := range tc.k {
					c.w[kk] = 1
				}
				if side.h != nil {
					side.h[0] = 1
				}
				for step := range 40 {
					wk.pcg.Seed(streamSeed(uint64(ci), d, step, 0))
					if err := c.updateLine(side, wk, 0); err != nil {
						t.Fatal(err)
					}
				}
				x := c.w[0]
				if tc.h {
					x = side.h[0]
				}
				chk.add(dens, x)
			}
			chk.assert(t)
		})
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
func poissonSBCQuantities(hier bool, sh simShape) []struct {
	name string
	f    func(*poissonState) float64
} {
	k := sh.k
	wLast, zLast := (sh.rows-1)*k+k-1, (sh.cols-1)*k+k-1
	type q = struct {
		name string
		f    func(*poissonState) float64
	}
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
func poissonSBCRun(t *testing.T, c *poissonChain, truth *poissonState, qs []struct {
	name string
	f    func(*poissonState) float64
}, th sbcThinning, seed uint64) sbcOutcome {
	t.Helper()
	p := newPool(1, seed, c.scratchSize())
	defer p.close()
	st := &poissonState{w: slices.Clone(truth.w), zt: slices.Clone(truth.zt), h: [2][]float64{slices.Clone(truth.h[0]), slices.Clone(truth.h[1])}}
	trace := make([][]float64, len(qs))
	var ws mcmcdiag.Workspace
	n := 0
	for target := th.minSweeps; ; target = min(2*target, th.maxSweeps) {
		for ; n < target; n++ {
			if err := c.sweep(p, n+1); err != nil {
				t.Fatal(err)
			}
			st.read(c)
			for q, f := range qs {
				trace[q] = append(trace[q], f.f(st))
			}
		}
		ess := math.Inf(1)
		for q := range qs {
			ess = min(ess, ws.ESSBulk([][]float64{trace[q]}))
		}
		if ess >= th.essFactor*float64(th.draws) || n >= th.maxSweeps {
			out := sbcOutcome{ranks: make([]int, len(qs)), sweeps: n, capped: !(ess >= th.essFactor*float64(th.draws))}
			for q, f := range qs {
				v := f.f(truth)
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
