package bnmf

import (
	"context"
	"math"
	"testing"
)

// A column with one or two observed entries has a factor that the data pin
// down in one or two directions only; in the others only its prior holds
// it. TestSparseColumnPosterior checks that GRRN's sampler gets the
// posterior of such columns' predictions right, against the posterior
// computed without the sampler: self-normalised importance sampling with
// the joint prior as proposal (drawn exactly by the Geweke test's
// rejection sampler) and sigma^2 integrated out in closed form, so that a
// draw's weight is
//
//	(BetaSigma + SS/2)^-(AlphaSigma + n/2),
//
// with SS the squared error of the draw on the n observed entries.
//
// The matrix is 3 x 2 with K = 2: column 0 rated by rows 0 and 1, column
// 1 by row 2 only. (Three observations keep the weights' spread small
// enough for importance sampling from the prior to be efficient.) The
// quantities compared are, for the unobserved entries (2, 0) (of the
// twice-rated column) and (0, 1), (1, 1) (of the once-rated column), the posterior mean of w_m . z_n, the
// probability that it exceeds 5 (the top of the ratings' scale) and the
// posterior mean of the bounded w_m . z_n / (1 + w_m . z_n).

// sparseColumnData are the observed entries: ratings of 1 to 5.
func sparseColumnData() []Entry {
	return []Entry{
		{Row: 0, Col: 0, Value: 4}, {Row: 1, Col: 0, Value: 2},
		{Row: 2, Col: 1, Value: 5},
	}
}

// sparseColumnTargets are the unobserved entries whose predictions are
// compared.
var sparseColumnTargets = [][2]int{{2, 0}, {0, 1}, {1, 1}}

// sparseColumnStats returns, for a prediction p, the three test functions
// averaged: p itself, the indicator p > 5 and p / (1 + p).
func sparseColumnStats(p float64) [3]float64 {
	var above float64
	if p > 5 {
		above = 1
	}
	return [3]float64{p, above, p / (1 + p)}
}

var sparseColumnStatNames = [3]string{"mean", "P(>5)", "p/(1+p)"}

// sparseColumnImportance returns the importance-sampling estimates of the
// test functions for every target, and their delta-method standard
// errors, from n draws of the joint prior.
func sparseColumnImportance(h gewekeHyper, data []Entry, n int, seed uint64) (est, se [][3]float64, ess float64) {
	g := newGewekeSampler(seed)
	st := newGewekeState(h)
	nt := len(sparseColumnTargets)
	// Running sums of w, w^2, w f and w^2 f^2, w^2 f for the ratio
	// estimator's variance: Var(sum w f / sum w) ~ sum w^2 (f - est)^2 / (sum w)^2.
	var sw, sw2 float64
	swf := make([][3]float64, nt)
	sw2f := make([][3]float64, nt)
	sw2f2 := make([][3]float64, nt)
	expo := -(h.alphaSigma + float64(len(data))/2)
	for range n {
		g.drawParams(h, st)
		var ss float64
		for _, e := range data {
			d := e.Value - st.pred(e.Row, e.Col)
			ss += d * d
		}
		w := math.Pow(h.betaSigma+ss/2, expo)
		sw += w
		sw2 += w * w
		for i, ij := range sparseColumnTargets {
			f := sparseColumnStats(st.pred(ij[0], ij[1]))
			for q := range f {
				swf[i][q] += w * f[q]
				sw2f[i][q] += w * w * f[q]
				sw2f2[i][q] += w * w * f[q] * f[q]
			}
		}
	}
	est = make([][3]float64, nt)
	se = make([][3]float64, nt)
	for i := range est {
		for q := range est[i] {
			m := swf[i][q] / sw
			est[i][q] = m
			v := (sw2f2[i][q] - 2*m*sw2f[i][q] + m*m*sw2) / (sw * sw)
			se[i][q] = math.Sqrt(math.Max(v, 0))
		}
	}
	return est, se, sw * sw / sw2
}

// sparseColumnRecorder averages the test functions over each chain's kept
// draws.
type sparseColumnRecorder struct {
	k     int
	sum   [][][3]float64 // chain, target
	count []int
}

