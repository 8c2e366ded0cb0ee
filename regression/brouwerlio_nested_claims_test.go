package regression

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"testing"
)

// The tests in this file check claims 8 (our GLLI's stuck chains) and 9
// (the lowest models of the nested cross-validations) of
// results/brouwer-lio/findings.md against our committed records and
// their published table.

// TestBrouwerLioClaimGLLIStuck checks claim 8 against the records of our
// GLLI on GDSC: at K = 30 every one of the 10 chains has a train MSE
// within 0.5% of its first sweep's (about 3,790, the values' mean square:
// W Z near zero) at every sweep, and so a held-out MSE of 3793 ± 14
// against their 705.2 ± 5.1; at K = 20, 6 of the 10 do (2608 ± 480
// against 687.5 ± 3.5), the other 4 settling near 840; at K = 15 none
// does, every chain's train MSE being below 900 by sweep 50 (720.8 ± 6.3
// against 682.8 ± 3.0). At K = 30 the final train MSE is, on average,
// within 0.5% of the values' mean square (3,793 on all of GDSC). All 150
// GLLI chains of the nested cross-validation on GDSC end below 1,000.
func TestBrouwerLioClaimGLLIStuck(t *testing.T) {
	st := loadCommittedStudy(t, "blio-gdsc-model-selection-gll")
	stuck := make(map[int]int)
	var final30 []float64
	for _, r := range st.Records {
		if r.Cell.Model != "GLLI" || r.Cell.Rank < 15 {
			continue
		}
		tr := r.Trace.TrainMSE
		if len(tr) != 250 {
			t.Fatalf("%s: %d sweeps traced, want 250", r.Cell.Key(), len(tr))
		}
		flat := true
		for _, v := range tr {
			flat = flat && math.Abs(v/tr[0]-1) <= 0.005
		}
		if flat {
			stuck[r.Cell.Rank]++
		}
		if r.Cell.Rank == 30 {
			final30 = append(final30, tr[len(tr)-1])
		}
		// The chains at K = 20 that leave zero settle near 840.
		if r.Cell.Rank == 20 && !flat && (tr[len(tr)-1] < 830 || tr[len(tr)-1] > 850) {
			t.Errorf("%s: final train MSE %.1f, not near 840", r.Cell.Key(), tr[len(tr)-1])
		}
		if r.Cell.Rank == 15 && tr[49] >= 900 {
			t.Errorf("%s: train MSE %.1f at sweep 50, not below 900", r.Cell.Key(), tr[49])
		}
	}
	if stuck[30] != 10 || stuck[20] != 6 || stuck[15] != 0 {
		t.Errorf("chains that stay at their first sweep's train MSE: %d at K = 30, %d at 20, %d at 15; the page says 10, 6, 0", stuck[30], stuck[20], stuck[15])
	}
	// The nested cross-validation of GLLI on GDSC (K 7 to 11) has no
	// such chain: all 150 end with a train MSE below 1,000.
	nested := 0
	for _, r := range loadCommittedStudy(t, "blio-gdsc-nested-cv-gll").Records {
		if r.Cell.Model != "GLLI" {
			continue
		}
		if tr := r.Trace.TrainMSE; len(tr) == 0 || tr[len(tr)-1] >= 1000 {
			t.Errorf("blio-gdsc-nested-cv-gll %s: ends at train MSE %v, not below 1,000", r.Cell.Key(), tr[len(tr)-1:])
		}
		nested++
	}
	if nested != 150 {
		t.Errorf("blio-gdsc-nested-cv-gll: %d GLLI chains, the page says 150", nested)
	}
	// Their final train MSE is the training folds' mean square, near the
	// 3,793 of all of GDSC (a fold's differs by well under 0.5%).
	if m := newMeanSE(final30).mean; math.Abs(m/3793-1) >= 0.005 {
		t.Errorf("K = 30: final train MSE %.1f on average, not within 0.5%% of 3,793", m)
	}
	ours, theirs := selectionBoth(t, "drug_sensitivity_gdsc", []string{"blio-gdsc-model-selection-gll"})
	if o, th := ours[blioKey{model: "GLLI", k: 15}], theirs[blioKey{model: "GLLI", k: 15}]; !near(o.mean, 720.8, 1) || !near(o.se, 6.3, 1) || !near(th.mean, 682.8, 1) || !near(th.se, 3.0, 1) {
		t.Errorf("GLLI K = 15: ours %.2f ± %.2f, theirs %.2f ± %.2f; the page says 720.8 ± 6.3 and 682.8 ± 3.0", o.mean, o.se, th.mean, th.se)
	}
	for _, c := range []struct {
		k             int
		ours, theirs  meanSE
		oursD, theirD int // digits printed
	}{{30, meanSE{mean: 3793, se: 14}, meanSE{mean: 705.2, se: 5.1}, 0, 1}, {20, meanSE{mean: 2608, se: 480}, meanSE{mean: 687.5, se: 3.5}, 0, 1}} {
		o, th := ours[blioKey{model: "GLLI", k: c.k}], theirs[blioKey{model: "GLLI", k: c.k}]
		seD := c.oursD
		if c.k == 20 {
			seD = -1 // 480, printed to two significant digits
		}
		if !near(o.mean, c.ours.mean, c.oursD) || !near(o.se, c.ours.se, seD) || !near(th.mean, c.theirs.mean, c.theirD) || !near(th.se, c.theirs.se, c.theirD) {
			t.Errorf("GLLI K = %d: ours %.2f ± %.2f, theirs %.2f ± %.2f; the page says %g ± %g and %g ± %g",
				c.k, o.mean, o.se, th.mean, th.se, c.ours.mean, c.ours.se, c.theirs.mean, c.theirs.se)
		}
	}
}

