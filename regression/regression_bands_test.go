package regression

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/bnmf-lab/bnmf/bnmf"
	"github.com/bnmf-lab/bnmf/experiments"
)

// band is one scientific expectation on the mean held-out MSE of a model
// at a rank and fraction, over the repeats of the CI study.
//
// Low and High hold for splits that leave every row (user) with a
// training entry. A split that leaves a row without one lets that user's
// factors come from the prior alone, which for GEE's Exp(0.1) prior gives
// predictions in the hundreds (results/README.md, claim 1): where the full
// reproduction has such splits, HighEmptyRows, if set, is the upper limit
// for them instead, so that a few such repeats do not widen the band for
// all the others.
type band struct {
	Model         string  `json:"model"`
	Rank          int     `json:"rank"`
	Fraction      float64 `json:"fraction"`
	Low           float64 `json:"low"`
	High          float64 `json:"high"`
	HighEmptyRows float64 `json:"high_empty_rows,omitempty"`
	Why           string  `json:"why"`
}

// highFor is the band's upper limit for records whose splits leave
// emptyRows rows without a training entry.
func (bd band) highFor(emptyRows bool) float64 {
	if emptyRows && bd.HighEmptyRows > 0 {
		return bd.HighEmptyRows
	}
	return bd.High
}

// emptyTrainingRows is the number of rows without a training entry in the
// split of r: the record's empty_rows, or, in a record made before the
// field existed, read from the warning bnmf.Run attaches to such a run
// ("R of M rows and C of N columns have no training entries; ..."); 0
// when there is neither.
func emptyTrainingRows(r *experiments.Record) int {
	if r.EmptyRows > 0 {
		return r.EmptyRows
	}
	for _, w := range r.Warnings {
		var rows, m, cols, n int
		if k, _ := fmt.Sscanf(w, "%d of %d rows and %d of %d columns have no training entries", &rows, &m, &cols, &n); k == 4 {
			return rows
		}
	}
	return 0
}

// bands is the content of testdata/bands.json.
type bands struct {
	Comment string `json:"comment"`
	Bands   []band `json:"bands"`
	// Orders lists pairs [better, worse] of models whose mean held-out MSE
	// must be ordered so at every fraction of the study.
	Orders [][2]string `json:"orders"`
}

func checkScience(t *testing.T, study *experiments.Study) {
	t.Helper()
	bs := readBands(t)
	means := meanTestMSE(study)
	emptyRows := make(map[string]bool)
	for i := range study.Records {
		r := &study.Records[i]
		if emptyTrainingRows(r) > 0 {
			emptyRows[groupKey(r.Cell.Model, r.Cell.Rank, r.Cell.Fraction)] = true
		}
	}
	for _, bd := range bs.Bands {
		key := groupKey(bd.Model, bd.Rank, bd.Fraction)
		m, ok := means[key]
		if !ok {
			t.Errorf("band %s: the CI study has no such cells", key)
			continue
		}
		if high := bd.highFor(emptyRows[key]); m < bd.Low || m > high {
			t.Errorf("%s: mean held-out MSE %.4g outside [%.4g, %.4g] (%s)", key, m, bd.Low, high, bd.Why)
		}
	}
	for _, f := range study.Manifest.Fractions {
		for _, rank := range study.Manifest.Ranks {
			for _, o := range bs.Orders {
				better, worse := means[groupKey(o[0], rank, f)], means[groupKey(o[1], rank, f)]
				if !(better < worse) {
					t.Errorf("K=%d f=%g: %s mean held-out MSE %.4g should be below %s's %.4g", rank, f, o[0], better, o[1], worse)
				}
			}
		}
	}
}

func groupKey(model string, rank int, fraction float64) string {
	return fmt.Sprintf("%s K=%d f=%g", model, rank, fraction)
}

// meanTestMSE averages the held-out MSE over repeats per model, rank and
// fraction.
func meanTestMSE(study *experiments.Study) map[string]float64 {
	sum := make(map[string]float64)
	n := make(map[string]int)
	for _, r := range study.Records {
		k := groupKey(r.Cell.Model, r.Cell.Rank, r.Cell.Fraction)
		sum[k] += r.Metrics.TestMSE
		n[k]++
	}
	for k := range sum {
		sum[k] /= float64(n[k])
	}
	return sum
}

// readBands reads testdata/bands.json, refusing unknown fields so that a
// misspelt key cannot silently disable a check.
func readBands(t *testing.T) bands {
	t.Helper()
	b, err := os.ReadFile("testdata/bands.json")
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.DisallowUnknownFields()
	var bs bands
	if err := dec.Decode(&bs); err != nil {
		t.Fatalf("testdata/bands.json: %v", err)
	}
	return bs
}

