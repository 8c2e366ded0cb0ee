package bnmf

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// planted draws a rows x cols matrix max(0, W Z + noise) with nonnegative rank-k
// factors (entries uniform on [0, 1.2]), observes each entry with
// probability density and splits the observed entries into train (90%) and
// test (10%).
func planted(t testing.TB, rows, cols, k int, density, noiseSD float64, seed uint64) (train *Matrix, test []Entry, dataVar float64) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	w, z := plantedFactors(rng, rows, cols, k)
	m, test := plantedEntries(t, rng, rows, cols, density, func(i, j int) float64 {
		var v float64
		for kk := range k {
			v += w[i*k+kk] * z[j*k+kk]
		}
		// Clipped at zero: NMF needs nonnegative data.
		return math.Max(0, v+noiseSD*rng.NormFloat64())
	})
	return m, test, m.Variance()
}

// plantedFactors draws rank-k factors W (rows x k) and Z (cols x k), row
// by row, with entries uniform on [0, 1.2]: W's from rng first, then Z's.
func plantedFactors(rng *rand.Rand, rows, cols, k int) (w, z []float64) {
	w = make([]float64, rows*k)
	z = make([]float64, cols*k)
	for i := range w {
		w[i] = 1.2 * rng.Float64()
	}
	for i := range z {
		z[i] = 1.2 * rng.Float64()
	}
	return w, z
}

// plantedEntries visits the cells of a rows x cols matrix in row-major
// order, observes each with probability density, gives an observed cell
// (i, j) the value value(i, j) and holds one in ten of them out. It
// returns the training matrix and the held-out entries. Per cell, rng
// draws whether it is observed, then value draws what it needs, then rng
// draws whether it is held out.
func plantedEntries(t testing.TB, rng *rand.Rand, rows, cols int, density float64, value func(i, j int) float64) (train *Matrix, test []Entry) {
	t.Helper()
	var entries []Entry
	for i := range rows {
		for j := range cols {
			if rng.Float64() >= density {
				continue
			}
			e := Entry{Row: i, Col: j, Value: value(i, j)}
			if rng.Float64() < 0.1 {
				test = append(test, e)
			} else {
				entries = append(entries, e)
			}
		}
	}
	m, err := NewMatrix(rows, cols, entries)
	if err != nil {
		t.Fatal(err)
	}
	return m, test
}

func allModels() []Model {
	return []Model{GEE{}, GTT{}, GTTN{}, GRRN{}, NMF{}, NMF{Objective: IDivergence}, GGGU{}, GLL{}, GLLI{}, GEEA{}, GEG{}, GL21{}, GVnG{}, GVG{}}
}

// TestPlantedRecovery fits data drawn from a nonnegative rank-3 model with
// noise variance 0.01 and checks that every model reaches a train MSE near
// the noise variance and a held-out MSE far below the data variance.
func TestPlantedRecovery(t *testing.T) {
	const noiseSD = 0.1
	train, test, dataVar := planted(t, 60, 80, 3, 0.5, noiseSD, 7)
	for _, model := range allModels() {
		t.Run(model.Name(), func(t *testing.T) {
			// GEG, with Gaussian Z and exponential W drawn from their
			// priors, takes longer to reach the data: train MSE 0.021 after
			// 300 sweeps, 0.0104 after 1000 and 0.0103 after 3000 (seed 1).
			sweeps := 300
			if model.Name() == "GEG" {
				sweeps = 1000
			}
			// GVnG, whose volume prior (Gamma 1) holds the nonnegative
			// columns of W together, moves slowly: train MSE 0.030 after
			// 300 sweeps, 0.019 after 1000 and 0.0104 after 3000 (seed 1;
			// with Gamma 1e-3, 0.0102 after 300).
			if model.Name() == "GVnG" {
				sweeps = 3000
			}
			res, err := Run(context.Background(), model, train, Settings{Rank: 3, Sweeps: sweeps, BurnIn: sweeps * 2 / 3, Seed: 1, Test: test})
			if err != nil {
				t.Fatal(err)
			}
			// A rank-3 fit to ~2200 entries with 3*(60+80) free parameters
			// has train MSE about sigma^2 (1 - 420/2200) = 0.8 sigma^2 at the
			// optimum; a sample from the posterior sits about sigma^2
			// (1 + 420/2200) above. Allow 0.5 to 2 times sigma^2.
			nv := noiseSD * noiseSD
			if !(res.TrainMSE >= 0.5*nv && res.TrainMSE <= 2*nv) { // NaN fails too
				t.Errorf("train MSE %.4g, want within [0.5, 2] x noise variance %.4g", res.TrainMSE, nv)
			}
			// Held-out MSE well below the data variance (~0.6): within 3
			// times the noise variance.
			if !(res.TestMSE <= 3*nv && res.TestMSE <= dataVar/10) {
				t.Errorf("test MSE %.4g, want below 3 x noise variance %.4g (data variance %.3g)", res.TestMSE, nv, dataVar)
			}
			if len(res.PredictiveMean) != len(test) || res.Kept == 0 {
				t.Errorf("got %d predictions and %d kept sweeps", len(res.PredictiveMean), res.Kept)
			}
		})
	}
}

