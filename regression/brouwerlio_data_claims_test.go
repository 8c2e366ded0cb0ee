package regression

// The tests in this file check claims 10 and 11 of
// results/brouwer-lio/findings.md, where our numbers and theirs differ by
// how each study made its data: the noise it added and the split it drew.

import (
	"math"
	"testing"
)

// gdscObservedVariance is the population variance of GDSC IC50's 79,259
// observed values (scripts/brouwer-lio-noise.py prints it): our noise
// study's noise variance is the ratio times it.
const gdscObservedVariance = 1906.7

// gdscGridVariance is the variance over the whole grid of GDSC IC50 as
// upstream's noise study computes it (values truncated to integers,
// missing entries 0; scripts/brouwer-lio-noise.py prints it): their
// nominal noise variance is the ratio times it.
const gdscGridVariance = 1840.3

// blioNoiseRatios are upstream's noise-to-signal ratios above 0.
var blioNoiseRatios = []float64{0.1, 0.2, 0.5, 1, 2, 5, 10}

// TestBrouwerLioClaimNoise checks claim 10 of
// results/brouwer-lio/findings.md: in the noise study on GDSC IC50 the
// rise of the held-out MSE over the noise-free one, as a share of the
// nominal noise variance (ratio times the variance the noise is scaled
// by), is 1.02 to 1.07 in ours for GEE (K = 8), GTT (9) and GTTN (8) and
// 0.99 to 1.01 for the column means, against 0.46 to 0.58 and 0.40 to
// 0.51 in theirs: their truncated and clipped noisy values carry less
// noise than they nominally add. The shares are compared at the two
// decimals the page prints. GEE, GTT and GTTN stay within 3% of each
// other at every ratio in both, within 1% in ours; GEE at K = 8 and
// ratio 2 is 4,712 ± 32 in ours and 2,765 ± 25 in theirs.
func TestBrouwerLioClaimNoise(t *testing.T) {
	ours := ourStatsOn(t, loadCommittedStudy(t, "blio-gdsc-noise"), 10, testMSEOf, noiseRatioOf)
	theirs := theirStats(t, "noise", "drug_sensitivity_gdsc", "MSE")
	type span struct{ lo, hi float64 }
	grow := func(s span, x float64) span { return span{math.Min(s.lo, x), math.Max(s.hi, x)} }
	empty := span{math.Inf(1), math.Inf(-1)}
	models, baseline := empty, empty
	theirModels, theirBaseline := empty, empty
	for _, c := range []struct {
		model string
		k     int // theirs; ours run the column means at K = 8
	}{{"GEE", 8}, {"GTT", 9}, {"GTTN", 8}, {"ColumnMean", 0}} {
		ourK := c.k
		if ourK == 0 {
			ourK = 8
		}
		o0, t0 := at(t, ours, c.model, ourK, 0).mean, at(t, theirs, c.model, c.k, 0).mean
		for _, r := range blioNoiseRatios {
			// Rounded to the page's two decimals.
			o := math.Round((at(t, ours, c.model, ourK, r).mean-o0)/(r*gdscObservedVariance)*100) / 100
			th := math.Round((at(t, theirs, c.model, c.k, r).mean-t0)/(r*gdscGridVariance)*100) / 100
			if c.k == 0 {
				baseline, theirBaseline = grow(baseline, o), grow(theirBaseline, th)
			} else {
				models, theirModels = grow(models, o), grow(theirModels, th)
			}
		}
	}
	for _, r := range append([]float64{0}, blioNoiseRatios...) {
		for name, m := range map[string]map[blioKey]meanSE{"ours": ours, "theirs": theirs} {
			xs := []float64{at(t, m, "GEE", 8, r).mean, at(t, m, "GTT", 9, r).mean, at(t, m, "GTTN", 8, r).mean}
			spread := math.Max(xs[0], math.Max(xs[1], xs[2]))/math.Min(xs[0], math.Min(xs[1], xs[2])) - 1
			if limit := map[string]float64{"ours": 0.01, "theirs": 0.03}[name]; spread >= limit {
				t.Errorf("%s at ratio %g: GEE, GTT and GTTN spread %.2f%%, the page says under %.1f%%", name, r, 100*spread, 100*limit)
			}
		}
	}
	if o, th := at(t, ours, "GEE", 8, 2), at(t, theirs, "GEE", 8, 2); math.Round(o.mean) != 4712 || math.Round(o.se) != 32 || math.Round(th.mean) != 2765 || math.Round(th.se) != 25 {
		t.Errorf("GEE at K = 8, ratio 2: ours %.0f ± %.0f, theirs %.0f ± %.0f; the page says 4,712 ± 32 and 2,765 ± 25", o.mean, o.se, th.mean, th.se)
	}
	for _, c := range []struct {
		what      string
		got, want span
	}{
		{"ours, GEE, GTT and GTTN", models, span{1.02, 1.07}},
		{"ours, column means", baseline, span{0.99, 1.01}},
		{"theirs, GEE, GTT and GTTN", theirModels, span{0.46, 0.58}},
		{"theirs, column means", theirBaseline, span{0.40, 0.51}},
	} {
		if c.got != c.want {
			t.Errorf("%s: the rise over the noise-free MSE is %.2f to %.2f of the nominal noise variance; the page says %.2f to %.2f",
				c.what, c.got.lo, c.got.hi, c.want.lo, c.want.hi)
		}
	}
}

