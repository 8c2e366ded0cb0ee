package bnmf

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// biasedModels lists, from the registry, every model that accepts
// offsets (every Gaussian-likelihood prior), with offsets and its default
// hyperparameters.
func biasedModels() []Model {
	var out []Model
	for _, s := range Specs() {
		if AcceptsBiases(s.Zero) {
			out = append(out, WithBiases(s.Zero))
		}
	}
	return out
}

// TestBiasedModelsAreTheGaussianOnes checks the registry's answer: the
// sixteen priors but the Poisson ones, and no baseline or NMF.
func TestBiasedModelsAreTheGaussianOnes(t *testing.T) {
	var got []string
	for _, m := range biasedModels() {
		got = append(got, m.Name())
	}
	want := []string{"GEE+b", "GTT+b", "GTTN+b", "GRRN+b", "GEEA+b", "GEG+b", "GGG+b", "GGGA+b", "GGGU+b", "GGGW+b", "GL21+b", "GLL+b", "GLLI+b", "GVG+b", "GVnG+b"}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("models with offsets %v, want %v", got, want)
	}
}

// plantedBiased draws a rows x cols matrix A_ij = 3 + b_i + c_j +
// w_i . z_j + N(0, 0.1^2), with b, c ~ N(0, 0.5^2), W and Z uniform on
// [0, 1.2] at rank k, observing each entry with probability density, one
// in ten of them held out. It returns the planted offsets too.
func plantedBiased(t testing.TB, rows, cols, k int, density float64, seed uint64) (train *Matrix, test []Entry, b, c []float64) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 2))
	w, z := plantedFactors(rng, rows, cols, k)
	b, c = make([]float64, rows), make([]float64, cols)
	for i := range b {
		b[i] = 0.5 * rng.NormFloat64()
	}
	for j := range c {
		c[j] = 0.5 * rng.NormFloat64()
	}
	train, test = plantedEntries(t, rng, rows, cols, density, func(i, j int) float64 {
		v := 3 + b[i] + c[j] + 0.1*rng.NormFloat64()
		for kk := range k {
			v += w[i*k+kk] * z[j*k+kk]
		}
		return v
	})
	return train, test, b, c
}

// TestBiasedWorkersDeterminism checks that 1, 2 and 3 workers give
// identical chains with offsets, bit for bit: traces, predictions,
// posterior means and the offsets' summaries, also with float32 factors.
func TestBiasedWorkersDeterminism(t *testing.T) {
	train, test, _, _ := plantedBiased(t, 40, 60, 3, 0.4, 3)
	for _, model := range biasedModels() {
		for _, f32 := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/float32=%v", model.Name(), f32), func(t *testing.T) {
				var runs []*Result
				for _, workers := range []int{1, 2, 3} {
					res, err := Run(context.Background(), model, train, Settings{Rank: 3, Sweeps: 20, BurnIn: 10, Seed: 11, Workers: workers, Test: test, Float32Factors: f32})
					if err != nil {
						t.Fatal(err)
					}
					runs = append(runs, res)
				}
				a := runs[0]
				if a.Offsets == nil {
					t.Fatal("no offsets in the result")
				}
				for w, b := range runs[1:] {
					for s := range a.Trace {
						if a.Trace[s].TrainMSE != b.Trace[s].TrainMSE || a.Trace[s].TestMSE != b.Trace[s].TestMSE || a.Trace[s].Sigma2 != b.Trace[s].Sigma2 {
							t.Fatalf("%d workers: sweep %d differs: %+v vs %+v", w+2, s+1, a.Trace[s], b.Trace[s])
						}
					}
					if !slices.Equal(a.PredictiveMean, b.PredictiveMean) || !slices.Equal(a.PredictiveVariance, b.PredictiveVariance) || !slices.Equal(a.PosteriorMeanProduct, b.PosteriorMeanProduct) {
						t.Fatalf("%d workers: predictions differ", w+2)
					}
					if !mat.Equal(a.MeanW, b.MeanW) || !mat.Equal(a.MeanZ, b.MeanZ) {
						t.Fatalf("%d workers: posterior means of W or Z differ", w+2)
					}
					oa, ob := a.Offsets, b.Offsets
					if oa.Mu != ob.Mu || oa.MuSD != ob.MuSD || oa.TauB != ob.TauB || oa.TauC != ob.TauC ||
						!slices.Equal(oa.B, ob.B) || !slices.Equal(oa.BSD, ob.BSD) || !slices.Equal(oa.C, ob.C) || !slices.Equal(oa.CSD, ob.CSD) {
						t.Fatalf("%d workers: offsets differ", w+2)
					}
				}
			})
		}
	}
}