// TestWorkersDeterminism checks that 1 and 4 workers give identical traces
// and predictions, posterior summaries and posterior means, bit for bit.
func TestWorkersDeterminism(t *testing.T) {
	train, test, _ := planted(t, 50, 70, 4, 0.4, 0.2, 3)
	for _, model := range allModels() {
		t.Run(model.Name(), func(t *testing.T) {
			var runs [2]*Result
			for i, workers := range []int{1, 4} {
				res, err := Run(context.Background(), model, train, Settings{Rank: 4, Sweeps: 20, BurnIn: 10, Seed: 11, Workers: workers, Test: test})
				if err != nil {
					t.Fatal(err)
				}
				runs[i] = res
			}
			a, b := runs[0], runs[1]
			for s := range a.Trace {
				if a.Trace[s].TrainMSE != b.Trace[s].TrainMSE || a.Trace[s].TestMSE != b.Trace[s].TestMSE || a.Trace[s].Sigma2 != b.Trace[s].Sigma2 {
					t.Fatalf("sweep %d differs: %+v vs %+v", s+1, a.Trace[s], b.Trace[s])
				}
			}
			for i := range a.PredictiveMean {
				if a.PredictiveMean[i] != b.PredictiveMean[i] || a.PredictiveVariance[i] != b.PredictiveVariance[i] || a.PosteriorMeanProduct[i] != b.PosteriorMeanProduct[i] {
					t.Fatalf("prediction %d differs", i)
				}
			}
			if a.TrainMSE != b.TrainMSE || a.Sigma2Mean != b.Sigma2Mean || a.TestMSE != b.TestMSE || a.TestMSEOfMeans != b.TestMSEOfMeans {
				t.Fatalf("summaries differ: train MSE %v vs %v, sigma^2 mean %v vs %v, test MSE %v vs %v, %v vs %v",
					a.TrainMSE, b.TrainMSE, a.Sigma2Mean, b.Sigma2Mean, a.TestMSE, b.TestMSE, a.TestMSEOfMeans, b.TestMSEOfMeans)
			}
			if !mat.Equal(a.MeanW, b.MeanW) || !mat.Equal(a.MeanZ, b.MeanZ) {
				t.Fatal("posterior means of W or Z differ")
			}
		})
	}
}

// TestSeedsDiffer guards against a seed that is ignored.
func TestSeedsDiffer(t *testing.T) {
	train, _, _ := planted(t, 30, 40, 2, 0.5, 0.2, 3)
	var mse [2]float64
	for i := range mse {
		res, err := Run(context.Background(), GRRN{}, train, Settings{Rank: 2, Sweeps: 3, Seed: uint64(i)})
		if err != nil {
			t.Fatal(err)
		}
		mse[i] = res.TrainMSE
	}
	if mse[0] == mse[1] {
		t.Errorf("seeds 0 and 1 gave the same train MSE %v", mse[0])
	}
}

type cancelAt struct {
	sweep  int
	cancel context.CancelFunc
	seen   int
}

