package bnmf

import (
	"flag"
	"math"
	"slices"
	"testing"
)

// Simulation from a model's own prior on matrices larger than the Geweke
// test's 3 x 3, for the calibration tests (calibration_test.go, sbc_test.go).
// The prior draws reuse the Geweke test's exact samplers (gewekeSampler,
// gewekeHyper), whose joint is the one the package's conditionals are exact
// for; only the shapes differ.

// calibrationLarge runs the calibration tests (TestIntervalCalibration,
// TestSBC) at their full size, for the record in results/sbc.
var calibrationLarge = flag.Bool("sbc.large", false, "run the calibration tests (interval coverage, SBC) at their full size: minutes")

// skipUnderRace skips a calibration test under the race detector. Its
// chains run on one goroutine each (one worker, one chain at a time), so
// the detector has nothing to check there, and it made the short sizes
// ten times slower (51 s for the two tests); ./test.sh runs them without
// it.
func skipUnderRace(t *testing.T) {
	t.Helper()
	if raceEnabled {
		t.Skip("single-goroutine statistical test: run without -race")
	}
}

// simShape is the matrix shape, rank and numbers of training and held-out
// entries of a calibration study: 12 x 10 at K = 3 with a third of the
// entries (40) observed for training and a sixth (20) held out.
type simShape struct{ rows, cols, k, train, test int }

func defaultSimShape() simShape { return simShape{rows: 12, cols: 10, k: 3, train: 40, test: 20} }

// simModels returns the Bayesian models with the hyperparameters of the
// calibration studies: GEE Lambda 2; GTT Mu 0.5, Tau 1; GTTN MuMu 0,
// TauMu 4, A 4, B 2; GRRN MuMu 0.5, TauMu 1, A = B = 2, AlphaLambda 2,
// BetaLambda 1; sigma^2 ~ InvGamma(3, 2) for all. Every hyperparameter is
// set, so none defaults to a value taken from the data.
//
// GTT and GRRN have the Geweke test's values. GEE and GTTN have smaller
// factors than there: with GEE's Lambda 1 and GTTN's MuMu 0.5, TauMu 1,
// A = B = 2 the products w_i . z_j dominate the noise, and the posterior
// of the factors is a narrow ridge along their scale (w_ik c, z_kj / c)
// that the Gibbs sampler crosses slowly: from the true parameters, the
// largest integrated autocorrelation time over the quantities of
// sbcQuantities was above 200 (GEE) and 400 (GTTN) sweeps in a quarter of
// 40 replicates, and 2,700 and 4,300 in the worst. With the values here
// the median is 3 (GEE) and 6 (GTTN) sweeps, and the data still carry
// information: the prior variance of an entry's w_i . z_j is 0.56 (GEE),
// 3.7 (GTT), 1.6 (GTTN) and 0.89 (GRRN) (Monte Carlo over 2.4 million
// entries), against a mean noise variance of 1.
func simModels() []Model {
	return []Model{
		GEE{Lambda: 2, Likelihood: gewekeLik()},
		GTT{Mu: 0.5, Tau: 1, Likelihood: gewekeLik()},
		GTTN{MuMu: 0, TauMu: 4, A: 4, B: 2, Likelihood: gewekeLik()},
		GRRN{MuMu: 0.5, TauMu: 1, A: 2, B: 2, AlphaLambda: 2, BetaLambda: 1, Likelihood: gewekeLik()},
	}
}

// simReplicate is one draw from the joint prior: the parameters, the
// training data at the cells train (row-major order, the order of
// Matrix.RowStorage and of st.a) and the held-out values at the cells test.
type simReplicate struct {
	shape simShape
	st    *gewekeState
	train [][2]int
	test  []Entry
}

// newSimState returns a state with room for a replicate of shape sh.
func newSimState(h gewekeHyper, sh simShape) *gewekeState {
	st := &gewekeState{
		w:  make([]float64, sh.rows*sh.k),
		zt: make([]float64, sh.cols*sh.k),
		a:  make([]float64, sh.train),
	}
	if h.biases {
		st.b, st.c = make([]float64, sh.rows), make([]float64, sh.cols)
	}
	for s, lines := range []int{sh.rows, sh.cols} {
		if h.hierarchical {
			st.mu[s] = make([]float64, lines*sh.k)
			st.tau[s] = make([]float64, lines*sh.k)
		}
		if h.withLambda {
			st.lambda[s] = make([]float64, lines*sh.k)
		}
	}
	return st
}

// simPred returns w_i . z_j of a state of rank k, plus mu + b_i + c_j
// for a state with offsets.
func simPred(st *gewekeState, k, i, j int) float64 {
	var v float64
	if st.b != nil {
		v = st.mu0 + st.b[i] + st.c[j]
	}
	for kk := range k {
		v += st.w[i*k+kk] * st.zt[j*k+kk]
	}
	return v
}

// drawSimReplicate draws the training and held-out cells uniformly
// without replacement, the parameters from the joint prior and every value
// from N(w_i . z_j, sigma^2), all from one stream seeded with seed.
func drawSimReplicate(h gewekeHyper, sh simShape, seed uint64) *simReplicate {
	g := newGewekeSampler(seed)
	cells := g.rng.Perm(sh.rows * sh.cols)
	rowMajor := func(c []int) [][2]int {
		slices.Sort(c)
		out := make([][2]int, len(c))
		for q, v := range c {
			out[q] = [2]int{v / sh.cols, v % sh.cols}
		}
		return out
	}
	r := &simReplicate{
		shape: sh,
		st:    newSimState(h, sh),
		train: rowMajor(cells[:sh.train]),
	}
	g.drawParams(h, r.st)
	sd := math.Sqrt(r.st.sigma2)
	for q, ij := range r.train {
		r.st.a[q] = simPred(r.st, sh.k, ij[0], ij[1]) + sd*g.rng.NormFloat64()
	}
	for _, ij := range rowMajor(cells[sh.train : sh.train+sh.test]) {
		v := simPred(r.st, sh.k, ij[0], ij[1]) + sd*g.rng.NormFloat64()
		r.test = append(r.test, Entry{Row: ij[0], Col: ij[1], Value: v})
	}
	return r
}

// matrix returns the replicate's training data, checking that its
// row-major order is that of r.train (and so of r.st.a).
func (r *simReplicate) matrix(t *testing.T) *Matrix {
	t.Helper()
	m := observedMatrix(t, r.shape.rows, r.shape.cols, r.train, r.st.a)
	for q, e := range m.Entries() {
		if e.Row != r.train[q][0] || e.Col != r.train[q][1] {
			t.Fatalf("row-major entry %d is (%d, %d), want %v", q, e.Row, e.Col, r.train[q])
		}
	}
	return m
}

// observedMatrix returns the rows x cols matrix whose observed entries are
// cells, with values[q] at cells[q].
func observedMatrix(t testing.TB, rows, cols int, cells [][2]int, values []float64) *Matrix {
	t.Helper()
	entries := make([]Entry, len(cells))
	for q, ij := range cells {
		entries[q] = Entry{Row: ij[0], Col: ij[1], Value: values[q]}
	}
	m, err := NewMatrix(rows, cols, entries)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// replicateSeed derives the seed of replicate r of a study from the
// study's seed, with SplitMix64 so that neighbouring replicates get
// unrelated streams.
func replicateSeed(seed uint64, r int) uint64 {
	return splitMix64(splitMix64(seed) ^ uint64(r))
}
