package regression

// The tests in this file check claims 12 to 14 of
// results/brouwer-lio/findings.md, on Brouwer & Lio's same-K sparsity,
// noise and convergence studies of MovieLens 100K, against our committed
// records and their published table; brouwerlio_nmf_runtime_claims_test.go
// checks claims 15 to 17. Where a claim has a table, the test renders it
// from the records and requires the same text on the page, so a number
// edited on the page, or records that move one, fail here; the numbers
// its prose quotes are checked one by one. Every file read is committed,
// and each test takes well under a few seconds, so none is skipped.

import (
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/bnmf-lab/bnmf/experiments"
)

// findingsPage is the results page whose claims these tests check.
const findingsPage = "../results/brouwer-lio/findings.md"

// claimSection returns claim n's section of the findings page, from its
// heading "## Claim n:" to the next heading of that level.
func claimSection(t *testing.T, n int) string {
	t.Helper()
	b, err := os.ReadFile(findingsPage)
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	head := fmt.Sprintf("\n## Claim %d:", n)
	i := strings.Index(page, head)
	if i < 0 {
		t.Fatalf("%s has no heading %q", findingsPage, strings.TrimSpace(head))
	}
	sec := page[i+1:]
	if j := strings.Index(sec, "\n## "); j >= 0 {
		sec = sec[:j]
	}
	return sec
}

// requireOnPage fails unless section, claim n's, holds text verbatim.
func requireOnPage(t *testing.T, n int, section, text string) {
	t.Helper()
	if !strings.Contains(section, text) {
		t.Errorf("claim %d of %s does not say what the records give:\n%s", n, findingsPage, text)
	}
}

// pm prints a mean and its standard error with digits after the point.
func pm(v meanSE, digits int) string {
	return fmt.Sprintf("%.*f ± %.*f", digits, v.mean, digits, v.se)
}

// tableHead returns the first two lines of a Markdown table with the
// given columns, the first left-aligned and the others right-aligned.
func tableHead(columns ...string) string {
	align := []string{"---"}
	for range columns[1:] {
		align = append(align, "---:")
	}
	return "| " + strings.Join(columns, " | ") + " |\n|" + strings.Join(align, "|") + "|\n"
}

// tableRow returns one line of a Markdown table.
func tableRow(cells ...string) string { return "| " + strings.Join(cells, " | ") + " |\n" }

// ourStatsOver is ourStatsOn for a study with another number of repeats
// than ourStatsOn's 10: per setting (x read from each cell), the mean and
// standard error of metric, failing on a failed cell or on a setting
// without exactly repeats successful cells.
func ourStatsOver(t *testing.T, st *experiments.Study, repeats int, metric func(*experiments.Metrics) float64, x func(experiments.Cell) float64) map[blioKey]meanSE {
	t.Helper()
	vals := make(map[blioKey][]float64)
	for i := range st.Records {
		r := &st.Records[i]
		if r.Error != "" {
			t.Fatalf("%s: cell %s failed: %s", st.Manifest.Study, r.Cell.Key(), r.Error)
		}
		k := blioKey{r.Cell.Model, r.Cell.Rank, x(r.Cell)}
		vals[k] = append(vals[k], metric(&r.Metrics))
	}
	out := make(map[blioKey]meanSE, len(vals))
	for k, xs := range vals {
		if len(xs) != repeats {
			t.Fatalf("%s: %v has %d repeats, want %d", st.Manifest.Study, k, len(xs), repeats)
		}
		out[k] = newMeanSE(xs)
	}
	return out
}

func fractionOf(c experiments.Cell) float64 { return c.Fraction }

// ml100kSameK are the models both sides ran at K = 5 in the same-K
// sparsity study on MovieLens 100K, in the page's order: the most robust
// to sparsity first.
var ml100kSameK = []string{"GLL", "GTT", "GTTN", "GLLI", "GEE", "GGGU", "GEG"}

