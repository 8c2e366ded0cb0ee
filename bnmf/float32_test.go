package bnmf

import (
	"context"
	"math"
	"testing"
)

// TestFloat32Factors runs every Bayesian model with and without
// Settings.Float32Factors on a planted problem with the same seed. Reading
// the other factor rounded to float32 moves each value read by at most
// 2^-24 (6e-8) of itself, so the two chains draw from conditionals that
// differ in about the seventh digit and, with the same random numbers,
// stay that close unless a rejection sampler's accept test falls the
// other way (at most a few in a million draws here): sigma^2 after every
// one of 20 sweeps and the posterior mean predictions agree to a relative
// 1e-5 (measured: at most 1.5e-7), while some of them differ (the copies
// are read), and the results are the same for 2 and 3 workers. NMF
// ignores the setting.
func TestFloat32Factors(t *testing.T) {
	train, test, _ := planted(t, 40, 30, 3, 0.5, 0.3, 5)
	for _, model := range []Model{GEE{}, GTT{}, GTTN{}, GRRN{}, NMF{}} {
		t.Run(model.Name(), func(t *testing.T) {
			s := Settings{Rank: 3, Sweeps: 20, BurnIn: 10, Seed: 7, Workers: 2, Test: test}
			a, err := Run(context.Background(), model, train, s)
			if err != nil {
				t.Fatal(err)
			}
			s.Float32Factors = true
			b, err := Run(context.Background(), model, train, s)
			if err != nil {
				t.Fatal(err)
			}
			rel := func(x, y float64) float64 { return math.Abs(x-y) / math.Max(math.Abs(x), 1e-300) }
			var worst float64
			equal := true
			for i := range a.Trace {
				x, y := a.Trace[i].Sigma2, b.Trace[i].Sigma2
				worst = max(worst, rel(x, y))
				equal = equal && x == y
			}
			for i := range a.PredictiveMean {
				x, y := a.PredictiveMean[i], b.PredictiveMean[i]
				worst = max(worst, rel(x, y))
				equal = equal && x == y
			}
			if worst > 1e-5 {
				t.Errorf("largest relative difference %g from the default chain, want at most 1e-5", worst)
			}
			if _, nmf := model.(NMF); nmf != equal {
				t.Errorf("results equal to the default's: %v (largest relative difference %g)", equal, worst)
			}
			// Like the default, the same for any number of workers.
			s.Workers = 3
			c, err := Run(context.Background(), model, train, s)
			if err != nil {
				t.Fatal(err)
			}
			for i := range b.Trace {
				if b.Trace[i].Sigma2 != c.Trace[i].Sigma2 || b.Trace[i].TrainMSE != c.Trace[i].TrainMSE {
					t.Fatalf("sweep %d: sigma^2 %v, train MSE %v with 2 workers; %v, %v with 3", i+1, b.Trace[i].Sigma2, b.Trace[i].TrainMSE, c.Trace[i].Sigma2, c.Trace[i].TrainMSE)
				}
			}
		})
	}
}
