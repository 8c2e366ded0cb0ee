package bnmf

import (
	"context"
	"math"
	"testing"
	"time"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/bnmf-lab/bnmf/predictive"
)

// TestIntervalCalibration checks that the posterior predictive intervals
// of held-out entries cover at their nominal rates. Each replicate draws
// the parameters from the model's own prior (simModels), 40 training and
// 20 held-out entries of a 12 x 10 matrix at K = 3 from the likelihood
// (drawSimReplicate), and runs the model with Run from its ordinary
// initialisation; Result.Scores gives the fraction of the held-out values
// inside each central interval. When the data come from the prior, a
// correct sampler's predictive distribution is the true conditional law of
// a held-out value given the training data, so its level-a interval covers
// with probability a, averaged over replicates.
//
// The tolerance. The replicates are independent (each has its own prior
// draw, data, cells and chain), so their coverages are i.i.d. with mean a,
// and the mean over R replicates has the standard error s/sqrt(R), with s
// the coverages' standard deviation between replicates. The 20 entries of
// one replicate are not independent (they share the parameters, sigma^2
// above all, and the chain), so the binomial error a(1-a)/(20R) would be
// too small; the between-replicate s accounts for that correlation, which
// is why it is used. The statistic (mean - a)/(s/sqrt(R)) is then
// Student-t with R - 1 degrees of freedom (to within the coverages'
// non-normality, negligible at R >= 100 for a mean of bounded values), and
// each of the 16 comparisons (4 levels, 4 models) has a two-sided limit at
// 0.001/16, so that a correct sampler fails with probability below 0.001
// (Bonferroni).
//
// The chain's own error. A chain that keeps S sweeps with effective size
// S_eff gives a mixture whose centre is off by about sqrt(v/S_eff) and
// whose spread is too small by v/S_eff, for v the variance of w_i . z_j
// over the posterior; the held-out value then lies outside the nominal
// interval slightly more often. With v at most the predictive variance and
// S_eff of about 200 (1,000 kept sweeps, an autocorrelation time of
// w_0 . z_0 below 5 in most replicates), the interval is too narrow by at
// most about 0.5%, which lowers the coverage by at most 0.002 at every
// level: well inside the tolerance even at the full size.
func TestIntervalCalibration(t *testing.T) {
	skipUnderRace(t)
	// At 1,200 sweeps a replicate takes about 6 ms of CPU.
	reps := 500
	switch {
	case *calibrationLarge:
		reps = 4000
	case testing.Short():
		reps = 100
	}
	const (
		burnIn, kept = 200, 1000
		family       = 0.001
	)
	levels := predictive.DefaultLevels()
	comparisons := float64(len(levels) * len(simModels()))
	limit := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(reps - 1)}.Quantile(1 - family/comparisons/2)
	sh := defaultSimShape()
	for mi, model := range simModels() {
		t.Run(model.Name(), func(t *testing.T) {
			start := time.Now()
			h := gewekeHyperOf(t, model)
			sum, sum2 := make([]float64, len(levels)), make([]float64, len(levels))
			for r := range reps {
				rep := drawSimReplicate(h, sh, replicateSeed(uint64(1000+mi), r))
				res, err := Run(context.Background(), model, rep.matrix(t), Settings{
					Rank:    sh.k,
					Sweeps:  burnIn + kept,
					BurnIn:  burnIn,
					Workers: 1,
					Seed:    replicateSeed(uint64(2000+mi), r),
					Test:    rep.test,
					Scores:  &predictive.Settings{},
				})
				if err != nil {
					t.Fatalf("replicate %d: %v", r, err)
				}
				for l, c := range res.Scores.Scores[0].Coverage {
					sum[l] += c
					sum2[l] += c * c
				}
			}
			for l, a := range levels {
				mean := sum[l] / float64(reps)
				sd := math.Sqrt((sum2[l] - sum[l]*mean) / float64(reps-1))
				se := sd / math.Sqrt(float64(reps))
				z := (mean - a) / se
				t.Logf("level %.2f: coverage %.4f ± %.4f (between-replicate sd %.3f), t = %+.2f", a, mean, se, sd, z)
				if !(math.Abs(z) < limit) {
					t.Errorf("level %.2f: mean coverage %.4f over %d replicates is %.2f standard errors (%.4f) from nominal; limit %.2f",
						a, mean, reps, z, se, limit)
				}
			}
			t.Logf("%d replicates in %v", reps, time.Since(start).Round(time.Millisecond))
		})
	}
}
