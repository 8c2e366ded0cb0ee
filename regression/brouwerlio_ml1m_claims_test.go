package regression

// The test in this file checks claim 18 of results/brouwer-lio/findings.md,
// Brouwer & Lio's nested cross-validation on MovieLens 1M, against our
// committed records and their published table, with the helpers of
// brouwerlio_cv_claims_test.go and brouwerlio_ml100k_claims_test.go: the
// claim's tables and the numbers of its prose are rendered from the
// records and required on the page.

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/bnmf-lab/bnmf/bnmf"
	"github.com/bnmf-lab/bnmf/experiments"
)

// ml1mExperiment is upstream's experiment directory of their nested
// cross-validation on MovieLens 1M.
const ml1mExperiment = "movielens_1M"

// ml1mStudies are our nested cross-validations on MovieLens 1M, run as
// theirs: every model of theirs we have, and the baselines with GEE.
var ml1mStudies = []string{
	"blio-ml1m-nested-cv-gee", "blio-ml1m-nested-cv-gtt", "blio-ml1m-nested-cv-geg", "blio-ml1m-nested-cv-gggu",
	"blio-ml1m-nested-cv-gll", "blio-ml1m-nested-cv-glli", "blio-ml1m-nested-cv-nmf",
}

// ml1mModels are the models and baselines of claim 18's table that both
// sides run (with the eight of ml1mEight), in the table's order;
// ml1mOursOnly follow them.
var (
	ml1mModels = []string{"GEE", "GEEA", "GTT", "GTTN", "GEG", "GGGU", "GLL", "GLLI",
		"GGG", "GGGA", "GGGW", "GVG", "GVnG", "GL21", "PGG", "PGGG", "NMF", "RowMean", "ColumnMean"}
	ml1mOursOnly = []string{"GRRN", "Bias"}
)

// ml1mBlockDraws are the studies that run GEG and GLL on MovieLens 1M
// again with upstream's block draws, each with its number of cells, and
// the label of its row in claim 18's table.
var ml1mBlockDraws = []struct {
	model, study, label string
	cells               int
}{
	{"GEG", "blio-ml1m-nested-cv-geg-rows", "GEG, columns of Z drawn as blocks", 150},
	{"GLL", "blio-ml1m-nested-cv-gll-rows", "GLL, rows of W and columns of Z drawn as blocks", 90},
}

// ourChosenK returns, per model of the nested cross-validations studies,
// the K its inner folds chose in each outer fold; none for a baseline,
// whose predictions do not depend on K.
func ourChosenK(t *testing.T, studies ...string) map[string][]int {
	t.Helper()
	baseline := make(map[string]bool)
	for _, s := range bnmf.Specs() {
		baseline[s.Name] = s.Baseline
	}
	out := make(map[string][]int)
	for _, name := range studies {
		st := loadCommittedStudy(t, name)
		for _, c := range experiments.NestedChoices(st.Manifest, st.Records) {
			if !baseline[c.Model] {
				out[c.Model] = append(out[c.Model], c.Rank)
			}
		}
	}
	return out
}

// innerFits returns model's successful inner fits in the studies, per K:
// their held-out and their training MSE, failing unless each K has fits
// of them (25: 5 inner folds in each of 5 outer folds; 20 where one outer
// fold's inner folds failed).
func innerFits(t *testing.T, fits int, model string, studies ...string) (test, train map[int][]float64) {
	t.Helper()
	test, train = make(map[int][]float64), make(map[int][]float64)
	for _, name := range studies {
		for _, r := range loadCommittedStudy(t, name).Records {
			if r.Cell.Model == model && r.Cell.Fold > 0 && r.Error == "" {
				test[r.Cell.Rank] = append(test[r.Cell.Rank], r.Metrics.TestMSE)
				train[r.Cell.Rank] = append(train[r.Cell.Rank], r.Metrics.TrainMSE)
			}
		}
	}
	for k, xs := range test {
		if len(xs) != fits {
			t.Fatalf("%s K = %d: %d inner fits, want %d", model, k, len(xs), fits)
		}
	}
	return test, train
}

