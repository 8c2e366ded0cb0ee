package regression

import (
	"math"
	"slices"
	"testing"

	"github.com/bnmf-lab/bnmf/experiments"
)

// The tests in this file check what results/README.md says of the
// paper's studies on MovieLens 1M (convergence, sparsity and noise),
// with the helpers of claims_test.go.

// TestClaimsML1MConvergence checks claim 2 of results/README.md on
// MovieLens 1M, on all 10 repeats.
func TestClaimsML1MConvergence(t *testing.T) {
	st := committedStudy(t, "ml1m-convergence")
	means, n := settingMeans(st, trainMSE)
	requireRepeats(t, st, n, 10)
	checkConvergenceFalls(t, st, means, []string{"GEE", "GTTN", "GRRN", nmf})
	// GTT's falls up to K = 40 and then stops: from K = 40 to 50 it
	// changes by less than 0.1% (the caption's "stop increasing").
	ranks := st.Manifest.Ranks
	last := len(ranks) - 1
	for i := 1; i < last; i++ {
		if a, b := means[setting{"GTT", ranks[i-1], 0}], means[setting{"GTT", ranks[i], 0}]; !(b < a) {
			t.Errorf("GTT: training MSE %.5g at K=%d is not below %.5g at K=%d", b, ranks[i], a, ranks[i-1])
		}
	}
	if a, b := means[setting{"GTT", ranks[last-1], 0}], means[setting{"GTT", ranks[last], 0}]; !(math.Abs(b-a) < 0.001*a) {
		t.Errorf("GTT: training MSE %.5g at K=%d differs from %.5g at K=%d by 0.1%% or more", b, ranks[last], a, ranks[last-1])
	}
	// GRRN's training MSE falls the most from the smallest K to the largest.
	drop := func(m string) float64 {
		return means[setting{m, ranks[0], 0}] - means[setting{m, ranks[len(ranks)-1], 0}]
	}
	for _, m := range []string{"GEE", "GTT", "GTTN"} {
		if !(drop("GRRN") > drop(m)) {
			t.Errorf("GRRN's training MSE falls by %.4g from K=%d to K=%d, not more than %s's %.4g",
				drop("GRRN"), ranks[0], ranks[len(ranks)-1], m, drop(m))
		}
	}
	for _, k := range ranks {
		if best := argmin(means, bayesian, k, 0); best != "GRRN" {
			t.Errorf("K=%d: lowest training MSE of the Bayesian models is %s's, not GRRN's", k, best)
		}
		// GTT and GTTN are within 0.7% of each other.
		a, b := means[setting{"GTT", k, 0}], means[setting{"GTTN", k, 0}]
		if d := math.Abs(a-b) / min(a, b); !(d <= 0.007) { // NaN fails too
			t.Errorf("K=%d: GTT %.5g and GTTN %.5g differ by %.2f%%, more than 0.7%%", k, a, b, 100*d)
		}
	}
}

