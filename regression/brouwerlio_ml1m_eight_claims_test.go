package regression

// The tests in this file check what claims 21 and 22 of
// results/brouwer-lio/findings.md say of MovieLens 1M: the nested
// cross-validations of the eight priors of claim 21 there, against our
// committed records and their published table, with the helpers of
// brouwerlio_sixteen_claims_test.go and brouwerlio_ml1m_claims_test.go.
// Claim 18's test (brouwerlio_ml1m_claims_test.go) sets the same studies
// in its table of all the models. Every one of these studies is
// committed complete, and one that is missing or incomplete fails the
// tests.

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"testing"
)

// ml1mEight are our nested cross-validations of the eight priors on
// MovieLens 1M: each study and its number of cells.
var ml1mEight = []struct {
	study string
	cells int
}{
	{"blio-ml1m-nested-cv-ggg", 150},
	{"blio-ml1m-nested-cv-ggga", 120},
	{"blio-ml1m-nested-cv-gggw", 90},
	{"blio-ml1m-nested-cv-gvg", 90},
	{"blio-ml1m-nested-cv-gvng", 90},
	{"blio-ml1m-nested-cv-gl21", 90},
	{"blio-ml1m-nested-cv-pgg", 180}, // PGG and PGGG
}

// requireComplete loads results/<name> as a committed study, failing on
// any problem in its store, and fails unless it has cells cells and a
// successful record of each.
func requireComplete(t *testing.T, name string, cells int) {
	t.Helper()
	st := loadCommittedStudy(t, name)
	ok := 0
	for _, r := range st.Records {
		if r.Error == "" {
			ok++
		}
	}
	if len(st.Manifest.Cells) != cells || ok != cells {
		t.Fatalf("results/%s: %d successful records of %d cells, want %d of %d (the study is committed complete)", name, ok, len(st.Manifest.Cells), cells, cells)
	}
}

// ml1mAllStudies returns our nested cross-validations on MovieLens 1M of
// every model of claim 18's table (GEG and GLL drawn one entry at a
// time), failing unless each of the eight's is complete.
func ml1mAllStudies(t *testing.T) []string {
	t.Helper()
	studies := slices.Clone(ml1mStudies)
	for _, s := range ml1mEight {
		requireComplete(t, s.study, s.cells)
		studies = append(studies, s.study)
	}
	return studies
}

// numberWord prints n as the page's prose does, in words up to twenty.
func numberWord(n int) string {
	words := []string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
		"eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty"}
	if n >= 0 && n < len(words) {
		return words[n]
	}
	return strconv.Itoa(n)
}

// TestBrouwerLioClaimEightPriorsML1M checks claim 21 on MovieLens 1M: the
// table of the eight models' held-out MSE on the outer folds, ours beside
// theirs; which models agree within 2 standard errors of the difference
// and by how much; GVnG, which parts on MovieLens 100K, choosing K = 1 in
// every outer fold on both sides here.
func TestBrouwerLioClaimEightPriorsML1M(t *testing.T) {
	sec := claimSection(t, 21)
	studies := ml1mAllStudies(t)
	ours := summary(ourOuterFolds(t, studies...))
	theirs := summary(theirOuterFolds(t, ml1mExperiment, "MSE"))
	table := tableHead("model", "ours", "theirs", "ours − theirs", "in standard errors of the difference")
	var agree []string
	maxZ := 0.0
	for _, m := range blioEight {
		th, ok := theirs[m]
		if !ok || th.n != 5 {
			t.Fatalf("MovieLens 1M: %d outer folds of their %s, want 5", th.n, m)
		}
		o := ours[m]
		if o.n != 5 {
			t.Fatalf("MovieLens 1M: %d outer folds of our %s, want 5", o.n, m)
		}
		z := zDiff(o, th)
		table += tableRow(m, pm(o, 3), pm(th, 3), relDiff(o, th), fmt.Sprintf("%+.1f", z))
		if math.Abs(z) > 2 {
			t.Errorf("MovieLens 1M %s: %+.1f standard errors of the difference from theirs; the page says it agrees", m, z)
		}
		agree = append(agree, m)
		maxZ = max(maxZ, math.Abs(z))
	}
	requireOnPage(t, 21, sec, "MovieLens 1M:\n\n"+table)
	requireOnPage(t, 21, sec, fmt.Sprintf("On MovieLens 1M %s are within %.1f standard errors of the difference of theirs.", andList(agree), maxZ))
	requireOnPage(t, 21, sec, fmt.Sprintf("which part; on MovieLens 1M all eight are within %.1f.", maxZ))
	o, th := ours["GGGW"], theirs["GGGW"]
	if !(o.mean < th.mean) {
		t.Errorf("MovieLens 1M: our GGGW %.4f is not below theirs %.4f", o.mean, th.mean)
	}
	requireOnPage(t, 21, sec, fmt.Sprintf("On MovieLens 1M our GGGW is %.1f%% below theirs (%+.1f standard errors of the difference), in the same direction, within 2",
		-100*(o.mean/th.mean-1), zDiff(o, th)))
	ourK := ourChosenK(t, studies...)["GVnG"]
	theirK := theirOuterFolds(t, ml1mExperiment, "chosen_K")["GVnG"]
	for i := range 5 {
		if ourK[i] != 1 || theirK[i] != 1 {
			t.Errorf("MovieLens 1M GVnG outer fold %d: ours chose K = %d, theirs %g; the page says 1 on both sides", i+1, ourK[i], theirK[i])
		}
	}
	requireOnPage(t, 21, sec, fmt.Sprintf("GVnG, which parts from theirs on MovieLens 100K, agrees on MovieLens 1M (%+.1f), where both sides choose K = 1 in every outer fold",
		zDiff(ours["GVnG"], theirs["GVnG"])))
}

