package bnmf

import (
	"math"
	"math/rand/v2"
	"testing"
)

// Joint-distribution ("getting it right") tests after Geweke (2004),
// "Getting it right: joint distribution tests of posterior simulators",
// JASA 99:799-804. The marginal-conditional simulator draws the parameters
// from the prior, exactly and independently of the package's code, and the
// data given them. The successive-conditional simulator starts from such a
// draw and alternates one Gibbs sweep with re-simulating every observed
// entry given the new parameters. Both then have the joint distribution of
// parameters and data as their stationary law, so every test function must
// have the same mean under both, unless a conditional is wrong.
//
// The joint prior of one entry w and its hyperparameters is, for GRRN,
//
//	N(w | mu, 1/tau) u(w) lambda exp(-lambda w) N(mu | MuMu, 1/TauMu)
//	Gamma(tau | A, B) Gamma(lambda | AlphaLambda, BetaLambda),
//
// the RN prior times the paper's RNSNG hyperprior, whose C(mu, tau, lambda)
// cancels the RN prior's normaliser, and for GTTN the same without the lambda factors. The
// paper's TNSNG density for GTTN (Appendix B.3) also carries a factor
// 1/sqrt(tau), which its own tau conditional Gamma(A + 1/2,
// B + (w - mu)^2/2) ignores: with that factor the conditional's shape would
// be A. The package implements the conditionals as stated, so this test
// checks them against the joint without the 1/sqrt(tau) factor, the joint
// whose exact conditionals they are. Sampled exactly by rejection: draw mu
// and tau from their hyperpriors (and lambda from Gamma(AlphaLambda + 1,
// BetaLambda), absorbing the factor lambda), w from N(mu, 1/tau), and
// accept when w >= 0 (and, for GRRN, when a uniform is below
// exp(-lambda w)).

const (
	gewekeK = 2
	// gewekeBatches is the number of batches for the batch-means standard
	// error of the successive-conditional chain; each batch spans 4000
	// sweeps, far beyond the chain's integrated autocorrelation time (at
	// most about 70 sweeps here, judged from the ratio of the two
	// simulators' variances).
	gewekeBatches = 50
	// gewekeZLimit bounds |z| for every test function of a correct sampler.
	// There are 67 comparisons (7 test functions for GEE and GTT, 10 for
	// GTTN, 12 for GRRN, and 6 more for the offsets of GEE+b and GRRN+b)
	// at a fixed seed; with a batch-means standard error on 49 degrees of
	// freedom, P(|z| > 4.5) is about 4e-5 each (7e-6 for a normal z), so a
	// correct sampler fails with probability below 3e-3.
	gewekeZLimit = 4.5
	// gewekeMutantZ is the |z| that at least one test function must exceed
	// for the deliberately wrong sampler, to show that the test has power.
	gewekeMutantZ = 6
)

// gewekeObserved lists the observed entries of the 3 x 3 matrix in
// row-major order, the order of Matrix.RowStorage: (1, 1) and (2, 0) are
// unobserved.
func gewekeObserved() [][2]int {
	return [][2]int{{0, 0}, {0, 1}, {0, 2}, {1, 0}, {1, 2}, {2, 1}, {2, 2}}
}

const gewekeRows, gewekeCols = 3, 3

// gewekeLik is the inverse-Gamma prior on sigma^2 shared by every case:
// shape 3 so that its mean (1) and variance (1) exist and sigma^2 stays
// moderate.
func gewekeLik() Likelihood { return Likelihood{AlphaSigma: 3, BetaSigma: 2} }

// gewekeHyper holds the hyperparameters of one model, read from its struct
// so that a mistake in newChain's wiring shows up as a mismatch.
type gewekeHyper struct {
	kind                     string // "GEE", "GTT", "GTTN" or "GRRN"
	geeLambda                float64
	gttMu, gttTau            float64
	muMu, tauMu, a, b        float64
	alphaLambda, betaLambda  float64
	alphaSigma, betaSigma    float64
	hierarchical, withLambda bool
	// biases is set for a Biased model, whose offsets' hyperparameters
	// off holds.
	biases bool
	off    Offsets
}