// TestBandsFile checks that the bands file is well formed, so that a
// typo cannot silently disable a check.
func TestBandsFile(t *testing.T) {
	bs := readBands(t)
	if len(bs.Bands) == 0 || len(bs.Orders) == 0 {
		t.Fatalf("testdata/bands.json has %d bands and %d orders; want some of each", len(bs.Bands), len(bs.Orders))
	}
	for _, bd := range bs.Bands {
		if !(bd.Low < bd.High) || bd.Why == "" || bd.Rank <= 0 || bd.HighEmptyRows != 0 && !(bd.HighEmptyRows > bd.High) {
			t.Errorf("malformed band %+v", bd)
		}
	}
}

// TestBandsCoverFullReproduction checks that every band holds each repeat
// of the committed full reproduction it is derived from, so that the bands
// and results/ml100k-sparsity cannot drift apart: widening or narrowing a
// band, or committing new results, is checked against the evidence. A
// band's HighEmptyRows must be needed: some repeat whose split leaves a
// row without training entries must exceed High.
func TestBandsCoverFullReproduction(t *testing.T) {
	bs := readBands(t)
	study := committedStudy(t, "ml100k-sparsity")
	byKey := make(map[string]band, len(bs.Bands))
	for _, bd := range bs.Bands {
		byKey[groupKey(bd.Model, bd.Rank, bd.Fraction)] = bd
	}
	checked := make(map[string]int)
	aboveHigh := make(map[string]bool)
	for i := range study.Records {
		r := &study.Records[i]
		key := groupKey(r.Cell.Model, r.Cell.Rank, r.Cell.Fraction)
		bd, ok := byKey[key]
		if !ok {
			continue
		}
		checked[key]++
		empty := emptyTrainingRows(r) > 0
		x := r.Metrics.TestMSE
		if high := bd.highFor(empty); x < bd.Low || x > high {
			t.Errorf("%s: repeat %d of the full reproduction (rows without training entries: %t) has held-out MSE %.4g outside the band [%.4g, %.4g]",
				key, r.Cell.Repeat, empty, x, bd.Low, high)
		}
		if empty && x > bd.High {
			aboveHigh[key] = true
		}
	}
	for key, bd := range byKey {
		if checked[key] != study.Manifest.Repeats {
			t.Errorf("%s: the full reproduction has %d repeats, want %d", key, checked[key], study.Manifest.Repeats)
		}
		if bd.HighEmptyRows > 0 && !aboveHigh[key] {
			t.Errorf("%s: high_empty_rows %.4g is set but no repeat with rows lacking training entries exceeds high %.4g; drop it", key, bd.HighEmptyRows, bd.High)
		}
	}
}

func TestEmptyTrainingRows(t *testing.T) {
	tests := []struct {
		field    int
		warnings []string
		want     int
	}{
		{0, nil, 0},
		{0, []string{"1 of 943 rows and 0 of 1473 columns have no training entries; their factors are sampled from the prior"}, 1},
		{0, []string{"noise: 3 of 10 noisy training values were negative", "12 of 943 rows and 2 of 1473 columns have no training entries; x"}, 12},
		{0, []string{"rows have no training entries"}, 0},
		{3, []string{"3 of 943 rows and 0 of 1473 columns have no training entries; x"}, 3},
		{5, nil, 5}, // the field is read first
	}
	for _, tc := range tests {
		r := &experiments.Record{EmptyRows: tc.field, Warnings: tc.warnings}
		if got := emptyTrainingRows(r); got != tc.want {
			t.Errorf("emptyTrainingRows(%q) = %d, want %d", tc.warnings, got, tc.want)
		}
	}

	// The warning bnmf.Run writes itself: rows 1 and 3 of 4 have no
	// training entry.
	train, err := bnmf.NewMatrix(4, 2, []bnmf.Entry{{Row: 0, Col: 0, Value: 1}, {Row: 2, Col: 1, Value: 2}})
	if err != nil {
		t.Fatal(err)
	}
	res, err := bnmf.Run(context.Background(), bnmf.GEE{}, train, bnmf.Settings{Rank: 1, Sweeps: 2, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if got := emptyTrainingRows(&experiments.Record{Warnings: res.Warnings}); got != 2 {
		t.Errorf("emptyTrainingRows of bnmf.Run's warnings %q = %d, want 2", res.Warnings, got)
	}
}
