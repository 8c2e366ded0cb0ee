package regression

import (
	"compress/gzip"
	"encoding/csv"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The tests in this file keep results/brouwer-lio/published.csv.gz, the
// table of Brouwer & Lio's published numbers, tied to the upstream result
// files it was parsed from (see results/brouwer-lio/README.md).

const publishedTable = "../results/brouwer-lio/published.csv.gz"

// upstreamCommit is the commit of github.com/ThomasBrouwer/BMF_Priors that
// ../shared/reference/bmf-priors copies.
const upstreamCommit = "15b20537eefd36347ed84617882eeea1c453e162"

var publishedColumns = []string{"study", "experiment", "dataset", "model", "upstream_model", "K",
	"setting", "setting_value", "outer_fold", "replicate", "metric", "value", "source", "commit"}

// publishedRow is one row of the table, by column name.
type publishedRow map[string]string

// openPublished opens the committed table and reads its header. The
// reader expects len(publishedColumns) fields a record and reuses its
// record slice; the file is closed when the test ends.
func openPublished(t *testing.T) (r *csv.Reader, header []string) {
	t.Helper()
	f, err := os.Open(publishedTable)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatalf("%s: %v", publishedTable, err)
	}
	r = csv.NewReader(zr)
	r.FieldsPerRecord = len(publishedColumns)
	r.ReuseRecord = true
	header, err = r.Read()
	if err != nil {
		t.Fatalf("%s: %v", publishedTable, err)
	}
	return r, slices.Clone(header)
}

// readPublished reads the committed table and checks its header.
func readPublished(t *testing.T) []publishedRow {
	t.Helper()
	r, header := openPublished(t)
	if strings.Join(header, ",") != strings.Join(publishedColumns, ",") {
		t.Fatalf("%s: header %q, want %q", publishedTable, header, publishedColumns)
	}
	var rows []publishedRow
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("%s: %v", publishedTable, err)
		}
		row := make(publishedRow, len(rec))
		for i, c := range publishedColumns {
			row[c] = rec[i]
		}
		rows = append(rows, row)
	}
	return rows
}

// referenceDir returns upstream's snapshot, $BNMF_REFERENCE_DIR or
// reference/bmf-priors beside $BNMF_DATA_DIR or beside the checkout (../shared), and
// skips the test when none is there.
func referenceDir(t *testing.T) string {
	t.Helper()
	candidates := []string{os.Getenv("BNMF_REFERENCE_DIR")}
	if d := os.Getenv("BNMF_DATA_DIR"); d != "" {
		candidates = append(candidates, filepath.Join(d, "..", "reference", "bmf-priors"))
	}
	candidates = append(candidates, filepath.Join("..", "..", "shared", "reference", "bmf-priors"))
	for _, d := range candidates {
		if d == "" {
			continue
		}
		if _, err := os.Stat(filepath.Join(d, "experiments")); err == nil {
			return d
		}
	}
	t.Skip("upstream's reference snapshot not found: set BNMF_REFERENCE_DIR to the directory holding Brouwer & Lio's experiments/")
	return ""
}

