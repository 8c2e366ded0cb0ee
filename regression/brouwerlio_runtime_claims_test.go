package regression

// The test in this file checks claim 17 of results/brouwer-lio/findings.md,
// Brouwer & Lio's runtime study, against our committed records and their
// published table, with the helpers of brouwerlio_ml100k_claims_test.go:
// the claim's tables and the numbers of its prose are rendered from the
// records and required on the page.

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/bnmf-lab/bnmf/experiments"
)

// runtimeModels are the models of our runtime studies that upstream timed
// too, the samplers first.
var runtimeModels = []string{"GEE", "GEEA", "GTT", "GTTN", "GGGU", "GLL", "GLLI", "GEG", "NMF"}

// sigDigits returns how many digits after the point print x to n
// significant digits (none for a number of n digits or more).
func sigDigits(x float64, n int) int {
	return max(0, n-1-int(math.Floor(math.Log10(math.Abs(x)))))
}

// TestBrouwerLioClaimRuntime checks claim 17 of
// results/brouwer-lio/findings.md (their runtime study on GDSC IC50 and
// MovieLens 100K): the page's two tables of our milliseconds per sweep
// (mean ± standard error over 3 runs) against their milliseconds per
// iteration (one run) and their ratio; the span of the ratio on each
// dataset; how a sampler's time grows from K = 5 to 50 on each side; the
// machine's load while ours ran, one sampler worker a cell; and the times
// of GLL, GLLI and NMF against GEE's on each side.
func TestBrouwerLioClaimRuntime(t *testing.T) {
	sec := claimSection(t, 17)
	requireOnPage(t, 17, sec, "**Not comparable; explained.**")
	ranks := []int{5, 10, 20, 50}
	loadLo, loadHi := math.Inf(1), math.Inf(-1)
	nmfOverGEE := make(map[string][]float64) // at K = 5, GDSC then MovieLens

	for _, c := range []struct{ label, study, experiment string }{
		{"GDSC IC50", "blio-gdsc-runtime", "drug_sensitivity_gdsc"},
		{"MovieLens 100K", "blio-ml100k-runtime", "movielens_100K"},
	} {
		st := loadCommittedStudy(t, c.study)
		for _, r := range st.Records {
			if r.SamplerWorkers != 1 || len(r.LoadAverage) == 0 {
				t.Fatalf("%s %s: %d sampler workers, load averages %v; the page says one worker, load recorded", c.study, r.Cell.Key(), r.SamplerWorkers, r.LoadAverage)
			}
			loadLo, loadHi = min(loadLo, slices.Min(r.LoadAverage)), max(loadHi, slices.Max(r.LoadAverage))
		}
		ours := ourStatsOn(t, st, 3, func(m *experiments.Metrics) float64 { return 1000 * m.SecondsPerSweep },
			func(experiments.Cell) float64 { return 0 })
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
		growLo := map[string]float64{"ours": math.Inf(1), "theirs": math.Inf(1)}
		growHi := map[string]float64{"ours": math.Inf(-1), "theirs": math.Inf(-1)}
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
					growLo[who], growHi[who] = min(growLo[who], g), max(growHi[who], g)
				}
			}
		}
		requireOnPage(t, 17, sec, table)
		pct := func(r float64) string { return fmt.Sprintf("%.*f%%", sigDigits(100*r, 2), 100*r) }
		requireOnPage(t, 17, sec, fmt.Sprintf("on %s a sweep of ours takes %s (%s at K = %d) to %s (%s at K = %d) of their time per iteration",
			c.label, pct(lo.ratio), lo.model, lo.k, pct(hi.ratio), hi.model, hi.k))
		requireOnPage(t, 17, sec, fmt.Sprintf("on %s a sampler's time grows %.1f to %.1f times in theirs and %.1f to %.1f times in ours",
			c.label, growLo["theirs"], growHi["theirs"], growLo["ours"], growHi["ours"]))
		nmfOverGEE["ours"] = append(nmfOverGEE["ours"], o("NMF", 5).mean/o("GEE", 5).mean)
		nmfOverGEE["theirs"] = append(nmfOverGEE["theirs"], th("NMF", 5)/th("GEE", 5))
		requireOnPage(t, 17, sec, fmt.Sprintf("On %s at K = 5 their GLL and GLLI take %.1f and %.1f times their GEE's time and their NMF %.2f times; ours %.2f, %.2f and %.1f times our GEE's",
			c.label, th("GLL", 5)/th("GEE", 5), th("GLLI", 5)/th("GEE", 5), th("NMF", 5)/th("GEE", 5),
			o("GLL", 5).mean/o("GEE", 5).mean, o("GLLI", 5).mean/o("GEE", 5).mean, o("NMF", 5).mean/o("GEE", 5).mean))
	}
	requireOnPage(t, 17, sec, fmt.Sprintf("the machine's one-minute load average was %.2f to %.2f", loadLo, loadHi))
	requireOnPage(t, 17, sec, fmt.Sprintf("Why our NMF's sweep costs %.1f and %.1f times our GEE's at K = 5, where theirs costs less than their GEE's",
		nmfOverGEE["ours"][0], nmfOverGEE["ours"][1]))
	for i, r := range nmfOverGEE["theirs"] {
		if r >= 1 {
			t.Errorf("dataset %d: their NMF takes %.2f times their GEE's time at K = 5; the page says less", i, r)
		}
	}
}
