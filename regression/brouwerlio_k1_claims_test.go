package regression

// The test in this file checks claim 20 of
// results/brouwer-lio/findings.md, on the far-off folds of our
// real-valued models at K = 1 in the model selection on MovieLens 100K,
// against the study's committed records, the committed output of
// scripts/blio-k1-signs (results/brouwer-lio/k1-signs.csv and
// k1-signs-long.csv) and their published table. No chain is run: every
// number comes from committed files, and the test takes a few seconds.

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/bnmf-lab/bnmf/experiments"
)

// TestBrouwerLioClaimK1Outliers checks claim 20: at K = 1 on MovieLens
// 100K our far-off folds (GLLI's 0, 4 and 8, GGGU's 3) are chains whose
// rank-one fit split the signs of w and z, predicting about 11% of the
// training ratings below zero, and stayed split to 20,000 sweeps; from
// ten starts per fold 7 of 100 GGGU chains and 8 of 100 GLLI chains
// split, at which rates all ten of upstream's folds escape with
// probability 0.48 and 0.43; their own GGG has a split fold. Each number
// the page prints is rendered here from the committed files and required
// on the page as printed.
func TestBrouwerLioClaimK1Outliers(t *testing.T) {
	sec := claimSection(t, k1Claim)
	require := func(text string) {
		t.Helper()
		requireOnPage(t, k1Claim, sec, text)
	}

	// The records: which K = 1 cells are far off, and their traces.
	st := loadCommittedStudy(t, k1Study)
	byModel := make(map[string][]*experiments.Record)
	globalTrain := newK1Span()
	for i := range st.Records {
		r := &st.Records[i]
		if r.Cell.Rank != 1 {
			continue
		}
		if r.Error != "" {
			t.Fatalf("%s: cell %s failed: %s", k1Study, r.Cell.Key(), r.Error)
		}
		if r.Cell.Model == "GlobalMean" {
			globalTrain.add(r.Metrics.TrainMSE)
		}
		if slices.Contains(k1Bayesian, r.Cell.Model) {
			byModel[r.Cell.Model] = append(byModel[r.Cell.Model], r)
		}
	}
	far := make(map[string][]int) // model: folds
	farMSE := make(map[string][]string)
	others, othersTrain := newK1Span(), newK1Span()
	nOthers := 0
	farKept, farSigma2 := newK1Span(), newK1Span()
	settled := newK1Span()
	for _, m := range k1Bayesian {
		if len(byModel[m]) != k1Folds {
			t.Fatalf("%s: %s has %d cells at K = 1, want %d", k1Study, m, len(byModel[m]), k1Folds)
		}
		for _, r := range byModel[m] {
			if r.Metrics.TestMSE <= 1 {
				nOthers++
				others.add(r.Metrics.TestMSE)
				othersTrain.add(r.Metrics.TrainMSE)
				continue
			}
			far[m] = append(far[m], r.Cell.Repeat)
			farMSE[m] = append(farMSE[m], fmt.Sprintf("%.3f", r.Metrics.TestMSE))
			tr := r.Trace.TrainMSE
			for i, x := range tr {
				if math.Abs(x/r.Metrics.TrainMSE-1) < 0.05 {
					settled.add(float64(i + 1))
					break
				}
			}
			for _, x := range tr[19:] {
				farKept.add(x) // sweeps 20 to 200
			}
			farSigma2.add(r.Metrics.Sigma2Mean)
		}
	}
	wantFar := map[string][]int{"GLLI": {0, 4, 8}, "GGGU": {3}}
	if fmt.Sprint(far) != fmt.Sprint(wantFar) {
		t.Errorf("far-off K = 1 cells (held-out MSE above 1) are %v, the page's %v", far, wantFar)
	}
	require(fmt.Sprintf("GLLI on folds 0, 4 and 8 (%s, %s and %s) and GGGU on fold 3 (%s)",
		k1At(farMSE["GLLI"], 0), k1At(farMSE["GLLI"], 1), k1At(farMSE["GLLI"], 2), k1At(farMSE["GGGU"], 0)))
	require(fmt.Sprintf("The other %d K = 1 cells of our nine Bayesian models score %s", nOthers, others.text(3)))
	require(fmt.Sprintf("by sweep %.0f to %.0f", settled.lo, settled.hi))
	require(fmt.Sprintf("stays at %s from sweep 20 to 200", farKept.text(2)))
	require(fmt.Sprintf("posterior means %s", farSigma2.text(2)))
	require(fmt.Sprintf("every other chain's ends at %s", othersTrain.text(3)))
	if !(farKept.lo > globalTrain.hi) {
		t.Errorf("the far-off chains' training MSE %v is not above the global mean's %v", farKept.lo, globalTrain.hi)
	}
	require(fmt.Sprintf("worse than the global mean does (%s)", globalTrain.text(3)))

	mseOf := func(m string, keep func(*experiments.Record) bool) meanSE {
		var xs []float64
		for _, r := range byModel[m] {
			if keep(r) {
				xs = append(xs, r.Metrics.TestMSE)
			}
		}
		return newMeanSE(xs)
	}
	all := func(*experiments.Record) bool { return true }
	unsplit := func(r *experiments.Record) bool { return r.Metrics.TestMSE <= 1 }
	theirs := theirStats(t, "model_selection", "movielens_100K", "MSE")
	their := func(m string) meanSE { return theirs[blioKey{model: m, x: 1}] }
	require(fmt.Sprintf("our GLLI's held-out MSE is %s and GGGU's %s, against their %s and %s",
		pm(mseOf("GLLI", all), 2), pm(mseOf("GGGU", all), 2), pm(their("GLLI"), 3), pm(their("GGGU"), 3)))
	require(fmt.Sprintf("GLLI's other seven folds average %s and GGGU's other nine %s",
		pm(mseOf("GLLI", unsplit), 3), pm(mseOf("GGGU", unsplit), 3)))

	// K = 1 is the lowest of none of the nine models, ours or theirs.
	ours := make(map[blioKey][]float64)
	for _, r := range st.Records {
		if slices.Contains(k1Bayesian, r.Cell.Model) {
			k := blioKey{model: r.Cell.Model, k: r.Cell.Rank}
			ours[k] = append(ours[k], r.Metrics.TestMSE)
		}
	}
	ourMeans := make(map[blioKey]meanSE, len(ours))
	for k, xs := range ours {
		ourMeans[k] = newMeanSE(xs)
	}
	theirMeans := make(map[blioKey]meanSE)
	for k, v := range theirs {
		if k.x > 0 { // their baselines have no K
			theirMeans[blioKey{model: k.model, k: int(k.x)}] = v
		}
	}
	for side, tab := range map[string]map[blioKey]meanSE{"our": ourMeans, "their": theirMeans} {
		for k := range tab {
			if k.k == 1 && slices.Contains(k1Bayesian, k.model) && lowestK(tab, k.model) == 1 {
				t.Errorf("%s %s is lowest at K = 1", side, k.model)
			}
		}
	}
	require("K = 1 is the lowest for none of these nine models, ours or theirs")

	// The reruns: ten starts of every K = 1 cell of seven models.
	chains := readK1Signs(t, k1Signs)
	if len(chains) != len(k1Rerun)*k1Folds*10 {
		t.Fatalf("%s has %d chains, want %d", k1Signs, len(chains), len(k1Rerun)*k1Folds*10)
	}
	perModel := make(map[string][]k1Chain)
	reproduced := 0
	for _, c := range chains {
		perModel[c.model] = append(perModel[c.model], c)
		if c.sweeps != 200 {
			t.Errorf("%s: %s fold %d start %d ran %d sweeps, want the study's 200", k1Signs, c.model, c.fold, c.start, c.sweeps)
		}
		// Every chain is either unsplit (one sign in w, one in z, no
		// training rating predicted below zero) or split (more than a
		// tenth below zero).
		single := (c.meanWNeg == 0 && c.meanZNeg == 0) || (c.meanWNeg == k1Users && c.meanZNeg == k1Films)
		if !(c.meanNegShare == 0 && single) && !(c.meanNegShare > 0.1 && c.minorUsers > 0 && c.minorFlm > 0) {
			t.Errorf("%s: %s fold %d start %d is neither unsplit nor split: %d rows and %d columns negative, %v of training ratings",
				k1Signs, c.model, c.fold, c.start, c.meanWNeg, c.meanZNeg, c.meanNegShare)
		}
		if c.start != 0 || !slices.Contains(k1Bayesian, c.model) {
			continue
		}
		// Start 0 is the study's chain: its held-out MSE is the record's.
		var rec *experiments.Record
		for _, r := range byModel[c.model] {
			if r.Cell.Repeat == c.fold {
				rec = r
			}
		}
		want := strconv.FormatFloat(rec.Metrics.TestMSE, 'g', 8, 64)
		if c.stored != want || c.testMSEText != want {
			t.Errorf("%s: %s fold %d start 0 has held-out MSE %s (stored %s), the record %s", k1Signs, c.model, c.fold, c.testMSEText, c.stored, want)
		}
		if c.split() != (rec.Metrics.TestMSE > 1) {
			t.Errorf("%s: %s fold %d start 0 split %v, but its record's held-out MSE is %v", k1Signs, c.model, c.fold, c.split(), rec.Metrics.TestMSE)
		}
		reproduced++
	}
	require(fmt.Sprintf("each of the %d reruns of GGGU's, GLL's and GLLI's cells from their own seed reproduces its record's held-out MSE", reproduced))

	farUsers, farFilms, farShare := newK1Span(), newK1Span(), newK1Span()
	nUnsplit0 := 0
	for _, m := range []string{"GGGU", "GLLI", "GLL"} {
		for _, c := range perModel[m] {
			if c.start != 0 {
				continue
			}
			if !c.split() {
				nUnsplit0++
				continue
			}
			farUsers.add(float64(c.minorUsers))
			farFilms.add(float64(c.minorFlm))
			farShare.add(c.meanNegShare)
		}
	}
	require(fmt.Sprintf("a block of %s users and %s films has the sign opposite to the rest", farUsers.text(0), farFilms.text(0)))
	require(fmt.Sprintf("predict %s of the training ratings below zero", farShare.pct()))
	require(fmt.Sprintf("in each of the %d others of these three models", nUnsplit0))

	var counts []string
	for _, m := range k1Rerun {
		n, split := 0, 0
		for _, c := range perModel[m.model] {
			n++
			if c.split() {
				split++
			}
		}
		if n != k1Folds*10 || split != m.split {
			t.Errorf("%s: %s has %d of %d chains split, the page %d of %d", k1Signs, m.model, split, n, m.split, k1Folds*10)
		}
		counts = append(counts, fmt.Sprintf("%d %s", split, m.model))
	}
	require(fmt.Sprintf("%s, %s, %s and %s chains end split, none of GLL's, GGGW's or GL21's",
		counts[0], counts[1], counts[2], counts[3]))

	narrow := struct{ users, films, share, train k1Span }{newK1Span(), newK1Span(), newK1Span(), newK1Span()}
	wide := struct{ users, films, share, train k1Span }{newK1Span(), newK1Span(), newK1Span(), newK1Span()}
	nNarrow, nWide, nUnsplit := 0, 0, 0
	splitTest, unsplitTest := newK1Span(), newK1Span()
	for _, c := range chains {
		if !c.split() {
			nUnsplit++
			unsplitTest.add(c.testMSE)
			continue
		}
		splitTest.add(c.testMSE)
		b := &narrow
		if c.meanNegShare > 0.2 {
			b = &wide
			nWide++
		} else {
			nNarrow++
		}
		b.users.add(float64(c.minorUsers))
		b.films.add(float64(c.minorFlm))
		b.share.add(c.meanNegShare)
		b.train.add(c.trainMSE)
	}
	require(fmt.Sprintf("%d with a block of %s users and %s films (%s of training ratings below zero, training MSE %s)",
		nNarrow, narrow.users.text(0), narrow.films.text(0), narrow.share.pct(), narrow.train.text(2)))
	require(fmt.Sprintf("%d in a wider split of %s users and %s films (%s, training MSE %s)",
		nWide, wide.users.text(0), wide.films.text(0), wide.share.pct(), wide.train.text(2)))
	require(fmt.Sprintf("their held-out MSEs are %s, while the %d unsplit chains score %s", splitTest.text(2), nUnsplit, unsplitTest.text(3)))

	// The rates, and what they make of upstream's ten folds.
	escape := func(model string) (p, pLo, pHi, rLo, rHi float64) {
		var k int
		for _, m := range k1Rerun {
			if m.model == model {
				k = m.split
			}
		}
		n := k1Folds * 10
		rLo, rHi = clopperPearson(k, n)
		rate := float64(k) / float64(n)
		return math.Pow(1-rate, k1Folds), math.Pow(1-rHi, k1Folds), math.Pow(1-rLo, k1Folds), rLo, rHi
	}
	p, pLo, pHi, rLo, rHi := escape("GGGU")
	require(fmt.Sprintf("at our rate of 7%% per chain all ten of their folds escape with probability 0.93^10 = %.2f (%.2f to %.2f over the 95%% interval of the rate, %.1f%% to %.1f%%)",
		p, pLo, pHi, 100*rLo, 100*rHi))
	p, pLo, pHi, _, _ = escape("GLLI")
	require(fmt.Sprintf("for GLLI, at 8%%, %.2f (%.2f to %.2f)", p, pLo, pHi))
	atLeast3 := 1 - distuv.Binomial{N: k1Folds, P: 0.08}.CDF(2)
	require(fmt.Sprintf("which at 8%% has probability %.2f", atLeast3))

	// Their table: no split fold in GGGU's or GLLI's, one in GGG's.
	theirFolds := func(model string) []float64 {
		var xs []float64
		for _, r := range publishedRows(t, func(r map[string]string) bool {
			return r["study"] == "model_selection" && r["experiment"] == "movielens_100K" && r["metric"] == "MSE" &&
				r["model"] == model && r["setting"] == "K" && r["setting_value"] == "1"
		}) {
			if r["replicate"] != strconv.Itoa(len(xs)+1) {
				t.Fatalf("%s: %s's K = 1 replicates out of order at %q", publishedTable, model, r["replicate"])
			}
			xs = append(xs, parseValue(t, r["value"]))
		}
		if len(xs) != k1Folds {
			t.Fatalf("%s: %s has %d folds at K = 1, want %d", publishedTable, model, len(xs), k1Folds)
		}
		return xs
	}
	theirGood := newK1Span()
	for _, m := range []string{"GGGU", "GLLI"} {
		for _, x := range theirFolds(m) {
			theirGood.add(x)
		}
	}
	require(fmt.Sprintf("their GGGU's and GLLI's folds all score %s", theirGood.text(3)))
	ggg := theirFolds("GGG")
	gggRest := newK1Span()
	var gggFar []string
	for i, x := range ggg {
		if x > 1 {
			gggFar = append(gggFar, fmt.Sprintf("%.3f on fold %d", x, i+1))
			continue
		}
		gggRest.add(x)
	}
	if len(gggFar) != 1 {
		t.Errorf("their GGG has %d folds above 1 at K = 1 (%v), the page one", len(gggFar), gggFar)
	}
	require(fmt.Sprintf("scores %s of 10 and %s on the others", k1At(gggFar, 0), gggRest.text(3)))

	// The far-off cells run on to 20,000 sweeps.
	long := readK1Signs(t, k1SignsLong)
	longTrain, longTest := newK1Span(), newK1Span()
	var longCells []string
	for _, c := range long {
		longCells = append(longCells, fmt.Sprintf("%s:%d", c.model, c.fold))
		if c.start != 0 || c.sweeps != 20000 || !c.split() {
			t.Errorf("%s: %s fold %d start %d, %d sweeps, split %v; want start 0 at 20000 sweeps, split", k1SignsLong, c.model, c.fold, c.start, c.sweeps, c.split())
		}
		longTrain.add(c.trainMSE)
		longTest.add(c.testMSE)
	}
	if got := strings.Join(longCells, ","); got != "GGGU:3,GLLI:0,GLLI:4,GLLI:8" {
		t.Errorf("%s holds cells %s, want the four far-off ones", k1SignsLong, got)
	}
	require(fmt.Sprintf("run on to 20,000 sweeps, the four chains are still split (training MSE %s, held-out MSE %s", longTrain.text(2), longTest.text(2)))
}