// TestClaimsML1MSparsity checks what results/README.md says of Fig. 5 on
// MovieLens 1M, which has 10 repeats of every setting.
func TestClaimsML1MSparsity(t *testing.T) {
	st := committedStudy(t, "ml1m-sparsity")
	means, n := settingMeans(st, testMSE)
	requireRepeats(t, st, n, 10)
	all := append(slices.Clone(bayesian), nmf)
	others := []string{"GEE", "GTT", "GTTN"}
	grrnLo, grrnHi := math.Inf(1), math.Inf(-1)
	for _, f := range st.Manifest.Fractions {
		for _, k := range st.Manifest.Ranks {
			// GRRN has the lowest mean held-out MSE in every setting.
			if best := argmin(means, all, k, f); best != "GRRN" {
				t.Errorf("f=%g K=%d: lowest held-out MSE is %s's (%.4g), not GRRN's (%.4g)",
					f, k, best, means[setting{best, k, f}], means[setting{"GRRN", k, f}])
			}
			g := means[setting{"GRRN", k, f}]
			grrnLo, grrnHi = min(grrnLo, g), max(grrnHi, g)
			// NMF stays below 1.45 (claim 4: less severe than on 100K).
			if x := means[setting{nmf, k, f}]; x >= 1.45 {
				t.Errorf("f=%g K=%d: NMF's held-out MSE %.4g is not below 1.45", f, k, x)
			}
		}
	}
	// "GRRN's held-out MSE stays between 0.73 and 0.83" (two decimals).
	if grrnLo < 0.725 || grrnHi >= 0.835 {
		t.Errorf("GRRN's mean held-out MSE spans %.4f to %.4f, not 0.73 to 0.83", grrnLo, grrnHi)
	}
	// GRRN is at most 7% worse at 0.98 than at 0.97, at every K.
	for _, k := range st.Manifest.Ranks {
		if a, b := means[setting{"GRRN", k, 0.97}], means[setting{"GRRN", k, 0.98}]; b/a > 1.07 {
			t.Errorf("K=%d: GRRN's held-out MSE rises from %.4g at 0.97 to %.4g at 0.98, more than 7%%", k, a, b)
		}
	}
	// GEE, GTT and GTTN degrade with K at every fraction and with
	// sparsity at every K.
	ranks, fractions := st.Manifest.Ranks, st.Manifest.Fractions
	for _, m := range others {
		for _, f := range fractions {
			for i := 1; i < len(ranks); i++ {
				if a, b := means[setting{m, ranks[i-1], f}], means[setting{m, ranks[i], f}]; !(b > a) {
					t.Errorf("%s f=%g: held-out MSE %.4g at K=%d is not above %.4g at K=%d", m, f, b, ranks[i], a, ranks[i-1])
				}
			}
		}
		for _, k := range ranks {
			for i := 1; i < len(fractions); i++ {
				if a, b := means[setting{m, k, fractions[i-1]}], means[setting{m, k, fractions[i]}]; !(b > a) {
					t.Errorf("%s K=%d: held-out MSE %.4g at %g is not above %.4g at %g", m, k, b, fractions[i], a, fractions[i-1])
				}
			}
		}
	}
	// The best of the other three is within 2% of GRRN at K = 20 and
	// 0.96, and more than 3 times GRRN at K = 50 and 0.98.
	bestOther := func(k int, f float64) float64 { return means[setting{argmin(means, others, k, f), k, f}] }
	if r := bestOther(20, 0.96) / means[setting{"GRRN", 20, 0.96}]; r > 1.02 {
		t.Errorf("K=20 f=0.96: the best other Bayesian model is %.3f times GRRN, more than 1.02", r)
	}
	if r := bestOther(50, 0.98) / means[setting{"GRRN", 50, 0.98}]; r <= 3 {
		t.Errorf("K=50 f=0.98: the best other Bayesian model is %.3f times GRRN, not more than 3", r)
	}
	// "Partly agrees" at K = 20 and 0.96: GTT and GTTN are within 2.2% of
	// GRRN (one decimal), GEE and NMF are not similar to it (10% and 19%
	// above; the check asks for more than 5%).
	grrn2096 := means[setting{"GRRN", 20, 0.96}]
	for _, m := range []string{"GTT", "GTTN"} {
		if r := means[setting{m, 20, 0.96}] / grrn2096; r >= 1.0225 {
			t.Errorf("K=20 f=0.96: %s is %.4f times GRRN, not within 2.2%%", m, r)
		}
	}
	for _, m := range []string{"GEE", nmf} {
		if r := means[setting{m, 20, 0.96}] / grrn2096; r <= 1.05 {
			t.Errorf("K=20 f=0.96: %s is only %.4f times GRRN, which the page calls not similar", m, r)
		}
	}
	// Claim 4 on 1M: NMF is above GTT and GTTN wherever those are
	// below 1.0 (above GRRN everywhere follows from GRRN being lowest).
	for _, f := range fractions {
		for _, k := range ranks {
			x := means[setting{nmf, k, f}]
			for _, m := range []string{"GTT", "GTTN"} {
				if y := means[setting{m, k, f}]; y < 1 && !(x > y) {
					t.Errorf("f=%g K=%d: NMF's held-out MSE %.4g is not above %s's %.4g", f, k, x, m, y)
				}
			}
		}
	}
	// On 100K, NMF's held-out MSE at 0.97 and 0.98 is at least 1.8.
	small := committedStudy(t, "ml100k-sparsity")
	smallMeans, _ := settingMeans(small, testMSE)
	for _, f := range []float64{0.97, 0.98} {
		for _, k := range small.Manifest.Ranks {
			if x := smallMeans[setting{nmf, k, f}]; x < 1.8 {
				t.Errorf("100K f=%g K=%d: NMF's held-out MSE %.4g is below 1.8", f, k, x)
			}
		}
	}
}

