package regression

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The tests in this file check claim 6 of results/brouwer-lio/findings.md
// (Brouwer & Lio's nested cross-validation on CCLE, as they read the data
// and on the real values) against our committed records and their
// published table; claims 8 and 9 are in brouwerlio_nested_claims_test.go,
// claim 7's in brouwerlio_selection_claims_test.go, and the helpers that
// read their table and our outer folds in brouwerlio_outer_folds_test.go.
// Only claim 6's statement on the data's variance reads the data, and
// skips that part without it.

// TestBrouwerLioClaimCCLECast checks claim 6: the page's table of the
// CCLE nested cross-validations, theirs, ours on the real values and ours
// on the values as their loader gives them (integers, the same folds); on
// IC50, ours on the real values below theirs for every model but GLL,
// GLLI and GEG by the span the page gives, as they read the data within
// 0.9 standard errors of the difference, the cast raising the MSE by 0.45
// to 0.52, and GLL, GLLI and GEG above theirs; on EC50, ours on the real
// values above theirs for every model but GGGW, the row means 8.3
// standard errors above, and as they read the data every model but GGGW
// and both baselines within 1.0 standard error of theirs; our GEG
// choosing K = 3 on IC50 in every outer fold, theirs 4 to 6; and the same
// folds in both IC50 studies.
func TestBrouwerLioClaimCCLECast(t *testing.T) {
	sec := claimSection(t, 6)
	requireOnPage(t, 6, sec, "**Explained: their loader's cast to integers accounts for the whole gap on IC50 for the nonnegative priors, GGGU, GGG, GGGA, GL21 and the baselines; on EC50, the cast and the untested pairs they score, for every model but GGGW (claim 21).**")
	type scores struct{ theirs, real, integer map[string]meanSE }
	var sets []scores
	table := tableHead("model", "IC50 theirs", "IC50 ours, real values", "IC50 ours, as they read it", "EC50 theirs", "EC50 ours, real values", "EC50 ours, as they read it")
	for _, set := range blioCCLE {
		real := []string{set.real}
		if set.gggw != "" {
			real = append(real, set.gggw)
		}
		sets = append(sets, scores{summary(theirOuterFolds(t, set.experiment, "MSE")), summary(ourOuterFolds(t, real...)), summary(ourOuterFolds(t, set.integer))})
	}
	cell := func(tab map[string]meanSE, m string) string {
		if v, ok := tab[m]; ok {
			if v.n != 5 {
				t.Fatalf("%s: %d outer folds, want 5", m, v.n)
			}
			return pm(v, 3)
		}
		return "—"
	}
	for _, m := range blioCCLEModels {
		row := []string{m}
		for _, s := range sets {
			row = append(row, cell(s.theirs, m), cell(s.real, m), cell(s.integer, m))
		}
		table += tableRow(row...)
	}
	requireOnPage(t, 6, sec, table)

	// IC50.
	ic := sets[0]
	var gaps, zs, zInt, rises, realMSE []float64
	var gapModels, casted []string
	for _, m := range blioCCLEModels[:12] {
		if m == "GLL" || m == "GLLI" || m == "GEG" {
			continue
		}
		gapModels = append(gapModels, m)
		gaps = append(gaps, 100*(1-ic.real[m].mean/ic.theirs[m].mean))
		zs = append(zs, -zDiff(ic.real[m], ic.theirs[m]))
		if _, ok := ic.integer[m]; ok {
			casted = append(casted, m)
			zInt = append(zInt, math.Abs(zDiff(ic.integer[m], ic.theirs[m])))
			rises = append(rises, ic.integer[m].mean-ic.real[m].mean)
			realMSE = append(realMSE, ic.real[m].mean)
		}
	}
	lo, hi := slices.Index(gaps, slices.Min(gaps)), slices.Index(gaps, slices.Max(gaps))
	requireOnPage(t, 6, sec, fmt.Sprintf("On the real values ours are %.1f%% (%s) to %.1f%% (%s) below theirs for %s, by %.1f to %.1f standard errors of the difference",
		gaps[lo], gapModels[lo], gaps[hi], gapModels[hi], andList(gapModels), slices.Min(zs), slices.Max(zs)))
	for _, m := range []string{"RowMean", "ColumnMean"} {
		zInt = append(zInt, math.Abs(zDiff(ic.integer[m], ic.theirs[m])))
	}
	requireOnPage(t, 6, sec, fmt.Sprintf("On it %s and both baselines come within %.1f standard errors of theirs", andList(casted), slices.Max(zInt)))
	requireOnPage(t, 6, sec, fmt.Sprintf("and their MSEs, %.1f to %.1f on the real values, rise by %.2f to %.2f",
		slices.Min(realMSE), slices.Max(realMSE), slices.Min(rises), slices.Max(rises)))
	order := ranked(ic.theirs, blioCCLEModels[:12])
	requireOnPage(t, 6, sec, fmt.Sprintf("The cast does not explain GLL, GLLI and GEG, their lowest on IC50 after %s (claim 9): on the cast values ours are above theirs by %.1f, %.1f and %.1f standard errors of the difference (%s against %.3f, %s against %.3f, %s against %.3f)",
		andList(order[:slices.IndexFunc(order, func(m string) bool { return m == "GLL" || m == "GLLI" || m == "GEG" })]),
		zDiff(ic.integer["GLL"], ic.theirs["GLL"]), zDiff(ic.integer["GLLI"], ic.theirs["GLLI"]), zDiff(ic.integer["GEG"], ic.theirs["GEG"]),
		fmt.Sprintf("%.3f", ic.integer["GLL"].mean), ic.theirs["GLL"].mean, fmt.Sprintf("%.3f", ic.integer["GLLI"].mean), ic.theirs["GLLI"].mean,
		fmt.Sprintf("%.3f", ic.integer["GEG"].mean), ic.theirs["GEG"].mean))
	if !slices.Equal(order[3:6], []string{"GLLI", "GLL", "GEG"}) {
		t.Errorf("IC50 theirs, lowest first: %v; the page says GLLI, GLL and GEG after three others", order)
	}

	// EC50.
	ec := sets[1]
	var above []float64
	var aboveModels []string
	maxZ := 0.0
	for _, m := range blioCCLEModels {
		if m == "GGGW" || m == "RowMean" || m == "ColumnMean" {
			continue
		}
		above = append(above, 100*(ec.real[m].mean/ec.theirs[m].mean-1))
		aboveModels = append(aboveModels, m)
	}
	for _, m := range blioCCLEModels {
		if m != "GGGW" {
			maxZ = max(maxZ, math.Abs(zDiff(ec.integer[m], ec.theirs[m])))
		}
	}
	lo, hi = slices.Index(above, slices.Min(above)), slices.Index(above, slices.Max(above))
	requireOnPage(t, 6, sec, fmt.Sprintf("On the real values ours are above theirs, by %.1f%% (%s) to %.1f%% (%s) for every model but GGGW, and by %.1f%% for the row means (%s against %s, %.1f standard errors of the difference)",
		above[lo], aboveModels[lo], above[hi], aboveModels[hi], 100*(ec.real["RowMean"].mean/ec.theirs["RowMean"].mean-1),
		fmt.Sprintf("%.3f", ec.real["RowMean"].mean), fmt.Sprintf("%.3f", ec.theirs["RowMean"].mean), zDiff(ec.real["RowMean"], ec.theirs["RowMean"])))
	requireOnPage(t, 6, sec, fmt.Sprintf("On the values as they read them, ours are within %.1f standard error of theirs for every model but GGGW and both baselines (the row means %s against %s)",
		maxZ, pm(ec.integer["RowMean"], 3), pm(ec.theirs["RowMean"], 3)))
	requireOnPage(t, 6, sec, fmt.Sprintf("GGGW, below theirs on both readings (%s and %s against %s)", pm(ec.real["GGGW"], 3), pm(ec.integer["GGGW"], 3), pm(ec.theirs["GGGW"], 3)))

	// Our GEG chooses K = 3, the smallest of the grid, in every outer
	// fold of both IC50 studies; theirs chose 4 to 6.
	for _, name := range []string{"blio-ccle-ic50-nested-cv", "blio-ccle-ic50-nested-cv-integer"} {
		if k := ourChosenK(t, name)["GEG"]; !slices.Equal(k, []int{3, 3, 3, 3, 3}) {
			t.Errorf("%s: GEG chose K = %v, the page says 3 in every outer fold", name, k)
		}
	}
	if k := theirOuterFolds(t, "drug_sensitivity_ccle_ic", "chosen_K")["GEG"]; len(k) != 5 || slices.Min(k) != 4 || slices.Max(k) != 6 {
		t.Errorf("IC50: their GEG chose K = %v, the page says 4 to 6", k)
	}
	// On IC50 the two studies of ours hold the same entries, so the same
	// folds: every outer fold's test part has the same size in both.
	sizes := func(name string) map[string]int {
		st := loadCommittedStudy(t, name)
		out := make(map[string]int)
		for _, r := range st.Records {
			if r.Cell.Model == "ColumnMean" && r.Error == "" {
				out[r.Cell.Key()] = r.TestEntries
			}
		}
		return out
	}
	if a, b := sizes("blio-ccle-ic50-nested-cv"), sizes("blio-ccle-ic50-nested-cv-integer"); len(a) == 0 || !maps.Equal(a, b) {
		t.Errorf("IC50: the ColumnMean cells' test sizes differ between the real and the integer study")
	}
}