// TestBrouwerLioClaimML100KSameKSparsity checks claim 12 of
// results/brouwer-lio/findings.md (the same-K sparsity study on MovieLens
// 100K, with 10 and 20 repeats): the page's table as the records and
// their table give it; at 98% unobserved, in ours and theirs with either
// number of repeats, GLL is the lowest of the seven models both ran, GTT,
// GTTN and GLLI within 6% of it, GEE, GGGU and GEG the three highest in
// that order, and GLL, GTT, GTTN and
// GLLI are below the column means while the other three are above; the
// four rise by 22% to 30% from 0.93 to 0.98 on both sides; with
// 10 repeats, ours are within 1.1 standard errors of the difference of
// theirs at 0.93 but for GEG (3.7), above theirs from 0.96 on for GLL,
// GTT, GTTN, GEE, GGGU and the column means (by 1.2% to 5.9% at 0.98),
// within 1.6 and 1.4 for GLLI and the row means at every fraction; our
// GEG is 1.9 times theirs at 0.98; and our twenty-repeat study's first
// ten repeats are the ten-repeat study's cells, number for number.
func TestBrouwerLioClaimML100KSameKSparsity(t *testing.T) {
	sec := claimSection(t, 12)
	ten10 := loadCommittedStudy(t, "blio-ml100k-sparsity-samek")
	ours := map[int]map[blioKey]meanSE{ // by repeats
		10: ourStats(t, ten10, testMSEOf),
		20: ourStatsOver(t, loadCommittedStudy(t, "blio-ml100k-sparsity-samek-20"), 20, testMSEOf, fractionOf),
	}
	nmfStudies := []struct {
		study   string
		repeats int
	}{{"blio-ml100k-sparsity-samek-nmf", 10}, {"blio-ml100k-sparsity-samek-20-nmf", 20}}
	for _, s := range nmfStudies {
		for k, v := range ourStatsOver(t, loadCommittedStudy(t, s.study), s.repeats, testMSEOf, fractionOf) {
			ours[s.repeats][k] = v
		}
	}
	theirs := map[int]map[blioKey]meanSE{
		10: theirStats(t, "sparsity", "sameK_movielens_100K", "MSE"),
		20: theirStats(t, "sparsity", "sameK_20repeats_movielens_100K", "MSE"),
	}
	get := func(who string, repeats int, model string, x float64) meanSE {
		t.Helper()
		if who == "ours" {
			return at(t, ours[repeats], model, 5, x)
		}
		k := 5
		if model == "ColumnMean" || model == "RowMean" {
			k = 0
		}
		return at(t, theirs[repeats], model, k, x)
	}
	rise := func(who string, model string) string {
		return fmt.Sprintf("%.0f%%", 100*(get(who, 10, model, 0.98).mean/get(who, 10, model, 0.93).mean-1))
	}
	table := tableHead("model", "0.93 ours", "0.93 theirs", "0.98 ours", "0.98 theirs", "rise ours", "rise theirs",
		"0.98 ours, 20 repeats", "0.98 theirs, 20 repeats")
	for _, m := range append(slices.Clone(ml100kSameK), "NMF", "ColumnMean", "RowMean") {
		table += tableRow(m, pm(get("ours", 10, m, 0.93), 3), pm(get("theirs", 10, m, 0.93), 3),
			pm(get("ours", 10, m, 0.98), 3), pm(get("theirs", 10, m, 0.98), 3), rise("ours", m), rise("theirs", m),
			pm(get("ours", 20, m, 0.98), 3), pm(get("theirs", 20, m, 0.98), 3))
	}
	requireOnPage(t, 12, sec, table)
	requireOnPage(t, 12, sec, "**Agrees.**")

	for _, who := range []string{"ours", "theirs"} {
		for _, n := range []int{10, 20} {
			v := func(m string) float64 { return get(who, n, m, 0.98).mean }
			order := slices.Clone(ml100kSameK)
			slices.SortFunc(order, func(a, b string) int { return cmpFloat(v(a), v(b)) })
			if order[0] != "GLL" || !slices.Equal(order[4:], []string{"GEE", "GGGU", "GEG"}) {
				t.Errorf("%s, %d repeats, at 0.98: %v from lowest to highest; the page says GLL first and GEE, GGGU, GEG last", who, n, order)
			}
			// GTT, GTTN and GLLI within 6% of GLL.
			for _, m := range []string{"GTT", "GTTN", "GLLI"} {
				if r := v(m)/v("GLL") - 1; r >= 0.06 {
					t.Errorf("%s, %d repeats, at 0.98: %s is %.1f%% above GLL; the page says within 6%%", who, n, m, 100*r)
				}
			}
			col := v("ColumnMean")
			for _, m := range ml100kSameK {
				if below := v(m) < col; below != slices.Contains([]string{"GLL", "GTT", "GTTN", "GLLI"}, m) {
					t.Errorf("%s, %d repeats, at 0.98: %s %.4f against the column means' %.4f", who, n, m, v(m), col)
				}
			}
		}
	}

	// The four robust priors' rise from 0.93 to 0.98, both sides.
	riseLo, riseHi := math.Inf(1), math.Inf(-1)
	for _, who := range []string{"ours", "theirs"} {
		for _, m := range []string{"GLL", "GTT", "GTTN", "GLLI"} {
			r := 100 * (get(who, 10, m, 0.98).mean/get(who, 10, m, 0.93).mean - 1)
			riseLo, riseHi = min(riseLo, r), max(riseHi, r)
		}
	}
	requireOnPage(t, 12, sec, fmt.Sprintf("the MSE of the four robust priors rises by %.0f%% to %.0f%% on both sides", riseLo, riseHi))

	// Ours against theirs (10 repeats), in standard errors of the
	// difference: close at 0.93, ours above from 0.96 on where their split
	// trains on more entries (claim 11), but for GLLI and the row means.
	z := func(m string, x float64) float64 { return zDiff(get("ours", 10, m, x), get("theirs", 10, m, x)) }
	maxAbsZ := func(m string, xs ...float64) float64 {
		out := 0.0
		for _, x := range xs {
			out = max(out, math.Abs(z(m, x)))
		}
		return out
	}
	at093 := 0.0
	for _, m := range append(slices.Clone(ml100kSameK), "ColumnMean", "RowMean") {
		if m != "GEG" {
			at093 = max(at093, maxAbsZ(m, 0.93))
		}
	}
	requireOnPage(t, 12, sec, fmt.Sprintf("ours are within %.1f standard errors of the difference of theirs at 0.93 for every model and both baselines but GEG (%.1f)",
		at093, z("GEG", 0.93)))
	gapLo, gapHi, loName, hiName := math.Inf(1), math.Inf(-1), "", ""
	for _, m := range []string{"GLL", "GTT", "GTTN", "GEE", "GGGU", "ColumnMean"} {
		for _, x := range []float64{0.96, 0.97, 0.98} {
			if z(m, x) <= 0 {
				t.Errorf("%s at %g: ours %.2f standard errors from theirs; the page says above", m, x, z(m, x))
			}
		}
		gap := 100 * (get("ours", 10, m, 0.98).mean/get("theirs", 10, m, 0.98).mean - 1)
		if gap < gapLo {
			gapLo, loName = gap, m
		}
		if gap > gapHi {
			gapHi, hiName = gap, m
		}
	}
	name := map[string]string{"ColumnMean": "the column means"}
	label := func(m string) string {
		if n, ok := name[m]; ok {
			return n
		}
		return m
	}
	requireOnPage(t, 12, sec, fmt.Sprintf("by %.1f%% (%s) to %.1f%% (%s) at 0.98", gapLo, label(loName), gapHi, label(hiName)))
	all := []float64{0.93, 0.94, 0.95, 0.96, 0.97, 0.98}
	requireOnPage(t, 12, sec, fmt.Sprintf("GLLI and the row means are the exceptions, within %.1f and %.1f standard errors of theirs at every fraction",
		maxAbsZ("GLLI", all...), maxAbsZ("RowMean", all...)))
	requireOnPage(t, 12, sec, fmt.Sprintf("Our GEG is %.1f times theirs at 0.98 and %.1f standard errors above at 0.93",
		get("ours", 10, "GEG", 0.98).mean/get("theirs", 10, "GEG", 0.98).mean, z("GEG", 0.93)))

	// Our twenty-repeat study's first ten repeats are the ten-repeat
	// study's cells: the same splits and seeds give the same numbers.
	first := make(map[experiments.Cell]float64)
	for _, r := range ten10.Records {
		first[r.Cell] = r.Metrics.TestMSE
	}
	same := 0
	for _, r := range loadCommittedStudy(t, "blio-ml100k-sparsity-samek-20").Records {
		if v, ok := first[r.Cell]; ok && v == r.Metrics.TestMSE {
			same++
		}
	}
	if same != len(first) || same != 780 {
		t.Errorf("%d of the ten-repeat study's %d cells recur with the same MSE in the twenty-repeat one; the page says all 780", same, len(first))
	}
}

