package regression

import (
	"compress/gzip"
	"encoding/csv"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/bnmf-lab/bnmf/experiments"
)

// Helpers of the claims' tests: rows of Brouwer & Lio's published table,
// their and our outer folds of a nested cross-validation, and the
// comparisons the pages state.

// publishedRows returns the rows of the published table that keep
// accepts, each as a map from column name to field.
func publishedRows(t *testing.T, keep func(row map[string]string) bool) []map[string]string {
	t.Helper()
	f, err := os.Open(publishedTable)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatalf("%s: %v", publishedTable, err)
	}
	r := csv.NewReader(zr)
	r.FieldsPerRecord = len(publishedColumns)
	if _, err := r.Read(); err != nil { // the header, which TestBrouwerLioPublishedRows checks
		t.Fatalf("%s: %v", publishedTable, err)
	}
	var out []map[string]string
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatalf("%s: %v", publishedTable, err)
		}
		row := make(map[string]string, len(rec))
		for i, c := range publishedColumns {
			row[c] = rec[i]
		}
		if keep(row) {
			out = append(out, row)
		}
	}
}

// parseValue parses a published number, failing the test on a bad one.
func parseValue(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("%s: %v", publishedTable, err)
	}
	return v
}

// theirOuterFolds returns, per model, their metric on each outer fold of
// their cross-validation `experiment` (the chosen K's score for a model
// with a grid of K, the fold's score for a baseline), in fold order.
func theirOuterFolds(t *testing.T, experiment, metric string) map[string][]float64 {
	t.Helper()
	out := make(map[string][]float64)
	for _, r := range publishedRows(t, func(r map[string]string) bool {
		return r["study"] == "cross_validation" && r["experiment"] == experiment && r["metric"] == metric &&
			r["setting"] == "" && r["outer_fold"] != "" && r["replicate"] == ""
	}) {
		out[r["model"]] = append(out[r["model"]], parseValue(t, r["value"]))
	}
	if len(out) == 0 {
		t.Fatalf("%s: no %s rows of cross_validation/%s", publishedTable, metric, experiment)
	}
	return out
}

// ourOuterFolds returns, per model of the nested cross-validations
// studies, the held-out MSE on each outer fold of the K the inner folds
// chose, failing unless every outer fold has one.
func ourOuterFolds(t *testing.T, studies ...string) map[string][]float64 {
	t.Helper()
	out := make(map[string][]float64)
	for _, name := range studies {
		st, err := experiments.LoadStudy(filepath.Join("..", "results", name))
		if err != nil {
			t.Fatal(err)
		}
		if len(st.Problems) > 0 {
			t.Fatalf("results/%s: %v", name, st.Problems)
		}
		for _, c := range experiments.NestedChoices(st.Manifest, st.Records) {
			if math.IsNaN(c.TestMSE) {
				t.Fatalf("results/%s: %s has no score on outer fold %d", name, c.Model, c.Outer)
			}
			out[c.Model] = append(out[c.Model], c.TestMSE)
		}
	}
	return out
}

// summary returns the mean and standard error of each model's values.
func summary(vals map[string][]float64) map[string]meanSE {
	out := make(map[string]meanSE, len(vals))
	for m, xs := range vals {
		out[m] = newMeanSE(xs)
	}
	return out
}

// near reports whether got is want as the page prints it, with digits
// after the point: within half a unit of the last digit (and a hair more,
// for a value that prints as a tie).
func near(got, want float64, digits int) bool {
	return math.Abs(got-want) <= 0.5*math.Pow(10, -float64(digits))*(1+1e-9)+1e-12
}

// blioCCLE are the CCLE nested cross-validations: their experiment, our
// study on the real values, our study on the values as their loader gives
// them, and our study of GGGW on the real values where it is not in the
// first.
var blioCCLE = []struct{ experiment, real, integer, gggw string }{
	{"drug_sensitivity_ccle_ic", "blio-ccle-ic50-nested-cv", "blio-ccle-ic50-nested-cv-integer", "blio-ccle-ic50-nested-cv-gggw"},
	{"drug_sensitivity_ccle_ec", "blio-ccle-ec50-nested-cv", "blio-ccle-ec50-nested-cv-integer", ""},
}

// blioCCLEModels are the models and baselines of claim 6's table: those
// our CCLE studies on both readings of the values hold (GGGW on IC50 only
// on the real values, in a study of its own), in the table's order.
var blioCCLEModels = []string{"GEE", "GTT", "GTTN", "GEEA", "GGGU", "GLL", "GLLI", "GEG", "GGG", "GGGA", "GGGW", "GL21", "RowMean", "ColumnMean"}

// zDiff is the difference a - b in standard errors of the difference.
func zDiff(a, b meanSE) float64 { return (a.mean - b.mean) / math.Hypot(a.se, b.se) }