// ranked returns those of models that tab has, ordered by their mean in
// tab, lowest first.
func ranked(tab map[string]meanSE, models []string) []string {
	out := slices.DeleteFunc(slices.Clone(models), func(m string) bool { _, ok := tab[m]; return !ok })
	slices.SortStableFunc(out, func(a, b string) int { return cmpFloat(tab[a].mean, tab[b].mean) })
	return out
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// TestBrouwerLioClaimLowestInNestedCV checks claim 9 over the sixteen
// models (of blioDatasets' studies): on MovieLens 100K the same four
// lowest in the same order on both sides; on GDSC a Laplace prior the
// lowest on both, ours GLL and theirs GLLI, and the two after it on each
// side; on CCLE IC50 as they read it, the two lowest of the models both
// ran on those values, and where their next three fall in ours; their
// lowest of all, GGGW, ours on the real values; on CCLE EC50 the column
// means below every model of theirs and every model of ours but GGGW. The
// numbers quoted are rendered from the records and required on the page.
func TestBrouwerLioClaimLowestInNestedCV(t *testing.T) {
	sec := claimSection(t, 9)
	requireOnPage(t, 9, sec, "**Partly agrees.**")
	ordinals := func(order []string, models ...string) string {
		var out []string
		for _, m := range models {
			out = append(out, ordinal(slices.Index(order, m)+1))
		}
		return andList(out)
	}
	quote := func(tab map[string]meanSE, digits int, models ...string) string {
		var out []string
		for _, m := range models {
			out = append(out, pm(tab[m], digits))
		}
		return strings.Join(out, ", ")
	}
	gdsc, ic, ec, ml := blioNestedScores(t, 0), blioNestedScores(t, 1), blioNestedScores(t, 2), blioNestedScores(t, 3)

	// MovieLens 100K.
	mlOurs, mlTheirs := ranked(ml.ours[0], blioSixteen), ranked(ml.theirs, blioSixteen)
	if len(mlOurs) != 16 || !slices.Equal(mlOurs[:4], mlTheirs[:4]) {
		t.Errorf("MovieLens 100K, lowest first: ours %v, theirs %v; the page says the same four lowest", mlOurs, mlTheirs)
	}
	requireOnPage(t, 9, sec, fmt.Sprintf("On MovieLens 100K the four lowest are the same, in the same order, on both sides: %s (ours %s; theirs %s)",
		andList(mlOurs[:4]), quote(ml.ours[0], 3, mlOurs[:4]...), quote(ml.theirs, 3, mlOurs[:4]...)))

	// GDSC: the Gaussian models on the real values, the Poisson ones on
	// the values cast as theirs.
	gdscOurs := maps.Clone(gdsc.ours[0])
	maps.Copy(gdscOurs, gdsc.ours[1])
	gOurs, gTheirs := ranked(gdscOurs, blioSixteen), ranked(gdsc.theirs, blioSixteen)
	if len(gOurs) != 16 || gOurs[0] != "GLL" || gTheirs[0] != "GLLI" {
		t.Errorf("GDSC, lowest first: ours %v, theirs %v; the page says GLL and GLLI", gOurs, gTheirs)
	}
	requireOnPage(t, 9, sec, fmt.Sprintf("On GDSC a Laplace prior is the lowest in both: ours GLL (%s), theirs GLLI (%s, with their GLL %s, %.1f standard errors of the difference above it); next come our %s (%s) and their %s; our GLLI is %s (%s)",
		pm(gdscOurs["GLL"], 1), pm(gdsc.theirs["GLLI"], 1), pm(gdsc.theirs["GLL"], 1), zDiff(gdsc.theirs["GLL"], gdsc.theirs["GLLI"]),
		andList(gOurs[1:3]), quote(gdscOurs, 1, gOurs[1:3]...), andList(gTheirs[1:3]), ordinal(slices.Index(gOurs, "GLLI")+1), pm(gdscOurs["GLLI"], 1)))

	// CCLE IC50, as they read it: the models both ran on those values.
	icOurs := ranked(ic.ours[1], blioSixteen)
	icTheirs := ranked(ic.theirs, icOurs)
	if !slices.Equal(slices.Sorted(slices.Values(icOurs[:2])), slices.Sorted(slices.Values(icTheirs[:2]))) || !slices.Equal(icTheirs[2:5], []string{"GLLI", "GLL", "GEG"}) {
		t.Errorf("CCLE IC50 as they read it, lowest first: ours %v, theirs %v", icOurs, icTheirs)
	}
	requireOnPage(t, 9, sec, fmt.Sprintf("the two lowest of the %d models both ran on those values are %s on both sides (ours %s %s and %s %s; theirs %s %s and %s %s); their next three, GLLI, GLL and GEG (%.3f, %.3f, %.3f), are our %s, the last",
		len(icOurs), andList(slices.Sorted(slices.Values(icOurs[:2]))), icOurs[0], pm(ic.ours[1][icOurs[0]], 3), icOurs[1], pm(ic.ours[1][icOurs[1]], 3),
		icTheirs[0], pm(ic.theirs[icTheirs[0]], 3), icTheirs[1], pm(ic.theirs[icTheirs[1]], 3),
		ic.theirs["GLLI"].mean, ic.theirs["GLL"].mean, ic.theirs["GEG"].mean, ordinals(icOurs, "GLLI", "GLL", "GEG")))
	if icOurs[len(icOurs)-1] != "GEG" {
		t.Errorf("CCLE IC50 as they read it: our highest is %s, the page says GEG", icOurs[len(icOurs)-1])
	}
	if all, real := ranked(ic.theirs, blioSixteen), ranked(ic.ours[0], blioSixteen); all[0] != "GGGW" || real[0] != "GGGW" {
		t.Errorf("CCLE IC50: their lowest of all %s, ours on the real values %s; the page says GGGW and GGGW", all[0], real[0])
	}
	requireOnPage(t, 9, sec, fmt.Sprintf("Their lowest of all on IC50 is GGGW (%s), which we ran on the real values only, where it is our lowest too (%s)",
		pm(ic.theirs["GGGW"], 3), pm(ic.ours[0]["GGGW"], 3)))

	// CCLE EC50: the column means against every model.
	ecTheirs := ranked(ec.theirs, slices.Concat(blioSixteen, []string{"ColumnMean"}))
	ecReal, ecAs := ranked(ec.ours[0], slices.Concat(blioSixteen, []string{"ColumnMean"})), ranked(ec.ours[1], slices.Concat(blioSixteen, []string{"ColumnMean"}))
	if ecTheirs[0] != "ColumnMean" || ecReal[0] != "GGGW" || ecReal[1] != "ColumnMean" || ecAs[0] != "GGGW" || ecAs[1] != "ColumnMean" {
		t.Errorf("CCLE EC50, lowest first: theirs %v, ours on the real values %v, as they read it %v", ecTheirs, ecReal, ecAs)
	}
	requireOnPage(t, 9, sec, fmt.Sprintf("On CCLE EC50 no model of theirs beats the column means (%s against their best model, %s, %s); of ours only GGGW does, by less than a standard error of the difference (%s against %s as they read the data, %s against %s on the real values), our next best being %s (%s and %s)",
		pm(ec.theirs["ColumnMean"], 3), ecTheirs[1], pm(ec.theirs[ecTheirs[1]], 3), pm(ec.ours[1]["GGGW"], 3), pm(ec.ours[1]["ColumnMean"], 3),
		pm(ec.ours[0]["GGGW"], 3), pm(ec.ours[0]["ColumnMean"], 3), ecAs[2], pm(ec.ours[1][ecAs[2]], 3), pm(ec.ours[0][ecAs[2]], 3)))
	if ecReal[2] != ecAs[2] {
		t.Errorf("CCLE EC50: our next best %s as they read it, %s on the real values", ecAs[2], ecReal[2])
	}
	for _, z := range []float64{zDiff(ec.ours[1]["GGGW"], ec.ours[1]["ColumnMean"]), zDiff(ec.ours[0]["GGGW"], ec.ours[0]["ColumnMean"])} {
		if z <= -1 {
			t.Errorf("CCLE EC50: our GGGW %.2f standard errors below the column means, the page says less than one", -z)
		}
	}
}