// ml100kRatings counts MovieLens 100K's ratings of 1 to 5 after cleaning,
// as every report of a study on it prints them (its rating distribution).
var ml100kRatings = [5]float64{6007, 11324, 27084, 34128, 21180}

// ml100kMoments returns the mean and the population variance of the
// ratings over n entries, the ratings' own count or the whole grid's with
// the missing entries as zeros.
func ml100kMoments(n float64) (mean, variance float64) {
	var s, q float64
	for i, c := range ml100kRatings {
		v := float64(i + 1)
		s += c * v
		q += c * v * v
	}
	return s / n, q/n - (s/n)*(s/n)
}

// truncatedNoise returns the mean and the mean square, over the ratings
// of ml100kRatings, of the change that Brouwer & Lio's noise makes to a
// rating v: max(0, int(v + e)) - v with e ~ N(0, sd^2) and int truncating
// toward zero, so that the noisy value is n >= 1 when n <= v + e < n + 1
// and 0 when v + e < 1. The sums are exact up to the normal's tail.
func truncatedNoise(sd float64) (mean, meanSq float64) {
	cdf := func(x float64) float64 { return 0.5 * math.Erfc(-x/math.Sqrt2) }
	var total float64
	for i, c := range ml100kRatings {
		v := float64(i + 1)
		total += c
		p := cdf((1 - v) / sd) // becomes 0
		mean += c * p * (0 - v)
		meanSq += c * p * v * v
		for n := 1.0; n < v+12*sd+2; n++ {
			p := cdf((n+1-v)/sd) - cdf((n-v)/sd)
			mean += c * p * (n - v)
			meanSq += c * p * (n - v) * (n - v)
		}
	}
	return mean / total, meanSq / total
}

