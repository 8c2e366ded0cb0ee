package regression

import (
	"reflect"
	"strings"
	"testing"
)

// TestClaimsCalibration checks what results/README.md says of the
// predictive calibration of the one-chain MovieLens 100K sparsity cells
// (ml100k-scores-sparsity, the first repeats of ml100k-sparsity run again
// with scores):
//   - every cell's metrics and trace equal the committed ml100k-sparsity
//     record's (the chains are the same);
//   - wherever a chain is not stuck, each prior's central 90% intervals
//     cover between 87% and 91% of the held-out ratings (mean over
//     repeats) and its 95% intervals between 92% and 95%;
//   - the stuck cells at K = 50 have 50% intervals that cover at most
//     40% (GEE's stuck cells at K = 40 cover at their levels, with
//     intervals hundreds wide);
//   - GRRN has the best mean log predictive density in 18 of the 24
//     settings and the best CRPS in 19.
func TestClaimsCalibration(t *testing.T) {
	sc := committedStudy(t, "ml100k-scores-sparsity")
	single := committedStudy(t, "ml100k-sparsity")
	byKey := recordsByKey(single)
	type agg struct {
		n                       int
		cov50, cov90, cov95, ld float64
		crps                    float64
		stuck                   bool
	}
	groups := make(map[setting]*agg)
	for i := range sc.Records {
		r := &sc.Records[i]
		one := byKey[r.Cell.Key()]
		a, b := r.Metrics, one.Metrics
		a.SecondsPerSweep, b.SecondsPerSweep = 0, 0
		if !reflect.DeepEqual(a, b) || !reflect.DeepEqual(r.Trace.TrainMSE, one.Trace.TrainMSE) {
			t.Errorf("%s differs from the committed ml100k-sparsity record", r.Cell.Key())
		}
		if r.Predictive == nil {
			continue
		}
		s := setting{r.Cell.Model, r.Cell.Rank, r.Cell.Fraction}
		g := groups[s]
		if g == nil {
			g = &agg{}
			groups[s] = g
		}
		p := r.Predictive.Test
		g.n++
		g.cov50 += p.Coverage[0]
		g.cov90 += p.Coverage[2]
		g.cov95 += p.Coverage[3]
		g.ld += p.LogDensity
		g.crps += p.CRPS
		g.stuck = g.stuck || strings.Contains(strings.Join(r.Warnings, "\n"), "stuck chain")
	}
	if len(groups) != 96 {
		t.Fatalf("%d scored settings, want 96 (4 priors x 24)", len(groups))
	}
	bestLD, bestCRPS := 0, 0
	for _, f := range sc.Manifest.Fractions {
		for _, k := range sc.Manifest.Ranks {
			ld, crps := "", ""
			for _, m := range bayesian {
				g := groups[setting{m, k, f}]
				n := float64(g.n)
				if g.stuck {
					if k == 50 && g.cov50/n > 0.40 {
						t.Errorf("%s K=%d f=%g (stuck): 50%% coverage %.3f, not at most 0.40", m, k, f, g.cov50/n)
					}
				} else if c90, c95 := g.cov90/n, g.cov95/n; c90 < 0.87 || c90 > 0.91 || c95 < 0.92 || c95 > 0.95 {
					t.Errorf("%s K=%d f=%g: coverage %.3f at 90%% and %.3f at 95%%", m, k, f, c90, c95)
				}
				if ld == "" || g.ld/n > groups[setting{ld, k, f}].ld/float64(groups[setting{ld, k, f}].n) {
					ld = m
				}
				if crps == "" || g.crps/n < groups[setting{crps, k, f}].crps/float64(groups[setting{crps, k, f}].n) {
					crps = m
				}
			}
			if ld == "GRRN" {
				bestLD++
			}
			if crps == "GRRN" {
				bestCRPS++
			}
		}
	}
	if bestLD != 18 || bestCRPS != 19 {
		t.Errorf("GRRN has the best log density in %d settings and the best CRPS in %d, not 18 and 19", bestLD, bestCRPS)
	}
}

// TestClaimsCalibrationNoise checks what results/README.md says of the
// scored noise study (ml100k-scores-noise): its cells equal the committed
// ml100k-noise records, every prior's 90% intervals cover 88.8% to 90.1%
// of the noisy held-out values at every ratio (mean over repeats), and at
// ratio 10 GRRN's cover all of the clean values.
func TestClaimsCalibrationNoise(t *testing.T) {
	sc := committedStudy(t, "ml100k-scores-noise")
	single := committedStudy(t, "ml100k-noise")
	byKey := recordsByKey(single)
	cov := make(map[setting][]float64)
	clean := make(map[setting][]float64)
	for i := range sc.Records {
		r := &sc.Records[i]
		one := byKey[r.Cell.Key()]
		a, b := r.Metrics, one.Metrics
		a.SecondsPerSweep, b.SecondsPerSweep = 0, 0
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s differs from the committed ml100k-noise record", r.Cell.Key())
		}
		if p := r.Predictive; p != nil {
			s := setting{r.Cell.Model, r.Cell.Rank, r.Cell.NoiseRatio}
			cov[s] = append(cov[s], p.Test.Coverage[2])
			clean[s] = append(clean[s], p.Clean.Coverage[2])
		}
	}
	mean := func(xs []float64) float64 {
		var s float64
		for _, x := range xs {
			s += x
		}
		return s / float64(len(xs))
	}
	for s, xs := range cov {
		if c := mean(xs); c < 0.8875 || c > 0.9015 {
			t.Errorf("%v: 90%% coverage %.4f of the noisy values, not within 88.8%% to 90.1%%", s, c)
		}
	}
	if c := mean(clean[setting{"GRRN", 50, 10}]); c < 0.9995 {
		t.Errorf("GRRN at ratio 10 covers %.4f of the clean values, not all", c)
	}
}