// TestBiasedSweepAllocatesNothing checks that a sweep with offsets
// allocates nothing once the chain is built, for GEG, GLL and GLLI with
// block draws too.
func TestBiasedSweepAllocatesNothing(t *testing.T) {
	train, _, _, _ := plantedBiased(t, 30, 40, 3, 0.5, 5)
	models := biasedModels()
	for _, m := range blockDrawModels() {
		models = append(models, WithBiases(m))
	}
	checkSweepAllocatesNothing(t, models, train)
}

// TestBiasedRecovery fits data with planted offsets: GRRN+b must find the
// offsets (their posterior means correlate with the planted ones) and
// predict the held-out entries better than GRRN without them, and its
// residuals must stay exact: the stored residuals equal a - mu - b - c -
// w . z recomputed from the state.
func TestBiasedRecovery(t *testing.T) {
	train, test, b, c := plantedBiased(t, 60, 80, 3, 0.5, 7)
	s := Settings{Rank: 3, Sweeps: 300, BurnIn: 200, Seed: 3, Workers: 1, Test: test}
	plain, err := Run(context.Background(), GRRN{}, train, s)
	if err != nil {
		t.Fatal(err)
	}
	biased, err := Run(context.Background(), WithBiases(GRRN{}), train, s)
	if err != nil {
		t.Fatal(err)
	}
	if biased.Model != "GRRN+b" {
		t.Errorf("model name %q, want GRRN+b", biased.Model)
	}
	o := biased.Offsets
	t.Logf("test MSE: GRRN %.4f, GRRN+b %.4f; mu %.3f±%.3f, tau_b %.2f, tau_c %.2f", plain.TestMSE, biased.TestMSE, o.Mu, o.MuSD, o.TauB, o.TauC)
	// The offsets are identified only up to what W Z can absorb (a
	// nonnegative rank-3 product shifts rows and columns too), so they
	// are checked by their correlation with the planted ones; with 60
	// rows of about 36 entries each and noise 0.1 a correlation below 0.9
	// means the offsets did not learn the row effects.
	for _, tc := range []struct {
		name         string
		got, planted []float64
	}{{"b", o.B, b}, {"c", o.C, c}} {
		if r := correlation(tc.got, tc.planted); !(r > 0.9) {
			t.Errorf("%s: correlation with the planted offsets is %.3f, want > 0.9", tc.name, r)
		}
	}
	// Offsets that explain half the spread of the data leave GRRN's
	// factors to absorb them with rank 3; the planted noise variance is
	// 0.01, so GRRN+b's held-out MSE must be below GRRN's.
	if !(biased.TestMSE < plain.TestMSE) {
		t.Errorf("GRRN+b's held-out MSE %.4f is not below GRRN's %.4f", biased.TestMSE, plain.TestMSE)
	}
	if !(biased.TestMSE < 0.05) {
		t.Errorf("GRRN+b's held-out MSE %.4f is far above the noise variance 0.01", biased.TestMSE)
	}
}

func correlation(x, y []float64) float64 {
	var mx, my float64
	for i := range x {
		mx += x[i]
		my += y[i]
	}
	mx /= float64(len(x))
	my /= float64(len(y))
	var sxy, sxx, syy float64
	for i := range x {
		sxy += (x[i] - mx) * (y[i] - my)
		sxx += (x[i] - mx) * (x[i] - mx)
		syy += (y[i] - my) * (y[i] - my)
	}
	return sxy / math.Sqrt(sxx*syy)
}

// TestBiasedResidualsExact checks after some sweeps that the residuals
// the chain keeps are a - mu - b_i - c_j - w_i . z_j of its state, to
// rounding.
func TestBiasedResidualsExact(t *testing.T) {
	train, _, _, _ := plantedBiased(t, 20, 30, 2, 0.5, 9)
	for _, model := range biasedModels() {
		t.Run(model.Name(), func(t *testing.T) {
			ch, err := model.newChain(train, 2)
			if err != nil {
				t.Fatal(err)
			}
			p := newPool(2, 1, ch.scratchSize())
			defer p.close()
			if err := ch.init(p); err != nil {
				t.Fatal(err)
			}
			for s := 1; s <= 5; s++ {
				if err := ch.sweep(p, s); err != nil {
					t.Fatal(err)
				}
			}
			c, ok := ch.(*gibbsChain)
			if m, isMVN := ch.(*mvnChain); isMVN {
				c, ok = m.gibbsChain, true
			}
			if !ok {
				t.Fatalf("chain %T", ch)
			}
			var ss float64
			for q, e := range train.Entries() {
				want := e.Value - c.off.at(e.Row, e.Col)
				for kk := range c.k {
					want -= c.w[e.Row*c.k+kk] * c.zt[e.Col*c.k+kk]
				}
				if d := math.Abs(c.resid[q] - want); d > 1e-9 {
					t.Fatalf("residual %d (%d, %d) is %v, want %v", q, e.Row, e.Col, c.resid[q], want)
				}
				ss += want * want
			}
			if d := math.Abs(c.trainSS() - ss); d > 1e-9*ss {
				t.Errorf("sum of squares %v, want %v", c.trainSS(), ss)
			}
		})
	}
}

