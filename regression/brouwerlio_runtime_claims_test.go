package regression

// The test in this file checks claim 17 of results/brouwer-lio/findings.md,
// Brouwer & Lio's runtime study, against our committed records and their
// published table, with the helpers of brouwerlio_ml100k_claims_test.go:
// the claim's tables and the numbers of its prose are rendered from the
// records and required on the page.

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"testing"

	"github.com/bnmf-lab/bnmf/experiments"
)

// runtimeModels are the models of our runtime studies that upstream timed
// too, the samplers first: the eight of claims 1 to 18, then the eight
// that claim 21 added, then NMF.
var runtimeModels = slices.Concat([]string{"GEE", "GEEA", "GTT", "GTTN", "GGGU", "GLL", "GLLI", "GEG"}, blioEight, []string{"NMF"})

// sigDigits returns how many digits after the point print x to n
// significant digits (none for a number of n digits or more).
func sigDigits(x float64, n int) int {
	return max(0, n-1-int(math.Floor(math.Log10(math.Abs(x)))))
}

// TestBrouwerLioClaimRuntime checks claim 17 of
// results/brouwer-lio/findings.md (their runtime study on GDSC IC50 and
// MovieLens 100K): the page's two tables of our milliseconds per sweep
// (mean ± standard error over 3 runs) against their milliseconds per
// iteration (one run) and their ratio, for all sixteen of their models
// and NMF (our PGG and PGGG on GDSC IC50 from their own study, on the
// values cast to integers); the span of the ratio on each dataset; how a
// sampler's time grows from K = 5 to 50 on each side, and which grow the
// most; the machine's load while ours ran, per study, one sampler worker a
// cell; and the times of GLL, GLLI, NMF, PGG and PGGG against GEE's.
func TestBrouwerLioClaimRuntime(t *testing.T) {
	sec := claimSection(t, 17)
	requireOnPage(t, 17, sec, "**Not comparable; explained.**")
	ranks := []int{5, 10, 20, 50}
	loadLo, loadHi := math.Inf(1), math.Inf(-1)
	studyLoad := make(map[string][2]float64) // per study, its cells' lowest and highest
	var loads []string
	nmfOverGEE := make(map[string][]float64) // at K = 5, GDSC then MovieLens

	for _, c := range []struct {
		label, experiment string
		studies           []string
	}{
		{"GDSC IC50", "drug_sensitivity_gdsc", []string{"blio-gdsc-runtime", "blio-gdsc-runtime-pgg"}},
		{"MovieLens 100K", "movielens_100K", []string{"blio-ml100k-runtime"}},
	} {
		ours := make(map[blioKey]meanSE)
		for _, name := range c.studies {
			st := loadCommittedStudy(t, name)
			for _, r := range st.Records {
				if r.SamplerWorkers != 1 || len(r.LoadAverage) == 0 {
					t.Fatalf("%s %s: %d sampler workers, load averages %v; the page says one worker, load recorded", name, r.Cell.Key(), r.SamplerWorkers, r.LoadAverage)
				}
				loadLo, loadHi = min(loadLo, slices.Min(r.LoadAverage)), max(loadHi, slices.Max(r.LoadAverage))
				lo, hi := studyLoad[name][0], studyLoad[name][1]
				if _, ok := studyLoad[name]; !ok {
					lo, hi = math.Inf(1), math.Inf(-1)
				}
				studyLoad[name] = [2]float64{min(lo, slices.Min(r.LoadAverage)), max(hi, slices.Max(r.LoadAverage))}
			}
			loads = append(loads, fmt.Sprintf("%.2f to %.2f in %s", studyLoad[name][0], studyLoad[name][1], name))
			maps.Copy(ours, ourStatsOn(t, st, 3, func(m *experiments.Metrics) float64 { return 1000 * m.SecondsPerSweep },
				func(experiments.Cell) float64 { return 0 }))
		}
		theirs := theirStats(t, "runtime", c.experiment, "time_per_iteration")
		o := func(m string, k int) meanSE { return at(t, ours, m, k, 0) }
		th := func(m string, k int) float64 { return 1000 * at(t, theirs, m, 0, float64(k)).mean }
		table := tableHead("model", "K = 5", "K = 10", "K = 20", "K = 50")
		type extreme struct {
			ratio float64
			model string
			k     int
		}
		lo, hi := extreme{ratio: math.Inf(1)}, extreme{ratio: math.Inf(-1)}
		growLo := map[string]extreme{"ours": {ratio: math.Inf(1)}, "theirs": {ratio: math.Inf(1)}}
		growHi := map[string]extreme{"ours": {ratio: math.Inf(-1)}, "theirs": {ratio: math.Inf(-1)}}
		for _, m := range runtimeModels {
			row := []string{m}
			for _, k := range ranks {
				r := o(m, k).mean / th(m, k)
				row = append(row, fmt.Sprintf("%s / %.*f (%.*f)", pm(o(m, k), 2), sigDigits(th(m, k), 3), th(m, k), sigDigits(r, 2), r))
				if r < lo.ratio {
					lo = extreme{r, m, k}
				}
				if r > hi.ratio {
					hi = extreme{r, m, k}
				}
			}
			table += tableRow(row...)
			if m != "NMF" {
				for who, g := range map[string]float64{"ours": o(m, 50).mean / o(m, 5).mean, "theirs": th(m, 50) / th(m, 5)} {
					if g < growLo[who].ratio {
						growLo[who] = extreme{g, m, 0}
					}
					if g > growHi[who].ratio {
						growHi[who] = extreme{g, m, 0}
					}
				}
			}
		}
		requireOnPage(t, 17, sec, table)
		pct := func(r float64) string { return fmt.Sprintf("%.*f%%", sigDigits(100*r, 2), 100*r) }
		requireOnPage(t, 17, sec, fmt.Sprintf("on %s a sweep of ours takes %s (%s at K = %d) to %s (%s at K = %d) of their time per iteration",
			c.label, pct(lo.ratio), lo.model, lo.k, pct(hi.ratio), hi.model, hi.k))
		requireOnPage(t, 17, sec, fmt.Sprintf("on %s a sampler's time grows %.1f (%s) to %.1f (%s) times in theirs and %.1f (%s) to %.1f (%s) times in ours",
			c.label, growLo["theirs"].ratio, growLo["theirs"].model, growHi["theirs"].ratio, growHi["theirs"].model,
			growLo["ours"].ratio, growLo["ours"].model, growHi["ours"].ratio, growHi["ours"].model))
		// Their GVG and GVnG grow the most in theirs, and our GGG, GGGA and
		// GGGW, which draw each row as a block, the most in ours, on both
		// datasets.
		var theirGrowth []float64
		for _, m := range runtimeModels[:len(runtimeModels)-1] {
			if m != "GVG" && m != "GVnG" {
				theirGrowth = append(theirGrowth, th(m, 50)/th(m, 5))
			}
		}
		for _, m := range []string{"GVG", "GVnG"} {
			if g := th(m, 50) / th(m, 5); g <= slices.Max(theirGrowth) {
				t.Errorf("%s: their %s grows %.1f times from K = 5 to 50, not more than every other sampler of theirs (%.1f)", c.label, m, g, slices.Max(theirGrowth))
			}
		}
		for _, m := range []string{"GGG", "GGGA", "GGGW"} {
			if g := o(m, 50).mean / o(m, 5).mean; g < 0.9*growHi["ours"].ratio {
				t.Errorf("%s: our %s grows %.1f times from K = 5 to 50, not within 10%% of the most (%.1f)", c.label, m, g, growHi["ours"].ratio)
			}
		}
		nmfOverGEE["ours"] = append(nmfOverGEE["ours"], o("NMF", 5).mean/o("GEE", 5).mean)
		nmfOverGEE["theirs"] = append(nmfOverGEE["theirs"], th("NMF", 5)/th("GEE", 5))
		requireOnPage(t, 17, sec, fmt.Sprintf("On %s at K = 5 their GLL and GLLI take %.1f and %.1f times their GEE's time and their NMF %.2f times; ours %.2f, %.2f and %.1f times our GEE's",
			c.label, th("GLL", 5)/th("GEE", 5), th("GLLI", 5)/th("GEE", 5), th("NMF", 5)/th("GEE", 5),
			o("GLL", 5).mean/o("GEE", 5).mean, o("GLLI", 5).mean/o("GEE", 5).mean, o("NMF", 5).mean/o("GEE", 5).mean))
		if c.label == "GDSC IC50" {
			requireOnPage(t, 17, sec, fmt.Sprintf("nor why our PGG and PGGG on GDSC IC50 take %.0f and %.0f times our GEE's time at K = 5",
				o("PGG", 5).mean/o("GEE", 5).mean, o("PGGG", 5).mean/o("GEE", 5).mean))
		}
	}
	requireOnPage(t, 17, sec, fmt.Sprintf("the machine's one-minute load average was %.2f to %.2f while they ran (%s)", loadLo, loadHi, andList(loads)))
	requireOnPage(t, 17, sec, fmt.Sprintf("Why our NMF's sweep costs %.1f and %.1f times our GEE's at K = 5, where theirs costs less than their GEE's",
		nmfOverGEE["ours"][0], nmfOverGEE["ours"][1]))
	for i, r := range nmfOverGEE["theirs"] {
		if r >= 1 {
			t.Errorf("dataset %d: their NMF takes %.2f times their GEE's time at K = 5; the page says less", i, r)
		}
	}
}