func (r *sparseColumnRecorder) RecordDraw(d Draw) error {
	for i, ij := range sparseColumnTargets {
		var p float64
		for k := range r.k {
			p += d.W[ij[0]*r.k+k] * d.Zt[ij[1]*r.k+k]
		}
		f := sparseColumnStats(p)
		for q := range f {
			r.sum[d.Chain][i][q] += f[q]
		}
	}
	r.count[d.Chain]++
	return nil
}

func TestSparseColumnPosterior(t *testing.T) {
	skipUnderRace(t)
	data := sparseColumnData()
	const k = 2
	train, err := NewMatrix(3, 2, data)
	if err != nil {
		t.Fatal(err)
	}
	// The defaults, written out so that the importance sampler reads the
	// same numbers: BetaLambda is sqrt(m0/K) with m0 the data's mean.
	model := GRRN{TauMu: 0.1, A: 1, B: 1, AlphaLambda: 1, BetaLambda: math.Sqrt(train.Mean() / k),
		Likelihood: Likelihood{AlphaSigma: 1, BetaSigma: 1}}
	h := gewekeHyperOf(t, model)

	draws, chains, sweeps := 1_000_000, 16, 40_000
	if testing.Short() {
		draws, chains, sweeps = 250_000, 8, 20_000
	}
	want, wantSE, ess := sparseColumnImportance(h, data, draws, 20261124)
	t.Logf("importance sampling: %d draws, effective sample size %.0f", draws, ess)

	rec := &sparseColumnRecorder{k: k, sum: make([][][3]float64, chains), count: make([]int, chains)}
	for c := range rec.sum {
		rec.sum[c] = make([][3]float64, len(sparseColumnTargets))
	}
	s := Settings{Rank: k, Sweeps: sweeps, BurnIn: 1000, Seed: 7, Workers: 2, Draws: rec}
	if _, err := RunChains(context.Background(), model, train, s, chains); err != nil {
		t.Fatal(err)
	}
	// A prior the sampler does not sample from, with mu's hyperprior ten
	// times as precise, must be told apart: that shows the comparison has
	// the power to see a sampler whose prior for these columns is wrong.
	hWrong := h
	hWrong.tauMu = 1
	other, otherSE, _ := sparseColumnImportance(hWrong, data, draws, 20261125)
	var worst float64
	for i, ij := range sparseColumnTargets {
		for q, name := range sparseColumnStatNames {
			// The chains are independent, so the spread of their means
			// gives the standard error of the pooled mean, whatever the
			// autocorrelation within a chain.
			var m, m2 float64
			for c := range chains {
				v := rec.sum[c][i][q] / float64(rec.count[c])
				m += v
				m2 += v * v
			}
			m /= float64(chains)
			sd := math.Sqrt((m2/float64(chains) - m*m) * float64(chains) / float64(chains-1))
			gibbsSE := sd / math.Sqrt(float64(chains))
			z := (m - want[i][q]) / math.Hypot(gibbsSE, wantSE[i][q])
			t.Logf("(%d, %d) %-8s Gibbs %.4f (se %.4f), importance sampling %.4f (se %.4f), z %.2f",
				ij[0], ij[1], name, m, gibbsSE, want[i][q], wantSE[i][q], z)
			// Twelve comparisons; |z| > 4 has probability about 6e-5
			// each for normal errors (more with a t on chains-1 degrees
			// of freedom for the Gibbs part, about 1e-3 at 15), so a
			// right sampler fails this with probability about 1%.
			zWrong := (m - other[i][q]) / math.Hypot(gibbsSE, otherSE[i][q])
			worst = math.Max(worst, math.Abs(zWrong))
			t.Logf("    with TauMu 1: importance sampling %.4f (se %.4f), z %.2f", other[i][q], otherSE[i][q], zWrong)
			if math.Abs(z) > 4 {
				t.Errorf("(%d, %d) %s: Gibbs %.4f, importance sampling %.4f: z = %.2f", ij[0], ij[1], name, m, want[i][q], z)
			}
		}
	}
	if worst < 6 {
		t.Errorf("against the posterior under TauMu = 1 the largest |z| is %.2f, want > 6: the comparison cannot tell the priors apart", worst)
	}
}
