package bnmf

import (
	"context"
	"math"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"
)

// TestPredictiveVarianceTwoPass checks Result.PredictiveMean and
// Result.PredictiveVariance against a direct two-pass computation over the
// kept samples. PredictiveVariance is the population variance (divided by
// the number of kept sweeps, not one less) of the kept predictions
// w_m . z_n; it does not include sigma^2.
//
// The kept predictions are read through the public API alone: the chain's
// draws depend only on (seed, sweep, phase, line), never on Sweeps, so a
// run of Sweeps = j with BurnIn = j-1 keeps exactly sweep j of the same
// chain, and its PredictiveMean is that sweep's prediction. The test checks
// that each short run's trace matches the long run's first j sweeps bit for
// bit, so the samples compared are the long run's own.
func TestPredictiveVarianceTwoPass(t *testing.T) {
	const (
		burnIn = 12
		sweeps = 24 // 12 kept sweeps: few, so that the running update's errors would show
		rank   = 3
		seed   = 17
	)
	train, test, _ := planted(t, 30, 40, rank, 0.5, 0.2, 5)
	for _, model := range []Model{GRRN{}, GEE{}} {
		t.Run(model.Name(), func(t *testing.T) {
			settings := Settings{Rank: rank, Sweeps: sweeps, BurnIn: burnIn, Seed: seed, Workers: 1, Test: test}
			long, err := Run(context.Background(), model, train, settings)
			if err != nil {
				t.Fatal(err)
			}
			if long.Kept != sweeps-burnIn {
				t.Fatalf("kept %d sweeps, want %d", long.Kept, sweeps-burnIn)
			}
			samples := make([][]float64, 0, long.Kept)
			for j := burnIn + 1; j <= sweeps; j++ {
				s := settings
				s.Sweeps, s.BurnIn = j, j-1
				short, err := Run(context.Background(), model, train, s)
				if err != nil {
					t.Fatal(err)
				}
				if short.Kept != 1 {
					t.Fatalf("sweep %d: kept %d sweeps, want 1", j, short.Kept)
				}
				for i, st := range short.Trace {
					lt := long.Trace[i]
					if st.TrainMSE != lt.TrainMSE || st.TestMSE != lt.TestMSE || st.Sigma2 != lt.Sigma2 {
						t.Fatalf("run of %d sweeps differs from the long run at sweep %d: %+v vs %+v", j, i+1, st, lt)
					}
				}
				samples = append(samples, short.PredictiveMean)
			}
			n := float64(len(samples))
			var spread float64 // largest two-pass variance, to check the test has something to see
			for e := range test {
				var mean float64
				for _, p := range samples {
					mean += p[e]
				}
				mean /= n
				var ss float64
				for _, p := range samples {
					d := p[e] - mean
					ss += d * d
				}
				variance := ss / n
				spread = math.Max(spread, variance)
				// Welford's update and the two-pass sum differ only by
				// rounding: a few ulps of the mean, and for the variance a
				// relative 1e-12 (12 terms, each with relative error near
				// 1e-16) plus an absolute 1e-15 mean^2 for the cancellation in
				// p - mean. Updating with delta*delta instead raised every
				// variance here by a factor of 1.77 to 59, and dividing by
				// n-1 by 12/11.
				if got := long.PredictiveMean[e]; !scalar.EqualWithinAbsOrRel(got, mean, 1e-14*math.Abs(mean), 1e-14) {
					t.Errorf("entry %d: PredictiveMean %.17g, two-pass mean %.17g", e, got, mean)
				}
				if got := long.PredictiveVariance[e]; !scalar.EqualWithinAbsOrRel(got, variance, 1e-15*mean*mean, 1e-12) {
					t.Errorf("entry %d: PredictiveVariance %.17g, two-pass variance %.17g (ratio %.6f)", e, got, variance, got/variance)
				}
			}
			if !(spread > 1e-6) {
				t.Fatalf("largest predictive variance %g: the kept samples barely differ, so the test would see nothing", spread)
			}
		})
	}
}