// TestBrouwerLioClaimPoissonML1M checks claim 22 on MovieLens 1M: the
// rows of the page's table that rank PGG and PGGG among the sixteen
// models, theirs and ours, which end the table; and the prose on them:
// the two highest of theirs and how far above the lowest, the model
// closest below them on each side, and, in ours, the models above them.
func TestBrouwerLioClaimPoissonML1M(t *testing.T) {
	sec := claimSection(t, 22)
	studies := ml1mAllStudies(t)
	ours := summary(ourOuterFolds(t, studies...))
	theirs := summary(theirOuterFolds(t, ml1mExperiment, "MSE"))
	rows := ""
	type side struct {
		order []string
		rank  [2]int
		above []float64
		z     []float64
	}
	sides := make(map[string]side)
	for _, sd := range []struct {
		label string
		tab   map[string]meanSE
	}{{"theirs", theirs}, {"ours", ours}} {
		order := ranked(sd.tab, blioSixteen)
		low := sd.tab[order[0]]
		s := side{order: order}
		row := []string{"MovieLens 1M", sd.label, strconv.Itoa(len(order)), order[0] + " " + pm(low, 3)}
		for j, m := range []string{"PGG", "PGGG"} {
			s.rank[j] = slices.Index(order, m) + 1
			a, z := 100*(sd.tab[m].mean/low.mean-1), zDiff(sd.tab[m], low)
			s.above, s.z = append(s.above, a), append(s.z, z)
			row = append(row, fmt.Sprintf("%s of %d, %+.1f%% (%.1f)", ordinal(s.rank[j]), len(order), a, z))
		}
		sides[sd.label] = s
		rows += tableRow(row...)
	}
	requireOnPage(t, 22, sec, rows+"\n**Partly agrees.**")

	// Theirs: the two highest of the sixteen, with GVnG next below.
	th := sides["theirs"]
	if min(th.rank[0], th.rank[1]) != 15 {
		t.Errorf("theirs on MovieLens 1M: PGG and PGGG rank %v, the page says the two highest of 16", th.rank)
	}
	next := func(s side) string {
		i := min(s.rank[0], s.rank[1]) - 2
		return s.order[i]
	}
	if n := next(th); n != "GVnG" {
		t.Errorf("theirs on MovieLens 1M: %s is next below the Poisson models, the page says GVnG", n)
	}
	// gap is how far m is below the lower of the two, in percent of it.
	gap := func(tab map[string]meanSE, m string) float64 {
		return 100 * (1 - tab[m].mean/min(tab["PGG"].mean, tab["PGGG"].mean))
	}
	requireOnPage(t, 22, sec, fmt.Sprintf("On MovieLens 1M PGG and PGGG are the two highest of the sixteen in theirs, %s above the lowest (by %s standard errors of the difference), but their GVnG is %.1f%% below them (%s)",
		spanOf("%.1f%%", th.above), spanOf("%.1f", th.z), gap(theirs, "GVnG"), pm(theirs["GVnG"], 3)))

	// Ours: GEG, drawn one entry at a time, above them; GVnG next below.
	o := sides["ours"]
	above := o.order[max(o.rank[0], o.rank[1]):]
	if !slices.Equal(above, []string{"GEG"}) {
		t.Errorf("ours on MovieLens 1M: %v above the Poisson models, the page says GEG alone", above)
	}
	if n := next(o); n != "GVnG" {
		t.Errorf("ours on MovieLens 1M: %s is next below the Poisson models, the page says GVnG", n)
	}
	ran := fmt.Sprintf("%s and %s of the %s models of ours", ordinal(o.rank[0]), ordinal(o.rank[1]), numberWord(len(o.order)))
	geg := summary(ourOuterFolds(t, "blio-ml1m-nested-cv-geg-rows"))["GEG"]
	if !(geg.mean < min(ours["PGG"].mean, ours["PGGG"].mean)) {
		t.Errorf("our GEG drawn as blocks %.4f is not below our Poisson models", geg.mean)
	}
	requireOnPage(t, 22, sec, fmt.Sprintf("In ours they are %s, %s above the lowest (by %s standard errors of the difference), below only GEG drawn one entry at a time (%s; drawn as blocks, %s, it is below them: claims 18 and 19), and our GVnG is %.1f%% below them (%s)",
		ran, spanOf("%.1f%%", o.above), spanOf("%.1f", o.z), pm(ours["GEG"], 3), pm(geg, 3), gap(ours, "GVnG"), pm(ours["GVnG"], 3)))

	// GVnG beside them, at K = 1 as they are, and far below them on
	// MovieLens 100K in theirs.
	ourK, theirK := ourChosenK(t, studies...), theirOuterFolds(t, ml1mExperiment, "chosen_K")
	for _, m := range []string{"PGG", "PGGG", "GVnG"} {
		for i := range 5 {
			if ourK[m][i] != 1 || theirK[m][i] != 1 {
				t.Errorf("MovieLens 1M %s outer fold %d: ours chose K = %d, theirs %g; the page says 1 on both sides", m, i+1, ourK[m][i], theirK[m][i])
			}
		}
	}
	requireOnPage(t, 22, sec, fmt.Sprintf("it predicts within %.1f%% of them, where on MovieLens 100K it is %.1f%% below them in theirs",
		max(gap(theirs, "GVnG"), gap(ours, "GVnG")), gap(blioNestedScores(t, 3).theirs, "GVnG")))
}