func varOverMSEClean(m *experiments.Metrics) float64 { return m.VarOverMSEClean }

// TestClaimsML1MNoise checks what results/README.md says of the noise
// study on MovieLens 1M, which has all 10 repeats of every setting.
func TestClaimsML1MNoise(t *testing.T) {
	st := committedStudy(t, "ml1m-noise")
	means, n := settingMeans(st, varOverMSE)
	clean, _ := settingMeans(st, varOverMSEClean)
	requireRepeats(t, st, n, 10)
	k := st.Manifest.Ranks[0]
	ratios := st.Manifest.NoiseRatios
	for i, x := range ratios {
		// GRRN has the highest var/MSE, 14% to 21% above the better of
		// GTT and GTTN (two digits), which are within 11% of each other.
		if best := argmin(negated(means), paperModels, k, x); best != "GRRN" {
			t.Errorf("ratio %g: highest var/MSE is %s's, not GRRN's", x, best)
		}
		gtt, gttn := means[setting{"GTT", k, x}], means[setting{"GTTN", k, x}]
		if r := means[setting{"GRRN", k, x}] / max(gtt, gttn); r < 1.135 || r >= 1.215 {
			t.Errorf("ratio %g: GRRN is %.4f times the better of GTT and GTTN, not 14%% to 21%% above", x, r)
		}
		if r := max(gtt, gttn) / min(gtt, gttn); r >= 1.11 {
			t.Errorf("ratio %g: GTT and GTTN differ by a factor %.4f, not within 11%%", x, r)
		}
		// GEE is the lowest up to ratio 2, NMF at ratios 5 and 10.
		want := "GEE"
		if x >= 5 {
			want = nmf
		}
		if worst := argmin(means, paperModels, k, x); worst != want {
			t.Errorf("ratio %g: lowest var/MSE is %s's, not %s's", x, worst, want)
		}
		// Against the clean values GRRN stays at 1.14 or above.
		if c := clean[setting{"GRRN", k, x}]; c < 1.135 {
			t.Errorf("ratio %g: GRRN's var/MSE against the clean values is %.4g, below 1.14", x, c)
		}
		// GTT, GTTN, GRRN and NMF fall as the noise grows.
		if i == 0 {
			continue
		}
		for _, m := range []string{"GTT", "GTTN", "GRRN", nmf} {
			if a, b := means[setting{m, k, ratios[i-1]}], means[setting{m, k, x}]; !(b < a) {
				t.Errorf("%s: var/MSE %.4g at ratio %g is not below %.4g at ratio %g", m, b, x, a, ratios[i-1])
			}
		}
	}
	// At ratio 10 every other model's var/MSE against the clean values is
	// 0.40 or below.
	last := ratios[len(ratios)-1]
	for _, m := range []string{"GEE", "GTT", "GTTN", nmf} {
		if c := clean[setting{m, k, last}]; c >= 0.405 {
			t.Errorf("ratio %g: %s's var/MSE against the clean values is %.4g, not 0.40 or below", last, m, c)
		}
	}
}