func gewekeHyperOf(t *testing.T, model Model) gewekeHyper {
	t.Helper()
	var h gewekeHyper
	var lik Likelihood
	if b, ok := model.(Biased); ok {
		h = gewekeHyperOf(t, b.Model)
		h.biases, h.off = true, b.Offsets
		h.kind = b.Model.Name()
		return h
	}
	switch m := model.(type) {
	case GEE:
		h.geeLambda, lik = m.Lambda, m.Likelihood
	case GTT:
		h.gttMu, h.gttTau, lik = m.Mu, m.Tau, m.Likelihood
	case GTTN:
		h.muMu, h.tauMu, h.a, h.b, lik = m.MuMu, m.TauMu, m.A, m.B, m.Likelihood
		h.hierarchical = true
	case GRRN:
		h.muMu, h.tauMu, h.a, h.b, lik = m.MuMu, m.TauMu, m.A, m.B, m.Likelihood
		h.alphaLambda, h.betaLambda = m.AlphaLambda, m.BetaLambda
		h.hierarchical, h.withLambda = true, true
	default:
		t.Fatalf("no Geweke test for %T", model)
	}
	h.kind = model.Name()
	h.alphaSigma, h.betaSigma = lik.AlphaSigma, lik.BetaSigma
	return h
}

// gewekeHier returns the hierarchical prior inside a chain's prior, or nil.
func gewekeHier(p prior) *hierarchicalPrior {
	switch p := p.(type) {
	case *hierarchicalPrior:
		return p
	case gewekeWrongTauShape:
		return p.hierarchicalPrior
	}
	return nil
}

// gewekeWrite sets the chain's parameters and data to st and refreshes the
// residuals. The data are written in both storage orders.
func gewekeWrite(t *testing.T, c *gibbsChain, p *pool, st *gewekeState, sweep int) {
	t.Helper()
	copy(c.w, st.w)
	copy(c.zt, st.zt)
	for s := range c.sides {
		if hp := gewekeHier(c.sides[s].prior); hp != nil {
			copy(hp.mu, st.mu[s])
			copy(hp.tau, st.tau[s])
			if hp.lambda != nil {
				copy(hp.lambda, st.lambda[s])
			}
		}
	}
	c.sigma2 = st.sigma2
	if c.off != nil {
		c.off.mu, c.off.tauB, c.off.tauC = st.mu0, st.tauB, st.tauC
		copy(c.off.b, st.b)
		copy(c.off.c, st.c)
	}
	gibbsWriteData(t, c, p, st.a, sweep)
}

// gibbsWriteData sets the chain's observed values to values (row-major)
// and refreshes the residuals.
func gibbsWriteData(t *testing.T, c *gibbsChain, p *pool, values []float64, sweep int) {
	t.Helper()
	c.data = c.data.WithValues(values)
	if err := c.recomputeResiduals(p, sweep); err != nil {
		t.Fatal(err)
	}
}

// gewekeRead copies the chain's parameters and data into st.
func gewekeRead(c *gibbsChain, st *gewekeState) {
	copy(st.w, c.w)
	copy(st.zt, c.zt)
	for s := range c.sides {
		if hp := gewekeHier(c.sides[s].prior); hp != nil {
			copy(st.mu[s], hp.mu)
			copy(st.tau[s], hp.tau)
			if hp.lambda != nil {
				copy(st.lambda[s], hp.lambda)
			}
		}
	}
	st.sigma2 = c.sigma2
	if c.off != nil {
		st.mu0, st.tauB, st.tauC = c.off.mu, c.off.tauB, c.off.tauC
		copy(st.b, c.off.b)
		copy(st.c, c.off.c)
	}
	_, _, values := c.data.RowStorage()
	copy(st.a, values)
}

// gewekeSuccessive runs the successive-conditional simulator for n sweeps
// from an exact prior draw (so it is stationary from the start and needs no
// burn-in) and returns each test function's mean and batch-means standard
// error.
func gewekeSuccessive(t *testing.T, model Model, h gewekeHyper, mutant bool, fs []gewekeFunc, n int, seed uint64) (mean, se []float64) {
	t.Helper()
	g := newGewekeSampler(seed)
	st := newGewekeState(h)
	g.drawParams(h, st)
	g.drawData(st)
	data := observedMatrix(t, gewekeRows, gewekeCols, gewekeObserved(), st.a)
	for q, e := range data.Entries() {
		if e.Row != gewekeObserved()[q][0] || e.Col != gewekeObserved()[q][1] {
			t.Fatalf("row-major entry %d is (%d, %d), want %v", q, e.Row, e.Col, gewekeObserved()[q])
		}
	}
	c := testGibbsChain(t, gewekeChainModel(model, mutant), data, gewekeK, h, gewekeLik(), mutant && !h.biases)
	p := newPool(1, seed, c.scratchSize())
	defer p.close()
	gewekeWrite(t, c, p, st, 0)
	return gewekeBatchMoments(fs, st, n, func(s int) {
		if err := c.sweep(p, s); err != nil {
			t.Fatal(err)
		}
		gewekeRead(c, st)
		g.drawData(st)
		gibbsWriteData(t, c, p, st.a, s)
	})
}