// TestBrouwerLioClaimCCLEVariance checks claim 6's fingerprint: the mean
// over their outer folds (19 models, 5 folds) of MSE / (1 - R^2), the
// variance of each fold's held-out values, is 12.065 on CCLE IC50 and
// 10.539 on EC50, within 0.1% of the variance of the values as their
// loader gives them (12.067; 10.542 with EC50's subnormal values as
// zeros) and 2% or more from the other readings of the data (the real
// values: 11.258 and 11.296; EC50 cast without the subnormal entries,
// 10.764; with them but not cast, 11.149). The variances need the data
// (skipped without BNMF_DATA_DIR); their numbers do not.
func TestBrouwerLioClaimCCLEVariance(t *testing.T) {
	implied := make(map[string]float64)
	for _, set := range blioCCLE {
		mse, r2 := theirOuterFolds(t, set.experiment, "MSE"), theirOuterFolds(t, set.experiment, "R^2")
		var v []float64
		for m := range mse {
			if len(r2[m]) != len(mse[m]) {
				t.Fatalf("%s %s: %d MSEs, %d R^2", set.experiment, m, len(mse[m]), len(r2[m]))
			}
			for i := range mse[m] {
				v = append(v, mse[m][i]/(1-r2[m][i]))
			}
		}
		s := newMeanSE(v)
		implied[set.experiment] = s.mean
		if want := map[string]float64{"drug_sensitivity_ccle_ic": 12.065, "drug_sensitivity_ccle_ec": 10.539}[set.experiment]; s.n != 95 || !near(s.mean, want, 3) {
			t.Errorf("%s: their fold variances average %.4f over %d folds, the page says %.3f over 95", set.experiment, s.mean, s.n, want)
		}
	}
	dir := os.Getenv("BNMF_DATA_DIR")
	if dir == "" {
		dir = filepath.Join("..", "data")
	}
	variance := func(file string, keep func(v float64) bool, cast bool) float64 {
		rows := readCCLE(t, filepath.Join(dir, "bmf-priors", "CCLE", file))
		var xs []float64
		for _, row := range rows {
			var kept []float64
			for _, v := range row {
				if math.IsNaN(v) || !keep(v) {
					continue
				}
				if v < 0x1p-1022 { // subnormal: a zero for upstream
					v = 0
				}
				if cast {
					v = math.Trunc(v)
				}
				kept = append(kept, v)
			}
			if len(kept) >= 3 || file == "ic50.txt" { // upstream's loaders drop CCLE EC50's rows with fewer than 3
				xs = append(xs, kept...)
			}
		}
		var s, ss float64
		for _, x := range xs {
			s += x
		}
		m := s / float64(len(xs))
		for _, x := range xs {
			ss += (x - m) * (x - m)
		}
		return ss / float64(len(xs))
	}
	// What the cast does to the values (page, claim 6): IC50 has 6,451
	// values of exactly 8, left alone, and 2,695 below 1, set to 0; it
	// lowers the values other than 8 by 0.35 on average; EC50's file
	// holds 7,626 values (subnormal ones included), 3,664 of them 0 once
	// cast.
	var eights, belowOne, others int
	var lowered float64
	for _, row := range readCCLE(t, filepath.Join(dir, "bmf-priors", "CCLE", "ic50.txt")) {
		for _, v := range row {
			switch {
			case math.IsNaN(v):
			case v == 8:
				eights++
			default:
				others++
				lowered += v - math.Trunc(v)
				if v < 1 {
					belowOne++
				}
			}
		}
	}
	if eights != 6451 || belowOne != 2695 || !near(lowered/float64(others), 0.35, 2) {
		t.Errorf("IC50: %d values of 8, %d below 1, the others lowered by %.4f; the page says 6,451, 2,695, 0.35", eights, belowOne, lowered/float64(others))
	}
	var ecValues, ecZeros int
	for _, row := range readCCLE(t, filepath.Join(dir, "bmf-priors", "CCLE", "ec50.txt")) {
		for _, v := range row {
			if !math.IsNaN(v) {
				ecValues++
				if math.Trunc(v) == 0 {
					ecZeros++
				}
			}
		}
	}
	if ecValues != 7626 || ecZeros != 3664 {
		t.Errorf("EC50: %d values, %d of them 0 once cast; the page says 7,626 and 3,664", ecValues, ecZeros)
	}
	all := func(float64) bool { return true }
	normal := func(v float64) bool { return v >= 0x1p-1022 }
	for _, c := range []struct {
		experiment, file string
		keep             func(float64) bool
		cast, theirs     bool
		want             float64
	}{
		{"drug_sensitivity_ccle_ic", "ic50.txt", all, true, true, 12.067},
		{"drug_sensitivity_ccle_ic", "ic50.txt", all, false, false, 11.258},
		{"drug_sensitivity_ccle_ec", "ec50.txt", all, true, true, 10.542},
		{"drug_sensitivity_ccle_ec", "ec50.txt", normal, false, false, 11.296},
		{"drug_sensitivity_ccle_ec", "ec50.txt", normal, true, false, 10.764},
		{"drug_sensitivity_ccle_ec", "ec50.txt", all, false, false, 11.149},
	} {
		v := variance(c.file, c.keep, c.cast)
		r := math.Abs(implied[c.experiment]/v - 1)
		if !near(v, c.want, 3) || (c.theirs && r >= 0.001) || (!c.theirs && r < 0.02) {
			t.Errorf("%s (cast %v): variance %.4f, %.2f%% from their %.4f; the page says %.3f", c.file, c.cast, v, 100*r, implied[c.experiment], c.want)
		}
	}
}

// readCCLE reads a CCLE matrix as upstream does (tab-separated, "nan"
// missing), skipping the test when the data are absent.
func readCCLE(t *testing.T, path string) [][]float64 {
	t.Helper()
	src, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		t.Skipf("%s: not there (set BNMF_DATA_DIR to a directory holding bmf-priors/CCLE)", path)
	}
	if err != nil {
		t.Fatal(err)
	}
	var rows [][]float64
	for n, line := range strings.Split(strings.TrimRight(string(src), "\n"), "\n") {
		var row []float64
		for _, f := range strings.Split(line, "\t") {
			v, err := strconv.ParseFloat(f, 64)
			if err != nil {
				t.Fatalf("%s:%d: %v", path, n+1, err)
			}
			row = append(row, v)
		}
		rows = append(rows, row)
	}
	return rows
}