// TestBrouwerLioClaimML100KNoise checks claim 13 of
// results/brouwer-lio/findings.md (the noise study on MovieLens 100K):
// the page's table, where upstream's rule (noise scaled by the variance
// of the grid with zeros for missing entries, noisy values truncated to
// integers and clipped at 0) adds to the integer ratings a variance that
// is 2.73 times its nominal one at ratio 0.1 and 0.75 times at 10,
// computed exactly from the ratings' distribution; their models' rise over
// the noise-free MSE follows that variance and ours follows the variance
// we add; the noise-free numbers agree but GEG's; in both, the five models
// stay within a few percent of each other at every ratio and no model
// beats the row means at ratio 10. The prose's numbers are rendered from
// the records and required on the page.
func TestBrouwerLioClaimML100KNoise(t *testing.T) {
	sec := claimSection(t, 13)
	nr := func(c experiments.Cell) float64 { return c.NoiseRatio }
	ours := make(map[blioKey]meanSE)
	var man experiments.Manifest
	for _, name := range []string{"blio-ml100k-noise", "blio-ml100k-noise-100", "blio-ml100k-noise-nmf"} {
		st := loadCommittedStudy(t, name)
		man = st.Manifest
		for k, v := range ourStatsOn(t, st, testMSEOf, nr) {
			ours[k] = v
		}
		// The counts are the data's: as many ratings as the study's
		// observed entries, and their variance that of our training
		// values without noise (nine tenths of them, so within three
		// standard errors of it over the ten repeats).
		var n float64
		for _, c := range ml100kRatings {
			n += c
		}
		_, v := ml100kMoments(n)
		dv := ourStatsOn(t, st, func(m *experiments.Metrics) float64 { return m.DataVariance }, nr)
		for k, d := range dv {
			if k.x == 0 && (int(n) != st.Manifest.Observed || math.Abs(d.mean-v) > 3*d.se) {
				t.Fatalf("%s: %d observed entries, training variance %.5f ± %.5f; the ratings' counts give %d and %.5f",
					name, st.Manifest.Observed, d.mean, d.se, int(n), v)
			}
		}
	}
	theirs := theirStats(t, "noise", "movielens_100K", "MSE")
	_, observedVar := ml100kMoments(float64(man.Observed))
	_, gridVar := ml100kMoments(float64(man.Rows * man.Cols))
	get := func(who, model string, r float64) meanSE {
		t.Helper()
		k := 2 // upstream's K but for NMF; our baselines run at the study's K
		switch {
		case model == "NMF":
			k = 1
		case who == "theirs" && (model == "ColumnMean" || model == "RowMean"):
			k = 0
		}
		if who == "ours" {
			return at(t, ours, model, k, r)
		}
		return at(t, theirs, model, k, r)
	}
	// share is the rise of the held-out MSE over the noise-free one as a
	// share of the nominal noise variance of that side.
	share := func(who, model string, r float64) float64 {
		nominal := r * gridVar
		if who == "ours" {
			nominal = r * observedVar
		}
		return (get(who, model, r).mean - get(who, model, 0).mean) / nominal
	}
	five := []string{"GEE", "GEEA", "GTT", "GTTN", "GGGU"}
	span := func(who string, r float64, models []string) (lo, hi float64) {
		lo, hi = math.Inf(1), math.Inf(-1)
		for _, m := range models {
			lo, hi = min(lo, share(who, m, r)), max(hi, share(who, m, r))
		}
		return lo, hi
	}
	table := tableHead("ratio", "their nominal noise variance", "their rule: variance of the change / nominal",
		"theirs: rise / nominal", "ours: rise / our noise variance", "GEE ours", "GEE theirs")
	maxDev := 0.0 // of their five models' share from their rule's
	oursLo, oursHi := math.Inf(1), math.Inf(-1)
	rule := make(map[float64]float64)
	for _, r := range blioNoiseRatios {
		mean, meanSq := truncatedNoise(math.Sqrt(r * gridVar))
		rule[r] = (meanSq - mean*mean) / (r * gridVar)
		tLo, tHi := span("theirs", r, five)
		oLo, oHi := span("ours", r, five)
		oursLo, oursHi = min(oursLo, oLo), max(oursHi, oHi)
		maxDev = max(maxDev, math.Abs(tLo/rule[r]-1), math.Abs(tHi/rule[r]-1))
		table += tableRow(fmt.Sprint(r), fmt.Sprintf("%.3f", r*gridVar), fmt.Sprintf("%.2f", rule[r]),
			fmt.Sprintf("%.2f to %.2f", tLo, tHi), fmt.Sprintf("%.2f to %.2f", oLo, oHi),
			pm(get("ours", "GEE", r), 3), pm(get("theirs", "GEE", r), 3))
	}
	requireOnPage(t, 13, sec, table)
	requireOnPage(t, 13, sec, "**Not comparable; explained.**")
	mean01, _ := truncatedNoise(math.Sqrt(0.1 * gridVar))
	mean10, _ := truncatedNoise(math.Sqrt(10 * gridVar))
	requireOnPage(t, 13, sec, fmt.Sprintf("variance of the whole grid with zeros for the missing ratings, %.3f, where ours is that of the observed ratings, %.3f",
		gridVar, observedVar))
	requireOnPage(t, 13, sec, fmt.Sprintf("lowers the ratings by %.2f on average at ratio 0.1 and by %.2f at ratio 10", -mean01, -mean10))
	requireOnPage(t, 13, sec, fmt.Sprintf("within %.0f%% of the variance their rule adds at every ratio", 100*maxDev))
	requireOnPage(t, 13, sec, fmt.Sprintf("Our models' rise is %.2f to %.2f of the variance we add", oursLo, oursHi))
	for _, m := range five {
		for _, r := range blioNoiseRatios {
			if above := get("theirs", m, r).mean > get("ours", m, r).mean; above != (r < 0.5) {
				t.Errorf("%s at ratio %g: theirs %.3f, ours %.3f; the page says theirs above at 0.1 and 0.2, below from 0.5 on",
					m, r, get("theirs", m, r).mean, get("ours", m, r).mean)
			}
		}
	}

	// GEG and NMF (not in the table) follow the same pattern but for one
	// repeat of their GEG at ratio 0.1.
	devGN, gnLo, gnHi := 0.0, math.Inf(1), math.Inf(-1)
	for _, m := range []string{"GEG", "NMF"} {
		for _, r := range blioNoiseRatios {
			if m != "GEG" || r != 0.1 {
				devGN = max(devGN, math.Abs(share("theirs", m, r)/rule[r]-1))
			}
			gnLo, gnHi = min(gnLo, share("ours", m, r)), max(gnHi, share("ours", m, r))
		}
	}
	requireOnPage(t, 13, sec, fmt.Sprintf("GEG and NMF, left out of the table, follow the same pattern: their rises within %.0f%% of their rule's variance but for GEG at ratio 0.1, ours %.2f to %.2f of the variance we add",
		100*devGN, gnLo, gnHi))
	_, meanSq01 := truncatedNoise(math.Sqrt(0.1 * gridVar))
	requireOnPage(t, 13, sec, fmt.Sprintf("not its mean square (%.2f times the nominal variance at ratio 0.1)", meanSq01/(0.1*gridVar)))
	var gegReps []float64
	for _, row := range publishedRows(t, func(row map[string]string) bool {
		return row["study"] == "noise" && row["experiment"] == "movielens_100K" && row["model"] == "GEG" &&
			row["metric"] == "MSE" && row["setting_value"] == "0.1"
	}) {
		gegReps = append(gegReps, parseValue(t, row["value"]))
	}
	slices.Sort(gegReps)
	if len(gegReps) != 10 {
		t.Fatalf("their GEG at ratio 0.1: %d repeats, want 10", len(gegReps))
	}
	requireOnPage(t, 13, sec, fmt.Sprintf("one of their ten GEG repeats at ratio 0.1 scores %.2f, the others %.2f to %.2f",
		gegReps[9], gegReps[0], gegReps[8]))

	// Without noise, ours against theirs in standard errors of the
	// difference.
	zMax := 0.0
	for _, m := range append(slices.Clone(five), "NMF", "ColumnMean", "RowMean") {
		zMax = max(zMax, math.Abs(zDiff(get("ours", m, 0), get("theirs", m, 0))))
	}
	requireOnPage(t, 13, sec, fmt.Sprintf("within %.1f standard errors of the difference of theirs for GEE, GEEA, GTT, GTTN, GGGU, NMF and both baselines; GEG is %.1f above (%s against %s)",
		zMax, zDiff(get("ours", "GEG", 0), get("theirs", "GEG", 0)), pm(get("ours", "GEG", 0), 3), pm(get("theirs", "GEG", 0), 3)))

	// Alike on both sides: the five models' spread at every ratio, and
	// the row means below every model at ratio 10.
	spread := map[string]float64{}
	for _, who := range []string{"ours", "theirs"} {
		for _, r := range append([]float64{0}, blioNoiseRatios...) {
			lo, hi := math.Inf(1), math.Inf(-1)
			for _, m := range five {
				lo, hi = min(lo, get(who, m, r).mean), max(hi, get(who, m, r).mean)
			}
			spread[who] = max(spread[who], hi/lo-1)
		}
		for _, m := range append(slices.Clone(five), "GEG", "NMF", "ColumnMean") {
			if row, v := get(who, "RowMean", 10).mean, get(who, m, 10).mean; !(row < v) {
				t.Errorf("%s at ratio 10: the row means' %.3f are not below %s's %.3f", who, row, m, v)
			}
		}
	}
	requireOnPage(t, 13, sec, fmt.Sprintf("within %.1f%% of each other at every ratio in ours and %.1f%% in theirs", 100*spread["ours"], 100*spread["theirs"]))
}