// gewekeBatchMoments runs a successive-conditional simulator for n sweeps,
// rounded down to gewekeBatches equal batches, and returns each test
// function's mean and batch-means standard error: step makes sweep s
// (from 1), copies the chain's parameters into st and draws new data
// given them, into st and the chain.
func gewekeBatchMoments[S any](fs []stateFunc[S], st *S, n int, step func(s int)) (mean, se []float64) {
	batch := n / gewekeBatches
	bsum := make([][]float64, len(fs))
	for i := range bsum {
		bsum[i] = make([]float64, gewekeBatches)
	}
	for s := 1; s <= batch*gewekeBatches; s++ {
		step(s)
		b := (s - 1) / batch
		for i, f := range fs {
			bsum[i][b] += f.f(st)
		}
	}
	mean, se = make([]float64, len(fs)), make([]float64, len(fs))
	for i := range fs {
		var sum, sum2 float64
		for _, v := range bsum[i] {
			m := v / float64(batch)
			sum += m
			sum2 += m * m
		}
		mean[i] = sum / gewekeBatches
		vari := (sum2 - sum*mean[i]) / (gewekeBatches - 1)
		se[i] = math.Sqrt(vari / gewekeBatches)
	}
	return mean, se
}

// testGibbsChain returns model's chain on data at rank k, or, if mutant,
// a GTTN-like chain with hyperparameters h and likelihood lik whose tau
// conditional has the wrong shape (gewekeWrongTauShape).
func testGibbsChain(t *testing.T, model Model, data *Matrix, k int, h gewekeHyper, lik Likelihood, mutant bool) *gibbsChain {
	t.Helper()
	if mutant {
		rows, cols := data.Dims()
		pw := gewekeWrongTauShape{newHierarchicalPrior(rows, k, h.muMu, h.tauMu, h.a, h.b)}
		pz := gewekeWrongTauShape{newHierarchicalPrior(cols, k, h.muMu, h.tauMu, h.a, h.b)}
		return newGibbsChain(data, k, lik, pw, pz)
	}
	return gibbsChainOf(t, model, data, k)
}

// gibbsChainOf returns model's chain on data at rank k, failing the test
// unless it is a *gibbsChain.
func gibbsChainOf(t *testing.T, model Model, data *Matrix, k int) *gibbsChain {
	t.Helper()
	ch, err := model.newChain(data, k)
	if err != nil {
		t.Fatal(err)
	}
	c, ok := ch.(*gibbsChain)
	if !ok {
		t.Fatalf("%s chain is %T, not *gibbsChain", model.Name(), ch)
	}
	return c
}

// gewekeChainModel returns the model whose chain the successive-
// conditional simulator runs: model itself, or, for a mutant Biased
// model, one whose tau_b conditional has the wrong shape AlphaB + 1 +
// M/2 (its hyperprior's shape is one more than the marginal simulator's).
func gewekeChainModel(model Model, mutant bool) Model {
	if b, ok := model.(Biased); ok && mutant {
		b.AlphaB++
		return b
	}
	return model
}

// gewekeWrongTauShape is GTTN's hierarchical prior with a deliberately
// wrong tau conditional, Gamma(A + 1, ...) instead of Gamma(A + 1/2, ...):
// the sampler the Geweke test must reject.
type gewekeWrongTauShape struct{ *hierarchicalPrior }

func (p gewekeWrongTauShape) updateLine(i int, x []float64, rng *rand.Rand) int {
	bad := -1
	for k, xk := range x {
		e := i*p.k + k
		t := p.tau[e] + p.tauMu
		mu := (p.tau[e]*xk+p.tauMu*p.muMu)/t + rng.NormFloat64()/math.Sqrt(t)
		d := xk - mu
		tau := gammaRand(rng, p.a+1, p.b+d*d/2) // wrong: the shape is a + 1/2
		p.mu[e], p.tau[e] = mu, tau
		if !(isFinite(mu) && tau > 0 && !math.IsInf(tau, 0)) && bad < 0 {
			bad = k
		}
	}
	return bad
}