// TestBrouwerLioClaimML100KSparsity checks claim 11 of
// results/brouwer-lio/findings.md: on MovieLens 100K at 97% and 98%
// unobserved our held-out MSE is 0.3% to 3.2% above theirs for GEE, GTT,
// GTTN, GEEA, GGGU, GLL (K = 3) and GLLI, GEG's 24% and 44% below; GEE at
// 98% is 0.998 ± 0.008 against 0.968 ± 0.003; the column means score
// 1.0676 ± 0.0015 and 1.0865 ± 0.0010 in ours against their 1.0575 ±
// 0.0020 and 1.0720 ± 0.0009; and our splits train on 27,781 entries at
// 98% (theirs, 1,473 more, is the script's output).
func TestBrouwerLioClaimML100KSparsity(t *testing.T) {
	st := loadCommittedStudy(t, "blio-ml100k-sparsity")
	ours := ourStats(t, st, testMSEOf)
	theirs := theirStats(t, "sparsity", "movielens_100K", "MSE")
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, m := range []struct {
		model string
		k     int
	}{{"GEE", 2}, {"GTT", 2}, {"GTTN", 2}, {"GEEA", 2}, {"GGGU", 2}, {"GLL", 3}, {"GLLI", 2}} {
		for _, f := range []float64{0.97, 0.98} {
			gap := at(t, ours, m.model, m.k, f).mean/at(t, theirs, m.model, m.k, f).mean - 1
			lo, hi = math.Min(lo, gap), math.Max(hi, gap)
		}
	}
	if math.Round(lo*1000) != 3 || math.Round(hi*1000) != 32 {
		t.Errorf("ours are %.1f%% to %.1f%% above theirs at 97-98%%; the page says 0.3%% to 3.2%%", 100*lo, 100*hi)
	}
	for f, want := range map[float64]float64{0.97: -24, 0.98: -44} {
		if gap := 100 * (at(t, ours, "GEG", 2, f).mean/at(t, theirs, "GEG", 2, f).mean - 1); math.Round(gap) != want {
			t.Errorf("GEG at %g: ours %.1f%% from theirs; the page says %.0f%%", f, gap, want)
		}
	}
	r3 := func(x float64) float64 { return math.Round(x*1000) / 1000 }
	r4 := func(x float64) float64 { return math.Round(x*10000) / 10000 }
	if o, th := at(t, ours, "GEE", 2, 0.98), at(t, theirs, "GEE", 2, 0.98); r3(o.mean) != 0.998 || r3(o.se) != 0.008 || r3(th.mean) != 0.968 || r3(th.se) != 0.003 {
		t.Errorf("GEE at 98%%: ours %.3f ± %.3f, theirs %.3f ± %.3f; the page says 0.998 ± 0.008 and 0.968 ± 0.003", o.mean, o.se, th.mean, th.se)
	}
	for f, want := range map[float64][4]float64{0.97: {1.0676, 0.0015, 1.0575, 0.0020}, 0.98: {1.0865, 0.0010, 1.0720, 0.0009}} {
		o, th := at(t, ours, "ColumnMean", 2, f), at(t, theirs, "ColumnMean", 0, f)
		if got := [4]float64{r4(o.mean), r4(o.se), r4(th.mean), r4(th.se)}; got != want {
			t.Errorf("column means at %g: ours and theirs %v; the page says %v", f, got, want)
		}
	}
	for _, r := range st.Records {
		if r.Cell.Fraction == 0.98 && r.TrainEntries != 27781 {
			t.Fatalf("%s trains on %d entries; the page says 27,781", r.Cell.Key(), r.TrainEntries)
		}
	}
}