func (c *cancelAt) Record(s SweepStats) error {
	c.seen = s.Sweep
	if s.Sweep == c.sweep {
		c.cancel()
	}
	return nil
}

// TestCancel checks that a cancelled context stops the run after the
// current sweep.
func TestCancel(t *testing.T) {
	train, _, _ := planted(t, 30, 40, 2, 0.5, 0.2, 3)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	rec := &cancelAt{sweep: 3, cancel: cancel}
	_, err := Run(ctx, GRRN{}, train, Settings{Rank: 2, Sweeps: 100, Seed: 1, Recorder: rec})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("got error %v, want context.Canceled", err)
	}
	if rec.seen != 3 {
		t.Errorf("last recorded sweep %d, want 3", rec.seen)
	}
}

// TestRunErrors checks that invalid settings and hyperparameters are
// reported, naming the field.
func TestRunErrors(t *testing.T) {
	train, _, _ := planted(t, 10, 10, 2, 0.5, 0.2, 3)
	cases := []struct {
		name  string
		model Model
		s     Settings
		want  string
	}{
		{"rank", GRRN{}, Settings{}, "bnmf: Settings.Rank is 0; it must be positive"},
		{"burn-in", GRRN{}, Settings{Rank: 2, Sweeps: 10, BurnIn: 10}, "bnmf: Settings.BurnIn 10 must be less than Sweeps 10"},
		// The trace's room is reserved up front: 2e9 sweeps would ask for
		// 112 GB before the first sweep.
		{"sweeps", GRRN{}, Settings{Rank: 2, Sweeps: 2_000_000_000}, "bnmf: Settings.Sweeps is 2000000000; it must be at most MaxSweeps, 10000000"},
		{"lambda", GEE{Lambda: -1}, Settings{Rank: 2}, "bnmf: GEE.Lambda is -1; it must be positive and finite"},
		{"tau", GTT{Tau: math.Inf(1)}, Settings{Rank: 2}, "bnmf: GTT.Tau is +Inf; it must be positive and finite"},
		{"sigma", GTTN{Likelihood: Likelihood{BetaSigma: -2}}, Settings{Rank: 2}, "bnmf: GTTN.BetaSigma is -2; it must be positive and finite"},
		{"alpha-lambda", GRRN{AlphaLambda: -1}, Settings{Rank: 2}, "bnmf: GRRN.AlphaLambda is -1; it must be positive and finite"},
		{"test", GRRN{}, Settings{Rank: 2, Test: []Entry{{Row: 10, Col: 0}}}, "bnmf: test entry 0 (10, 0, 0) is outside the 10 x 10 matrix or not finite"},
		{"thin", GRRN{}, Settings{Rank: 2, Sweeps: 10, BurnIn: 8, Thin: 5}, "bnmf: Settings.Thin 5 keeps none of the 2 sweeps after burn-in"},
		// Gamma(1e-5, .) puts almost all its mass below the smallest
		// float64, so the initial tau is drawn as 0 and GTTN's prior
		// TN(mu, 1/tau) is improper: an error naming the entry.
		{"tau-underflow", GTTN{A: 1e-5}, Settings{Rank: 2},
			"GTTN initialisation: bnmf: initial W[0][0] is NaN: non-finite value"},
	}
	negative, err := NewMatrix(2, 3, []Entry{{Row: 0, Col: 0, Value: 1}, {Row: 1, Col: 2, Value: -0.5}, {Row: 0, Col: 2, Value: 2}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = Run(context.Background(), NMF{}, negative, Settings{Rank: 1})
	if want := "bnmf: NMF needs nonnegative data; entry (1, 2) is -0.5"; err == nil || err.Error() != want {
		t.Errorf("NMF on negative data: got error %v, want %q", err, want)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Run(context.Background(), c.model, train, c.s)
			if err == nil || err.Error() != c.want {
				t.Errorf("got error %v, want %q", err, c.want)
			}
		})
	}
}