// TestGewekeJointDistribution compares the marginal-conditional and
// successive-conditional simulators of every Bayesian model on a 3 x 3
// matrix with two unobserved entries and K = 2, and shows on a GTTN
// sampler with a wrong tau conditional that the comparison has power.
func TestGewekeJointDistribution(t *testing.T) {
	if testing.Short() {
		t.Skip("runs hundreds of thousands of sweeps: several seconds")
	}
	// Hyperparameters chosen so that the factors, hyperparameters and
	// sigma^2 stay of order one: GEE Lambda 1; GTT Mu 0.5, Tau 1;
	// GTTN/GRRN MuMu 0.5, TauMu 1, A = B = 2, AlphaLambda 2, BetaLambda 1;
	// sigma^2 ~ InvGamma(3, 2).
	gttn := GTTN{MuMu: 0.5, TauMu: 1, A: 2, B: 2, Likelihood: gewekeLik()}
	cases := []struct {
		name   string
		model  Model
		mutant bool // the wrong tau conditional: must be detected
	}{
		{"GEE", GEE{Lambda: 1, Likelihood: gewekeLik()}, false},
		{"GTT", GTT{Mu: 0.5, Tau: 1, Likelihood: gewekeLik()}, false},
		{"GTTN", gttn, false},
		{"GRRN", GRRN{MuMu: 0.5, TauMu: 1, A: 2, B: 2, AlphaLambda: 2, BetaLambda: 1, Likelihood: gewekeLik()}, false},
		{"GTTN/wrong-tau-shape", gttn, true},
		{"GEE+b", Biased{Model: GEE{Lambda: 1, Likelihood: gewekeLik()}, Offsets: gewekeOffsets()}, false},
		{"GRRN+b", Biased{Model: GRRN{MuMu: 0.5, TauMu: 1, A: 2, B: 2, AlphaLambda: 2, BetaLambda: 1, Likelihood: gewekeLik()}, Offsets: gewekeOffsets()}, false},
		{"GEE+b/wrong-tau_b-shape", Biased{Model: GEE{Lambda: 1, Likelihood: gewekeLik()}, Offsets: gewekeOffsets()}, true},
	}
	// Sizes: the successive-conditional standard errors are then at most
	// about 0.003 and the marginal-conditional ones about 0.001, so the
	// comparison resolves differences of about 0.015 in the means of
	// functions with values in [0, 1]. A sweep here costs a few
	// microseconds; the marginal draws are cheaper still except for GRRN,
	// whose rejection sampler needs about ten proposals per entry.
	const nMarginal, nSuccessive = 100000, 200000
	for ci, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := gewekeHyperOf(t, tc.model)
			fs := gewekeFuncs(t, h)
			mm, ms := gewekeMarginal(h, fs, nMarginal, uint64(2*ci+1))
			sm, ss := gewekeSuccessive(t, tc.model, h, tc.mutant, fs, nSuccessive, uint64(2*ci+2))
			gewekeCompare(t, stateFuncNames(fs), mm, ms, sm, ss, tc.mutant, "the wrong tau conditional")
		})
	}
}

// gewekeCompare compares, function by function, the marginal-conditional
// means mm (standard errors ms) with the successive-conditional ones sm
// (ss) of the functions named names: each z must stay within gewekeZLimit,
// or, for a mutant sampler (wrong names what it plants), the largest |z|
// must exceed gewekeMutantZ.
func gewekeCompare(t *testing.T, names []string, mm, ms, sm, ss []float64, mutant bool, wrong string) {
	t.Helper()
	var maxZ float64
	worst := ""
	for i, name := range names {
		z := (mm[i] - sm[i]) / math.Hypot(ms[i], ss[i])
		t.Logf("%-22s marginal %.4f±%.4f successive %.4f±%.4f z=%+.2f", name, mm[i], ms[i], sm[i], ss[i], z)
		if math.Abs(z) > maxZ {
			maxZ, worst = math.Abs(z), name
		}
		if !mutant && !(math.Abs(z) < gewekeZLimit) {
			t.Errorf("%s: marginal-conditional mean %.4f and successive-conditional mean %.4f differ by z = %.2f (limit %v)",
				name, mm[i], sm[i], z, gewekeZLimit)
		}
	}
	if mutant && !(maxZ > gewekeMutantZ) {
		t.Errorf("%s went undetected: largest |z| is %.2f (%s), want > %v", wrong, maxZ, worst, gewekeMutantZ)
	}
	t.Logf("largest |z| = %.2f (%s)", maxZ, worst)
}