// theirInnerFits returns their held-out MSE of model's inner fits in
// their nested cross-validation experiment, per K, failing unless each K
// has fits of them (25: 5 inner folds in each of 5 outer folds; 20 where
// one outer fold's inner folds failed).
func theirInnerFits(t *testing.T, experiment, model string, fits int) map[int][]float64 {
	t.Helper()
	out := make(map[int][]float64)
	for _, r := range publishedRows(t, func(r map[string]string) bool {
		return r["study"] == "cross_validation" && r["experiment"] == experiment && r["model"] == model &&
			r["metric"] == "MSE" && r["setting"] == "K" && r["outer_fold"] != "" && r["replicate"] != "mean"
	}) {
		k := int(parseValue(t, r["setting_value"]))
		out[k] = append(out[k], parseValue(t, r["value"]))
	}
	for k, xs := range out {
		if len(xs) != fits {
			t.Fatalf("their %s K = %d: %d inner fits, want %d", model, k, len(xs), fits)
		}
	}
	if len(out) == 0 {
		t.Fatalf("%s: no inner fits of their %s", experiment, model)
	}
	return out
}

// listK prints the K chosen in each outer fold, "—" for none.
func listK[N int | float64](ks []N) string {
	if len(ks) == 0 {
		return "—"
	}
	var s []string
	for _, k := range ks {
		s = append(s, strconv.Itoa(int(k)))
	}
	return strings.Join(s, ", ")
}