// TestSweepAllocatesNothing checks that a sweep of every model (and of
// GEG, GLL and GLLI with block draws) allocates nothing once the chain is
// built, with one worker and with several, and with
// Settings.Float32Factors (the benchmarks report the same for the
// MovieLens shapes; this makes it a test).
func TestSweepAllocatesNothing(t *testing.T) {
	train, _, _ := planted(t, 30, 40, 3, 0.5, 0.1, 5)
	checkSweepAllocatesNothing(t, append(allModels(), blockDrawModels()...), train)
}

// checkSweepAllocatesNothing checks, in a subtest per model and setting,
// that a sweep of each model's chain on train at K = 4 allocates nothing
// with one worker, with three, and with three and float32 factors.
func checkSweepAllocatesNothing(t *testing.T, models []Model, train *Matrix) {
	t.Helper()
	for _, model := range models {
		for _, c := range []struct {
			workers int
			float32 bool
		}{{1, false}, {3, false}, {3, true}} {
			t.Run(fmt.Sprintf("%s/workers=%d/float32=%v", modelLabel(model), c.workers, c.float32), func(t *testing.T) {
				if allocs := sweepAllocs(t, model, train, 4, c.workers, c.float32); allocs != 0 {
					t.Errorf("%v allocations per sweep, want 0", allocs)
				}
			})
		}
	}
}

// sweepAllocs returns the allocations per sweep of model's chain on train
// at rank k with workers workers (and float32 factors, with float32Factors,
// where the chain has them), averaged over 20 sweeps after its
// initialisation by testing.AllocsPerRun.
func sweepAllocs(t *testing.T, model Model, train *Matrix, k, workers int, float32Factors bool) float64 {
	t.Helper()
	ch, err := model.newChain(train, k)
	if err != nil {
		t.Fatal(err)
	}
	if f, ok := ch.(float32Reader); ok && float32Factors {
		f.useFloat32Factors()
	}
	p := newPool(workers, 1, ch.scratchSize())
	defer p.close()
	if err := ch.init(p); err != nil {
		t.Fatal(err)
	}
	sweep := 1
	return testing.AllocsPerRun(20, func() {
		if err := ch.sweep(p, sweep); err != nil {
			t.Fatal(err)
		}
		sweep++
	})
}

// TestVagueHyperpriorStarts checks that a GRRN hyperprior with a tiny
// shape, whose initial draws underflow to 0, still gives a chain: tau = 0
// makes an entry's prior exponential and lambda = 0 a truncated normal, and
// the first sweep redraws both from conditionals that cannot underflow.
// (With both at 0 the prior is improper, and initialisation fails.)
func TestVagueHyperpriorStarts(t *testing.T) {
	train, _, _ := planted(t, 20, 30, 2, 0.5, 0.2, 3)
	cases := []struct {
		name  string
		model GRRN
		zero  func(*hierarchicalPrior, int) bool
	}{
		{"tau", GRRN{A: 1e-5}, func(p *hierarchicalPrior, e int) bool { return p.tau[e] == 0 }},
		{"lambda", GRRN{AlphaLambda: 1e-5}, func(p *hierarchicalPrior, e int) bool { return p.lambda[e] == 0 }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ch, err := c.model.newChain(train, 3)
			if err != nil {
				t.Fatal(err)
			}
			p := newPool(1, 1, ch.scratchSize())
			defer p.close()
			if err := ch.init(p); err != nil {
				t.Fatal(err)
			}
			hp := ch.(*gibbsChain).sides[0].prior.(*hierarchicalPrior)
			zeros := 0
			for e := range hp.tau {
				if c.zero(hp, e) {
					zeros++
				}
			}
			// A Gamma(1e-5, .) draw is below the smallest float64 with
			// probability about 1 - 1e-5 * 745 = 0.993, so nearly all 60
			// entries of W start at 0.
			if zeros < 50 {
				t.Fatalf("%d of %d initial values are 0; the test needs underflowing draws", zeros, len(hp.tau))
			}
			res, err := Run(context.Background(), c.model, train, Settings{Rank: 3, Sweeps: 20, BurnIn: 10, Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			if !(res.TrainMSE < 1) { // data of variance about 0.6; NaN fails too
				t.Errorf("train MSE %v after 20 sweeps", res.TrainMSE)
			}
		})
	}
}
