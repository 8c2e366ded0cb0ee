package regression

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
)

// sparsityBiasesHead is the heading of results/README.md's section on
// ml100k-sparsity-biases.
const sparsityBiasesHead = "## Beyond the paper: against the bias baseline, with offsets (the sparsity study)"

// TestClaimsBiasesSparsity checks the section of results/README.md on
// ml100k-sparsity-biases against all of its records and, for GRRN without
// offsets, those of ml100k-sparsity on the same splits (the Bias
// baseline's held-out MSE, which has no factors, must be the same in both
// for every fraction and repeat): the table of the skill against the bias
// baseline (1 − MSE/MSE of Bias, paired by repeat) per fraction and K;
// which models with offsets beat Bias beyond two standard errors and
// where, and by how much; GRRN+b against GRRN without offsets; the
// spread of GRRN's and GRRN+b's held-out MSE over K = 20 to 50 at each
// fraction (the target of at most 5%); and how many cells of each model
// carry the warning that an offset lies far from its side's mean.
func TestClaimsBiasesSparsity(t *testing.T) {
	const repeats = 10
	ranks := []int{20, 30, 40, 50}
	fractions := []float64{0.93, 0.94, 0.95, 0.96, 0.97, 0.98}
	withOffsets := []string{"GEE+b", "GTT+b", "GTTN+b", "GRRN+b", "GEEA+b", "GGGW+b"}
	type cell struct {
		model    string
		rank     int
		fraction float64
		repeat   int
	}
	mse := make(map[cell]float64)
	train := make(map[cell]float64) // training MSE, for GRRN+b's and GRRN's fit
	caught := make(map[string]int)
	st := committedStudy(t, "ml100k-sparsity-biases")
	if want := (len(withOffsets) + 1) * len(ranks) * len(fractions) * repeats; len(st.Records) != want {
		t.Fatalf("ml100k-sparsity-biases holds %d records, want %d", len(st.Records), want)
	}
	for _, r := range st.Records {
		if r.Error != "" {
			t.Fatalf("%s failed: %s", r.Cell.Key(), r.Error)
		}
		mse[cell{r.Cell.Model, r.Cell.Rank, r.Cell.Fraction, r.Cell.Repeat}] = r.Metrics.TestMSE
		train[cell{r.Cell.Model, r.Cell.Rank, r.Cell.Fraction, r.Cell.Repeat}] = r.Metrics.TrainMSE
		if slices.ContainsFunc(r.Warnings, func(w string) bool {
			return strings.HasPrefix(w, "offsets:") && strings.Contains(w, "standard deviations of the training values")
		}) {
			caught[r.Cell.Model]++
		}
	}
	for _, r := range committedStudy(t, "ml100k-sparsity").Records {
		m := r.Cell.Model
		if !slices.Contains([]string{"GEE", "GTT", "GTTN", "GRRN", "Bias"}, m) || !slices.Contains(ranks, r.Cell.Rank) {
			continue
		}
		c := cell{m, r.Cell.Rank, r.Cell.Fraction, r.Cell.Repeat}
		if m == "Bias" {
			if got, ok := mse[c]; !ok || got != r.Metrics.TestMSE {
				t.Fatalf("Bias at %+v: %v in ml100k-sparsity-biases, %v in ml100k-sparsity; the section compares them on the same splits", c, got, r.Metrics.TestMSE)
			}
			continue
		}
		mse[c] = r.Metrics.TestMSE
		train[c] = r.Metrics.TrainMSE
	}
	get := func(c cell) float64 {
		v, ok := mse[c]
		if !ok {
			t.Fatalf("no record of %+v", c)
		}
		return v
	}
	// skill is model's skill against Bias at one setting, paired by repeat.
	skill := func(model string, rank int, f float64) meanSE {
		var xs []float64
		for rep := range repeats {
			xs = append(xs, 1-get(cell{model, rank, f, rep})/get(cell{"Bias", rank, f, rep}))
		}
		return newMeanSE(xs)
	}
	meanMSE := func(model string, rank int, f float64) float64 {
		var s float64
		for rep := range repeats {
			s += get(cell{model, rank, f, rep})
		}
		return s / repeats
	}

	table := "| unobserved | K | GGGW+b | GEEA+b | GRRN+b | GRRN, no offsets |\n|---:|---:|---:|---:|---:|---:|\n"
	for _, f := range fractions {
		for _, k := range ranks {
			table += fmt.Sprintf("| %g | %d | %s | %s | %s | %s |\n", f, k,
				skillPct(skill("GGGW+b", k, f)), skillPct(skill("GEEA+b", k, f)), skillPct(skill("GRRN+b", k, f)), skillPct(skill("GRRN", k, f)))
		}
	}
	requireInSection(t, sparsityBiasesHead, table)

	// Which models beat Bias beyond two standard errors everywhere, and
	// which are below it everywhere.
	settings := len(ranks) * len(fractions)
	for _, model := range []string{"GGGW+b", "GEEA+b"} {
		lo, hi := math.Inf(1), math.Inf(-1)
		var beyond int
		for _, f := range fractions {
			for _, k := range ranks {
				s := skill(model, k, f)
				lo, hi = min(lo, 100*s.mean), max(hi, 100*s.mean)
				if s.mean > 2*s.se {
					beyond++
				}
			}
		}
		requireInSection(t, sparsityBiasesHead, fmt.Sprintf("%s beats the bias baseline beyond two standard errors in %d of the %d settings, by %.1f%% to %.1f%%", model, beyond, settings, lo, hi))
	}
	// The paper's four with offsets: below Bias in how many settings, by
	// how much there, and where not.
	var below, level []string
	for _, model := range withOffsets[:4] {
		var n int
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, f := range fractions {
			for _, k := range ranks {
				s := skill(model, k, f)
				if s.mean < 0 {
					n++
					lo, hi = min(lo, -100*s.mean), max(hi, -100*s.mean)
				} else {
					level = append(level, fmt.Sprintf("%s at %g and K = %d (%s)", model, f, k, skillPct(s)))
				}
			}
		}
		below = append(below, fmt.Sprintf("%s in %d (%.1f%% to %.0f%% worse)", model, n, lo, hi))
	}
	requireInSection(t, sparsityBiasesHead, "below it: "+strings.Join(below, ", "))
	if len(level) > 0 {
		requireInSection(t, sparsityBiasesHead, "not below it: "+andList(level))
	} else if strings.Contains(pageSection(t, "../results/README.md", sparsityBiasesHead), "not below it:") {
		t.Error("the section names settings where a paper prior with offsets is not below Bias; the records have none")
	}

	// Each of the paper's four with offsets against itself without them,
	// paired by repeat: above beyond two standard errors where, and the
	// other settings all at 97% or 98% unobserved (where GEE, GTT and GTTN
	// without offsets are stuck).
	var aboveOwn []string
	for _, model := range []string{"GEE", "GTT", "GTTN", "GRRN"} {
		var above int
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, f := range fractions {
			for _, k := range ranks {
				var xs []float64
				for rep := range repeats {
					xs = append(xs, get(cell{model + "+b", k, f, rep})/get(cell{model, k, f, rep})-1)
				}
				d := newMeanSE(xs)
				if d.mean > 2*d.se {
					above++
					lo, hi = min(lo, 100*d.mean), max(hi, 100*d.mean)
				} else if f < 0.97 {
					t.Errorf("%s+b at %g, K = %d: %+.1f%% ± %.1f against %s; the page says above it but at 97%% and 98%%", model, f, k, 100*d.mean, 100*d.se, model)
				}
			}
		}
		if model == "GRRN" {
			requireInSection(t, sparsityBiasesHead, fmt.Sprintf("GRRN+b's held-out MSE is above GRRN's beyond two standard errors in %d of the %d settings (by %.1f%% to %.1f%%, paired by repeat)", above, settings, lo, hi))
			continue
		}
		aboveOwn = append(aboveOwn, fmt.Sprintf("%s+b's above %s's in %d", model, model, above))
	}
	requireInSection(t, sparsityBiasesHead, fmt.Sprintf("%s of the %d settings beyond two standard errors, the others all at 97%% or 98%% unobserved", strings.Join(aboveOwn, ", "), settings))

	// The spread over K at each fraction: the largest mean MSE over the
	// smallest, less 1.
	spread := func(model string) (float64, float64) {
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, f := range fractions {
			a, b := math.Inf(1), math.Inf(-1)
			for _, k := range ranks {
				m := meanMSE(model, k, f)
				a, b = min(a, m), max(b, m)
			}
			lo, hi = min(lo, 100*(b/a-1)), max(hi, 100*(b/a-1))
		}
		return lo, hi
	}
	bLo, bHi := spread("GRRN+b")
	gLo, gHi := spread("GRRN")
	requireInSection(t, sparsityBiasesHead, fmt.Sprintf("GRRN+b's mean held-out MSE spreads by %.1f%% to %.1f%% over K = 20 to 50 at each fraction, GRRN's by %.1f%% to %.1f%%", bLo, bHi, gLo, gHi))

	// GEE+b, GTT+b and GTTN+b at 98%: every cell far off, fitting the
	// training ratings closely.
	minTest, maxTrain := math.Inf(1), math.Inf(-1)
	for _, model := range withOffsets[:3] {
		for _, k := range ranks {
			for rep := range repeats {
				c := cell{model, k, 0.98, rep}
				minTest, maxTrain = min(minTest, get(c)), max(maxTrain, train[c])
			}
		}
	}
	requireInSection(t, sparsityBiasesHead, fmt.Sprintf("at 98%% every cell of GEE+b, GTT+b and GTTN+b has a held-out MSE of at least %.2f and a training MSE of at most %.2f", minTest, maxTrain))

	// Why: GRRN+b fits the training ratings ever closer as K grows.
	meanTrain := func(model string, rank int, f float64) float64 {
		var s float64
		for rep := range repeats {
			s += train[cell{model, rank, f, rep}]
		}
		return s / repeats
	}
	requireInSection(t, sparsityBiasesHead, fmt.Sprintf("at 0.98 unobserved its training MSE falls from %.3f at K = 20 to %.3f at K = 50 while its held-out MSE rises from %.3f to %.3f; GRRN's training MSE there is %.3f and %.3f, its held-out MSE %.3f and %.3f",
		meanTrain("GRRN+b", 20, 0.98), meanTrain("GRRN+b", 50, 0.98), meanMSE("GRRN+b", 20, 0.98), meanMSE("GRRN+b", 50, 0.98),
		meanTrain("GRRN", 20, 0.98), meanTrain("GRRN", 50, 0.98), meanMSE("GRRN", 20, 0.98), meanMSE("GRRN", 50, 0.98)))

	// GGGW and GEEA without offsets: ml100k-sparsity-priors ran them on
	// repeat 0's splits at K = 20 and 50 (its Bias must be this study's).
	without := make(map[cell]float64)
	for _, r := range committedStudy(t, "ml100k-sparsity-priors").Records {
		c := cell{r.Cell.Model, r.Cell.Rank, r.Cell.Fraction, r.Cell.Repeat}
		if r.Cell.Model == "Bias" && mse[c] != r.Metrics.TestMSE {
			t.Fatalf("Bias at %+v: %v here, %v in ml100k-sparsity-priors; the section compares them on the same splits", c, mse[c], r.Metrics.TestMSE)
		}
		without[c] = r.Metrics.TestMSE
	}
	diff := func(model string, k int) (lo, hi float64) {
		lo, hi = math.Inf(1), math.Inf(-1)
		for _, f := range fractions {
			c := cell{model, k, f, 0}
			w, ok := without[c]
			if !ok {
				t.Fatalf("ml100k-sparsity-priors has no %+v", c)
			}
			d := get(cell{model + "+b", k, f, 0}) - w
			lo, hi = min(lo, d), max(hi, d)
		}
		return lo, hi
	}
	gw20lo, gw20hi := diff("GGGW", 20)
	gw50lo, gw50hi := diff("GGGW", 50)
	ea20lo, ea20hi := diff("GEEA", 20)
	ea50lo, ea50hi := diff("GEEA", 50)
	sg := func(x float64) string { return strings.Replace(fmt.Sprintf("%+.3f", x), "-", "−", 1) }
	requireInSection(t, sparsityBiasesHead, fmt.Sprintf("GGGW+b's held-out MSE minus GGGW's is %s to %s at K = 20 and %s to %s at K = 50; GEEA+b's minus GEEA's %s to %s at K = 20 and %s to %s at K = 50",
		sg(gw20lo), sg(gw20hi), sg(gw50lo), sg(gw50hi), sg(ea20lo), sg(ea20hi), sg(ea50lo), sg(ea50hi)))

	var counts []string
	for _, model := range withOffsets {
		counts = append(counts, fmt.Sprintf("%s %d", model, caught[model]))
	}
	cells := len(ranks) * len(fractions) * repeats
	requireInSection(t, sparsityBiasesHead, fmt.Sprintf("cells of %d with the warning: %s", cells, strings.Join(counts, ", ")))
}

// skillPct formats a skill (a fraction) as a signed percentage with its
// standard error, a minus sign for a value that rounds below zero.
func skillPct(s meanSE) string {
	sign := "+"
	if math.Round(s.mean*1000) < 0 {
		sign = "−"
	}
	return fmt.Sprintf("%s%.1f%% ± %.1f", sign, math.Abs(100*s.mean), 100*s.se)
}

// requireInSection fails unless the section of results/README.md under
// head holds text verbatim.
func requireInSection(t *testing.T, head, text string) {
	t.Helper()
	if sec := pageSection(t, "../results/README.md", head); !strings.Contains(sec, text) {
		t.Errorf("results/README.md's section %q does not say what the records give:\n%s", strings.TrimPrefix(head, "## "), text)
	}
}