// andList joins names as prose: "a, b and c".
func andList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// TestBrouwerLioClaimML1MNestedCV checks claim 18 of
// results/brouwer-lio/findings.md (their nested cross-validation on
// MovieLens 1M): the page's table of the held-out MSE of the chosen K on
// the 5 outer folds, ours and theirs, with the K chosen in each fold on
// both sides, and a row for each study with upstream's block draws; the
// models both ran in order of their score on each side and the lowest of
// each, and the lowest of all of theirs; which models agree within 2 standard errors of the difference
// and which part (GEG, GLL and NMF); the table of GEG's and
// GLL's inner folds at each K and what the prose quotes of them.
func TestBrouwerLioClaimML1MNestedCV(t *testing.T) {
	sec := claimSection(t, 18)
	studies := ml1mAllStudies(t)
	ours := summary(ourOuterFolds(t, studies...))
	theirs := summary(theirOuterFolds(t, ml1mExperiment, "MSE"))
	ourK := ourChosenK(t, studies...)
	theirK := theirOuterFolds(t, ml1mExperiment, "chosen_K")
	for _, m := range slices.Concat(ml1mModels, ml1mOursOnly) {
		if ours[m].n != 5 {
			t.Fatalf("%s: %d outer folds of ours, want 5", m, ours[m].n)
		}
	}
	for _, m := range ml1mModels {
		if theirs[m].n != 5 {
			t.Fatalf("%s: %d outer folds of theirs, want 5", m, theirs[m].n)
		}
	}

	// The table, with a row for each study of block draws after its
	// model's.
	blocks := make(map[string]map[string]meanSE)
	blockK := make(map[string][]int)
	for _, b := range ml1mBlockDraws {
		requireComplete(t, b.study, b.cells)
		blocks[b.model] = summary(ourOuterFolds(t, b.study))
		blockK[b.model] = ourChosenK(t, b.study)[b.model]
	}
	table := tableHead("model", "ours", "theirs", "ours − theirs, in standard errors of the difference", "chosen K, ours", "chosen K, theirs")
	var agree, part []string
	for _, m := range ml1mModels {
		z := zDiff(ours[m], theirs[m])
		table += tableRow(m, pm(ours[m], 3), pm(theirs[m], 3), fmt.Sprintf("%+.1f", z), listK(ourK[m]), listK(theirK[m]))
		for _, b := range ml1mBlockDraws {
			if v, ok := blocks[b.model][m]; ok && b.model == m {
				if z := zDiff(v, theirs[m]); math.Abs(z) > 2 {
					t.Errorf("%s drawn as blocks: %+.1f standard errors of the difference from theirs; the page says it does not part", m, z)
				}
				table += tableRow(b.label, pm(v, 3), pm(theirs[m], 3), fmt.Sprintf("%+.1f", zDiff(v, theirs[m])), listK(blockK[m]), listK(theirK[m]))
			}
		}
		if math.Abs(z) <= 2 {
			agree = append(agree, m)
		} else {
			part = append(part, m)
		}
	}
	for _, m := range ml1mOursOnly {
		table += tableRow(m+" (ours only)", pm(ours[m], 3), "—", "—", listK(ourK[m]), "—")
	}
	requireOnPage(t, 18, sec, table)
	requireOnPage(t, 18, sec, "**Partly agrees.**")

	// The order of the models on each side, and the lowest of each.
	order := func(tab map[string]meanSE, models []string) []string {
		out := slices.Clone(models)
		slices.SortStableFunc(out, func(a, b string) int { return cmpFloat(tab[a].mean, tab[b].mean) })
		return out
	}
	// The baselines are last on both sides.
	models := ml1mModels[:len(ml1mModels)-2]
	ourOrder, theirOrder := order(ours, models), order(theirs, models)
	for _, tab := range []map[string]meanSE{ours, theirs} {
		for _, m := range models {
			if !(tab[m].mean < tab["ColumnMean"].mean && tab["ColumnMean"].mean < tab["RowMean"].mean) {
				t.Errorf("%s %.3f is not below ColumnMean %.3f, or ColumnMean not below RowMean %.3f", m, tab[m].mean, tab["ColumnMean"].mean, tab["RowMean"].mean)
			}
		}
	}
	lowO, lowT := ourOrder[0], theirOrder[0]
	lowest := fmt.Sprintf("Of the %s models both ran, the lowest is %s in ours (%s) and %s in theirs (%s)",
		numberWord(len(models)), lowO, pm(ours[lowO], 3), lowT, pm(theirs[lowT], 3))
	if lowO == lowT {
		o2, t2 := ourOrder[1], theirOrder[1]
		next := fmt.Sprintf("%s in ours (%s) and %s in theirs (%s)", o2, pm(ours[o2], 3), t2, pm(theirs[t2], 3))
		if o2 == t2 {
			next = fmt.Sprintf("%s on both sides (ours %s, theirs %s)", o2, pm(ours[o2], 3), pm(theirs[t2], 3))
		}
		lowest = fmt.Sprintf("Of the %s models both ran, the lowest on both sides is %s (ours %s, theirs %s), and next %s",
			numberWord(len(models)), lowO, pm(ours[lowO], 3), pm(theirs[lowT], 3), next)
		if laplace := []string{"GLL", "GLLI"}; slices.Contains(laplace, o2) && slices.Contains(laplace, t2) {
			lowest += ", both Laplace priors;"
		}
	}
	requireOnPage(t, 18, sec, lowest)
	requireOnPage(t, 18, sec, fmt.Sprintf("lowest first, ours: %s; theirs: %s", strings.Join(ourOrder, ", "), strings.Join(theirOrder, ", ")))
	for _, m := range ml1mOursOnly {
		if !(ours[lowO].mean < ours[m].mean) {
			t.Errorf("ours: %s %.4f is not above %s %.4f; the page says %s is our lowest", m, ours[m].mean, lowO, ours[lowO].mean, lowO)
		}
	}
	theirAll := order(theirs, slices.Sorted(maps.Keys(theirs)))
	if theirAll[0] != "GGGW" || theirAll[1] != "GGGA" {
		t.Errorf("theirs, lowest first: %v; the page says GGGW, then GGGA", theirAll)
	}
	requireOnPage(t, 18, sec, fmt.Sprintf("Of all their models, the lowest are GGGW (theirs %s, ours %s) and GGGA (theirs %s, ours %s)",
		pm(theirs["GGGW"], 3), pm(ours["GGGW"], 3), pm(theirs["GGGA"], 3), pm(ours["GGGA"], 3)))

	// Agreement and where the two part.
	if !slices.Equal(part, []string{"GEG", "GLL", "NMF"}) {
		t.Errorf("models more than 2 standard errors of the difference from theirs: %v; the page says GEG, GLL and NMF", part)
	}
	maxZ := 0.0
	for _, m := range agree {
		maxZ = max(maxZ, math.Abs(zDiff(ours[m], theirs[m])))
	}
	withK := slices.DeleteFunc(slices.Clone(agree), func(m string) bool { return m == "RowMean" || m == "ColumnMean" })
	requireOnPage(t, 18, sec, fmt.Sprintf("%s are within %.1f standard errors of the difference of theirs, and each of those %s models chooses a K within 2 of theirs in every outer fold",
		andList(agree), maxZ, numberWord(len(withK))))
	for _, m := range withK {
		for i, k := range ourK[m] {
			if d := k - int(theirK[m][i]); d < -2 || d > 2 {
				t.Errorf("%s outer fold %d: ours chose K = %d, theirs %d; the page says within 2 in every fold", m, i+1, k, int(theirK[m][i]))
			}
		}
	}
	var zs []string
	for _, m := range part {
		zs = append(zs, fmt.Sprintf("%s %+.1f", m, zDiff(ours[m], theirs[m])))
	}
	requireOnPage(t, 18, sec, fmt.Sprintf("GEG, GLL and NMF part (%s)", strings.Join(zs, ", ")))
	if ourOrder[len(ourOrder)-1] != "GEG" {
		t.Errorf("ours, highest of the models both ran: %s; the page says GEG", ourOrder[len(ourOrder)-1])
	}
	span := func(ks []int) string {
		lo, hi := slices.Min(ks), slices.Max(ks)
		if hi == lo+1 {
			return fmt.Sprintf("%d or %d", lo, hi)
		}
		return fmt.Sprintf("%d to %d", lo, hi)
	}
	var theirGEG, theirGLL, theirNMF []int
	for i := range 5 {
		theirGEG = append(theirGEG, int(theirK["GEG"][i]))
		theirGLL = append(theirGLL, int(theirK["GLL"][i]))
		theirNMF = append(theirNMF, int(theirK["NMF"][i]))
	}
	requireOnPage(t, 18, sec, fmt.Sprintf("GEG: ours %s against their %s, the highest of our %s models", pm(ours["GEG"], 3), pm(theirs["GEG"], 3), numberWord(len(models))))
	requireOnPage(t, 18, sec, fmt.Sprintf("in every outer fold where theirs chose %s", span(theirGEG)))
	if !slices.Equal(theirGLL, []int{8, 8, 8, 8, 8}) {
		t.Errorf("their GLL chose K = %v; the page says 8 in every outer fold", theirGLL)
	}
	requireOnPage(t, 18, sec, fmt.Sprintf("GLL: ours %s against their %s, choosing K = %s where theirs chose 8 in every outer fold",
		pm(ours["GLL"], 3), pm(theirs["GLL"], 3), span(ourK["GLL"])))
	if !(ours["NMF"].mean < theirs["NMF"].mean) {
		t.Errorf("our NMF %.4f is not below theirs %.4f", ours["NMF"].mean, theirs["NMF"].mean)
	}
	requireOnPage(t, 18, sec, fmt.Sprintf("NMF: ours is below theirs, choosing K = %s where theirs chose %s", span(ourK["NMF"]), span(theirNMF)))

	// GEG's and GLL's inner folds.
	inner := tableHead("model", "K", "inner folds, ours", "inner folds, theirs", "training MSE of the inner fits, ours")
	type innerOf struct{ test, train, theirs map[int][]float64 }
	in := make(map[string]innerOf)
	for _, c := range []struct{ model, study string }{{"GEG", "blio-ml1m-nested-cv-geg"}, {"GLL", "blio-ml1m-nested-cv-gll"}} {
		test, train := innerFits(t, 25, c.model, c.study)
		th := theirInnerFits(t, ml1mExperiment, c.model, 25)
		in[c.model] = innerOf{test, train, th}
		for _, k := range slices.Sorted(maps.Keys(test)) {
			if len(th[k]) == 0 {
				t.Fatalf("their %s has no inner fits at K = %d", c.model, k)
			}
			inner += tableRow(c.model, strconv.Itoa(k), pm(newMeanSE(test[k]), 4), pm(newMeanSE(th[k]), 4), pm(newMeanSE(train[k]), 4))
		}
	}
	requireOnPage(t, 18, sec, inner)
	mean := func(xs []float64) float64 { return newMeanSE(xs).mean }

	// GEG: ours chose the smallest K in every fold; its inner folds are
	// above theirs at every K and rise with K, its training MSE does not
	// fall with K.
	if !slices.Equal(ourK["GEG"], []int{3, 3, 3, 3, 3}) {
		t.Errorf("our GEG chose K = %v; the page says 3, the smallest of its grid, in every outer fold", ourK["GEG"])
	}
	g := in["GEG"]
	gapLo, gapHi := math.Inf(1), math.Inf(-1)
	trLo, trHi := math.Inf(1), math.Inf(-1)
	for k := 3; k <= 7; k++ {
		d := mean(g.test[k]) - mean(g.theirs[k])
		gapLo, gapHi = min(gapLo, d), max(gapHi, d)
		trLo, trHi = min(trLo, mean(g.train[k])), max(trHi, mean(g.train[k]))
		if k > 3 && !(mean(g.test[k]) > mean(g.test[k-1])) {
			t.Errorf("our GEG's inner folds at K = %d (%.4f) are not above K = %d's", k, mean(g.test[k]), k-1)
		}
	}
	theirLo, theirHi := math.Inf(1), math.Inf(-1)
	for _, xs := range g.theirs {
		theirLo, theirHi = min(theirLo, mean(xs)), max(theirHi, mean(xs))
	}
	requireOnPage(t, 18, sec, fmt.Sprintf("our GEG's inner folds are above theirs at every K, by %.3f to %.3f, and rise at every step of K, where theirs span %.3f over the grid", gapLo, gapHi, theirHi-theirLo))
	if !(ours["GEG"].mean > ours["Bias"].mean) {
		t.Errorf("our GEG %.4f is not above our Bias %.4f", ours["GEG"].mean, ours["Bias"].mean)
	}
	requireOnPage(t, 18, sec, fmt.Sprintf("above our regularised bias model (%s)", pm(ours["Bias"], 3)))
	requireOnPage(t, 18, sec, fmt.Sprintf("its training MSE stays between %.3f and %.3f from K = 3 to 7", trLo, trHi))
	_, geeTrain := innerFits(t, 25, "GEE", "blio-ml1m-nested-cv-gee")
	requireOnPage(t, 18, sec, fmt.Sprintf("GEE's, over its grid, falls from %.3f at K = 7 to %.3f at K = 10", mean(geeTrain[7]), mean(geeTrain[10])))

	// GLL: ours is above theirs at every K, flat or rising where theirs
	// falls, so ours chooses smaller K.
	l := in["GLL"]
	gapLo, gapHi = math.Inf(1), math.Inf(-1)
	for k := 6; k <= 8; k++ {
		d := mean(l.test[k]) - mean(l.theirs[k])
		gapLo, gapHi = min(gapLo, d), max(gapHi, d)
	}
	if !(mean(l.theirs[8]) < mean(l.theirs[7]) && mean(l.theirs[7]) < mean(l.theirs[6])) {
		t.Errorf("their GLL's inner folds do not fall from K = 6 to 8")
	}
	requireOnPage(t, 18, sec, fmt.Sprintf("GLL's inner folds are above theirs at every K, by %.3f to %.3f, and go from %.3f at K = 6 to %.3f at K = 8 where theirs fall from %.3f to %.3f",
		gapLo, gapHi, mean(l.test[6]), mean(l.test[8]), mean(l.theirs[6]), mean(l.theirs[8])))
	requireOnPage(t, 18, sec, fmt.Sprintf("its training MSE falls from %.3f to %.3f", mean(l.train[6]), mean(l.train[8])))

	// The studies with block draws, complete, and their numbers.
	for _, b := range ml1mBlockDraws {
		requireOnPage(t, 18, sec, fmt.Sprintf("the study of %s with block draws, [%s](../%s/README.md), is complete and scores %s",
			b.model, b.study, b.study, pm(blocks[b.model][b.model], 3)))
	}
}