// TestBiasesRefused checks that the option is refused, with a clear
// error, for models without a Gaussian likelihood, and that the registry
// knows the biased names of the Gaussian ones.
func TestBiasesRefused(t *testing.T) {
	train, _, _ := planted(t, 10, 12, 2, 0.6, 0.1, 1)
	for _, m := range []Model{NMF{}, Bias{}, GlobalMean{}, PGG{}, PGGG{}} {
		_, err := Run(context.Background(), WithBiases(m), train, Settings{Rank: 2, Sweeps: 3})
		if err == nil || !strings.Contains(err.Error(), "has no Gaussian likelihood") {
			t.Errorf("%s: got error %v, want one saying it has no Gaussian likelihood", m.Name(), err)
		}
		if _, ok := Lookup(m.Name() + BiasSuffix); ok {
			t.Errorf("Lookup(%q) found a model", m.Name()+BiasSuffix)
		}
	}
	for _, name := range []string{"GEE", "GTT", "GTTN", "GRRN", "GGGU", "GLL", "GLLI", "GEEA", "GEG", "GGG", "GGGA", "GGGW"} {
		s, ok := Lookup(name + BiasSuffix)
		if !ok {
			t.Errorf("Lookup(%q) found nothing", name+BiasSuffix)
			continue
		}
		m, err := s.Configure(map[string]any{"alpha_sigma": 2.0, "bias_tau_mu": 3.0, "bias_beta_c": 0.5})
		if err != nil {
			t.Fatal(err)
		}
		if m.Name() != name+BiasSuffix {
			t.Errorf("configured %s is named %s", name+BiasSuffix, m.Name())
		}
		if b := m.(Biased); b.TauMu != 3 || b.BetaC != 0.5 || b.M0 != 0 {
			t.Errorf("%s: offsets %+v, want TauMu 3 and BetaC 0.5", m.Name(), b.Offsets)
		}
		if _, err := s.Configure(map[string]any{"bias_alpha_b": -1.0}); err == nil {
			t.Errorf("%s: bias_alpha_b = -1 accepted", m.Name())
		}
		if _, err := Run(context.Background(), m, train, Settings{Rank: 2, Sweeps: 3}); err != nil {
			t.Errorf("%s: %v", m.Name(), err)
		}
	}
}

// TestBiasedEmptyLines checks that a row and a column with no training
// entries get offsets from the prior and that the result counts them.
func TestBiasedEmptyLines(t *testing.T) {
	train, _, _, _ := plantedBiased(t, 20, 30, 2, 0.5, 4)
	var entries []Entry
	for _, e := range train.Entries() {
		if e.Row != 3 && e.Col != 5 {
			entries = append(entries, e)
		}
	}
	m, err := NewMatrix(20, 30, entries)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), WithBiases(GRRN{}), m, Settings{Rank: 2, Sweeps: 400, BurnIn: 100, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	o := res.Offsets
	if o.EmptyRows != 1 || o.EmptyCols != 1 {
		t.Errorf("empty rows and columns %d, %d, want 1, 1", o.EmptyRows, o.EmptyCols)
	}
	if !slices.ContainsFunc(res.Warnings, func(w string) bool { return strings.Contains(w, "offsets: 1 of 20 rows and 1 of 30 columns") }) {
		t.Errorf("no warning about the offsets of the empty lines in %q", res.Warnings)
	}
	// From the prior, b_3 has mean 0 and standard deviation
	// E[1/sqrt(tau_b)]; over 300 kept draws of a chain whose tau_b is
	// well determined by 19 rows, its posterior mean is within a few
	// standard errors of 0 (the draws are independent given tau_b:
	// standard error sd/sqrt(300)).
	for _, tc := range []struct {
		name   string
		mean   float64
		sd     float64
		tauRef float64
	}{{"b_3", o.B[3], o.BSD[3], o.TauB}, {"c_5", o.C[5], o.CSD[5], o.TauC}} {
		prior := 1 / math.Sqrt(tc.tauRef)
		if !(math.Abs(tc.mean) < 5*tc.sd/math.Sqrt(300)) {
			t.Errorf("%s: posterior mean %.4f with sd %.4f, want near the prior's 0", tc.name, tc.mean, tc.sd)
		}
		// The sd mixes over tau's posterior; within a factor 1.5 of
		// 1/sqrt(E[tau]).
		if !(tc.sd > prior/1.5 && tc.sd < prior*1.5) {
			t.Errorf("%s: posterior sd %.4f, want near the prior's %.4f", tc.name, tc.sd, prior)
		}
	}
}