// TestBrouwerLioPublishedRows checks the table's shape and a few rows read
// by hand from the upstream files.
func TestBrouwerLioPublishedRows(t *testing.T) {
	rows := readPublished(t)
	// The count the script printed when the table was made: a table cut
	// short or grown fails here.
	if len(rows) != 141478 {
		t.Errorf("%d rows, want 141478", len(rows))
	}
	// Read by hand from the files named in source.
	tests := []struct {
		key   string // study/experiment/model/setting=value/outer_fold/replicate/metric
		value float64
	}{
		// cross_validation/drug_sensitivity_gdsc/results/gaussian_exponential/results.txt
		{"cross_validation/drug_sensitivity_gdsc/GEE/=/1//MSE", 711.59541800871},
		{"cross_validation/drug_sensitivity_gdsc/GEE/=//mean/MSE", 718.03913213375131},
		// .../gaussian_exponential/fold_1.txt: the inner loop's K = 6, inner fold 1, and its choice.
		{"cross_validation/drug_sensitivity_gdsc/GEE/K=6/1/1/MSE", 748.19055567912631},
		{"cross_validation/drug_sensitivity_gdsc/GEE/=/1//chosen_K", 9},
		// .../baseline_average_row/results.txt
		{"cross_validation/drug_sensitivity_gdsc/RowMean/=/3//MSE", 1864.8597166844031},
		// sparsity/drug_sensitivity_gdsc/results/performances_baseline_average_column.txt: first R^2.
		{"sparsity/drug_sensitivity_gdsc/ColumnMean/fraction_unknown=0.3//1/R^2", 0.5331221449311894},
		// noise/drug_sensitivity_gdsc/results/performances_baseline_average_column.txt: first R^2.
		{"noise/drug_sensitivity_gdsc/ColumnMean/noise_to_signal=0.0//1/R^2", 0.5275755013208041},
		// model_selection/drug_sensitivity_gdsc/results/performances_baseline_mf_nonprobabilistic.txt
		{"model_selection/drug_sensitivity_gdsc/NMF/K=1//1/R^2", 0.537612025513317},
		// runtime/drug_sensitivity_gdsc/results/times_baseline_mf_nonprobabilistic.txt: K = 50.
		{"runtime/drug_sensitivity_gdsc/NMF/K=50//mean/time_per_iteration", 0.16120580911636354},
		// convergence/drug_sensitivity_gdsc/results/performances_baseline_average_column.txt
		{"convergence/drug_sensitivity_gdsc/ColumnMean/iteration=200//mean/train_MSE", 913.46413361815803},
	}
	index := make(map[string][]publishedRow)
	for _, r := range rows {
		k := strings.Join([]string{r["study"], r["experiment"], r["model"], r["setting"] + "=" + r["setting_value"], r["outer_fold"], r["replicate"], r["metric"]}, "/")
		index[k] = append(index[k], r)
	}
	for _, tt := range tests {
		got := index[tt.key]
		if len(got) != 1 {
			t.Errorf("%s: %d rows, want 1", tt.key, len(got))
			continue
		}
		v, err := strconv.ParseFloat(got[0]["value"], 64)
		if err != nil || v != tt.value {
			t.Errorf("%s = %s, want %v", tt.key, got[0]["value"], tt.value)
		}
		if got[0]["commit"] != upstreamCommit {
			t.Errorf("%s: commit %s, want %s", tt.key, got[0]["commit"], upstreamCommit)
		}
	}
}

// upstreamNumber matches a number in an upstream result file, once quoted
// keys ('R^2') and the "fold N" of a label are removed.
var (
	upstreamNumber = regexp.MustCompile(`-?\d+(?:\.\d*)?(?:[eE][-+]?\d+)?|\bnan\b|\binf\b`)
	upstreamLabels = regexp.MustCompile(`'[^']*'|fold \d+`)
)

// numberKey identifies a float64 for counting, all NaNs alike.
func numberKey(t *testing.T, s string) uint64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("%q: %v", s, err)
	}
	if math.IsNaN(v) {
		return 0x7ff8000000000001
	}
	return math.Float64bits(v)
}

// TestBrouwerLioPublishedSources rereads every upstream result file that
// the table cites: each number of the table must be in its file (as many
// times at least), and each number of a file must be in the table, except
// in the nested cross-validation's fold_N.txt files, which also print
// hyperparameters, the values of K and the best scores again.
func TestBrouwerLioPublishedSources(t *testing.T) {
	ref := referenceDir(t)
	bySource := make(map[string]map[uint64]int)
	for _, r := range readPublished(t) {
		m := bySource[r["source"]]
		if m == nil {
			m = make(map[uint64]int)
			bySource[r["source"]] = m
		}
		m[numberKey(t, r["value"])]++
	}
	files, err := filepath.Glob(filepath.Join(ref, "experiments", "*", "*", "results", "*"))
	if err != nil {
		t.Fatal(err)
	}
	nested, err := filepath.Glob(filepath.Join(ref, "experiments", "*", "*", "results", "*", "*"))
	if err != nil {
		t.Fatal(err)
	}
	var all []string
	for _, f := range append(files, nested...) {
		if info, err := os.Stat(f); err == nil && !info.IsDir() {
			all = append(all, f)
		}
	}
	// The table cites every file but the sixteen fold_N.txt files that
	// hold only exceptions (results/brouwer-lio/README.md).
	if len(all) != 1213 || len(bySource) != 1213-16 {
		t.Errorf("%d upstream result files, %d cited by the table; want 1213 and 1197", len(all), len(bySource))
	}
	for _, f := range all {
		rel, err := filepath.Rel(ref, f)
		if err != nil {
			t.Fatal(err)
		}
		rel = filepath.ToSlash(rel)
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		inFile := make(map[uint64]int)
		for _, s := range upstreamNumber.FindAllString(upstreamLabels.ReplaceAllString(string(data), ""), -1) {
			inFile[numberKey(t, s)]++
		}
		inTable := bySource[rel]
		for k, n := range inTable {
			if inFile[k] < n {
				t.Errorf("%s: the table has %v %d times, the file %d", rel, math.Float64frombits(k), n, inFile[k])
			}
		}
		if strings.HasPrefix(filepath.Base(f), "fold_") {
			continue
		}
		for k := range inFile {
			if inTable[k] == 0 {
				t.Errorf("%s: %v is not in the table", rel, math.Float64frombits(k))
			}
		}
	}
}
