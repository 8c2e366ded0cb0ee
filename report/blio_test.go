package report

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bnmf-lab/bnmf/experiments"
)

// publishedFixture is a small published table: GEE and GTT in a model
// selection on gdsc-ic50 over 3 folds at K 1 and 2, GEE on movielens-100k
// (another dataset), GEE in a runtime study, and a nested
// cross-validation of GEE over K 1, 2 and of GTT over K 1, 2, 3 with 2
// outer folds, and RowMean.
const publishedFixture = `study,experiment,dataset,model,upstream_model,K,setting,setting_value,outer_fold,replicate,metric,value,source,commit
model_selection,drug_sensitivity_gdsc,gdsc-ic50,GEE,gaussian_exponential,,K,1,,1,MSE,10,s,c
model_selection,drug_sensitivity_gdsc,gdsc-ic50,GEE,gaussian_exponential,,K,1,,2,MSE,12,s,c
model_selection,drug_sensitivity_gdsc,gdsc-ic50,GEE,gaussian_exponential,,K,1,,3,MSE,14,s,c
model_selection,drug_sensitivity_gdsc,gdsc-ic50,GEE,gaussian_exponential,,K,2,,1,MSE,7,s,c
model_selection,drug_sensitivity_gdsc,gdsc-ic50,GEE,gaussian_exponential,,K,2,,2,MSE,8,s,c
model_selection,drug_sensitivity_gdsc,gdsc-ic50,GEE,gaussian_exponential,,K,2,,3,MSE,9,s,c
model_selection,drug_sensitivity_gdsc,gdsc-ic50,GTT,gaussian_truncatednormal,,K,1,,1,MSE,99,s,c
model_selection,drug_sensitivity_gdsc,gdsc-ic50,GTT,gaussian_truncatednormal,,K,1,,2,MSE,99,s,c
model_selection,drug_sensitivity_gdsc,gdsc-ic50,GTT,gaussian_truncatednormal,,K,1,,3,MSE,99,s,c
model_selection,movielens_100K,movielens-100k,GEE,gaussian_exponential,,K,1,,1,MSE,555,s,c
runtime,drug_sensitivity_gdsc,gdsc-ic50,GEE,gaussian_exponential,,K,1,,mean,time_per_iteration,0.5,s,c
runtime,drug_sensitivity_gdsc,gdsc-ic50,GEE,gaussian_exponential,,K,5,,mean,time_per_iteration,3,s,c
cross_validation,drug_sensitivity_gdsc,gdsc-ic50,GEE,gaussian_exponential,,K,1,1,1,MSE,20,s,c
cross_validation,drug_sensitivity_gdsc,gdsc-ic50,GEE,gaussian_exponential,,K,2,1,1,MSE,21,s,c
cross_validation,drug_sensitivity_gdsc,gdsc-ic50,GEE,gaussian_exponential,,,,1,,chosen_K,2,s,c
cross_validation,drug_sensitivity_gdsc,gdsc-ic50,GEE,gaussian_exponential,,,,2,,chosen_K,1,s,c
cross_validation,drug_sensitivity_gdsc,gdsc-ic50,GEE,gaussian_exponential,,,,1,,MSE,30,s,c
cross_validation,drug_sensitivity_gdsc,gdsc-ic50,GEE,gaussian_exponential,,,,2,,MSE,34,s,c
cross_validation,drug_sensitivity_gdsc,gdsc-ic50,GTT,gaussian_truncatednormal,,K,3,1,1,MSE,50,s,c
cross_validation,drug_sensitivity_gdsc,gdsc-ic50,GTT,gaussian_truncatednormal,,,,1,,MSE,77,s,c
cross_validation,drug_sensitivity_gdsc,gdsc-ic50,GTT,gaussian_truncatednormal,,,,2,,MSE,77,s,c
cross_validation,drug_sensitivity_gdsc,gdsc-ic50,RowMean,baseline_average_row,,,,1,,MSE,60,s,c
cross_validation,drug_sensitivity_gdsc,gdsc-ic50,RowMean,baseline_average_row,,,,2,,MSE,62,s,c
sparsity,drug_sensitivity_gdsc,gdsc-ic50,GEE,gaussian_exponential,8,fraction_unknown,0.3,,1,MSE,40,s,c
sparsity,drug_sensitivity_gdsc,gdsc-ic50,GEE,gaussian_exponential,8,fraction_unknown,0.3,,2,MSE,42,s,c
sparsity,sameK_drug_sensitivity_gdsc,gdsc-ic50,GEE,gaussian_exponential,5,fraction_unknown,0.3,,1,MSE,45,s,c
sparsity,drug_sensitivity_gdsc,gdsc-ic50,GTT,gaussian_truncatednormal,8,fraction_unknown,0.3,,1,MSE,99,s,c
noise,drug_sensitivity_gdsc,gdsc-ic50,GEE,gaussian_exponential,8,noise_to_signal,0.5,,1,MSE,70,s,c
noise,drug_sensitivity_gdsc,gdsc-ic50,GEE,gaussian_exponential,8,noise_to_signal,0.5,,2,MSE,74,s,c
convergence,drug_sensitivity_gdsc,gdsc-ic50,GEE,gaussian_exponential,8,iteration,9,,mean,train_MSE,33,s,c
convergence,drug_sensitivity_gdsc,gdsc-ic50,GEE,gaussian_exponential,8,iteration,10,,mean,train_MSE,31,s,c
`

// blioStudy builds a study of kind on gdsc-ic50 under root/study, with
// models GEE (upstream's hyperparameters), GTT (another tau) and GRRN,
// ranks 1 and 2 and the given repeats; every record's held-out MSE is
// 100 + 10 rank + repeat + 3 fold, its train MSE half that and its
// seconds per sweep 0.1 rank; a runtime record's load averages are
// 1.5 + repeat and 2, with one sampler worker.
func blioStudy(t *testing.T, root, kind string, repeats int) *experiments.Study {
	t.Helper()
	return blioStudyWith(t, root, kind, repeats, "ranks: [1, 2]\n")
}

// blioStudyWith is blioStudy with the given ranks and grid (YAML lines).
func blioStudyWith(t *testing.T, root, kind string, repeats int, grid string) *experiments.Study {
	t.Helper()
	src := "kind: " + kind + `
dataset: {name: gdsc-ic50}
models:
  - {name: GEE, lambda: 0.1, alpha_sigma: 1, beta_sigma: 1}
  - {name: GTT, mu: 0, tau: 1, alpha_sigma: 1, beta_sigma: 1}
  - {name: GRRN}
  - {name: RowMean}
repeats: ` + string(rune('0'+repeats)) + "\n" + grid
	cfg, err := experiments.ParseConfig("c.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	m := experiments.Manifest{Study: "s", Kind: kind, Dataset: "gdsc-ic50", Models: []string{"GEE", "GTT", "GRRN", "RowMean"},
		Ranks: cfg.Ranks, Fractions: cfg.Fractions, NoiseRatios: cfg.NoiseRatios, Repeats: repeats, Sweeps: cfg.Sweeps, Cells: cfg.Cells()}
	st := &experiments.Study{Dir: filepath.Join(root, "study"), Manifest: m, Config: cfg}
	for _, c := range m.Cells {
		mse := 100 + 10*float64(c.Rank) + float64(c.Repeat) + 3*float64(c.Fold)
		st.Records = append(st.Records, experiments.Record{Version: experiments.RecordVersion, Kind: kind, Cell: c,
			// E[W]E[Z]'s MSE falls with K where E[WZ]'s rises.
			Metrics: experiments.Metrics{TrainMSE: mse / 2, TestMSE: mse, TestMSEOfMeans: mse + 40 - 30*float64(c.Rank), SecondsPerSweep: 0.1 * float64(c.Rank)}})
		if kind == experiments.KindRuntime {
			r := &st.Records[len(st.Records)-1]
			r.LoadAverage, r.SamplerWorkers = []float64{1.5 + float64(c.Repeat), 2}, 1
		}
	}
	return st
}

// writePublished writes publishedFixture where the report looks for it.
func writePublished(t *testing.T, root string) {
	t.Helper()
	writePublishedTable(t, root, publishedFixture)
}

// writePublishedTable writes table, a published table as CSV, where the
// report looks for it.
func writePublishedTable(t *testing.T, root, table string) {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	if _, err := zw.Write([]byte(table)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, "brouwer-lio")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "published.csv.gz"), b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// kindTables renders the tables of st's kind report.
func kindTables(t *testing.T, st *experiments.Study) string {
	t.Helper()
	s := Summarise([]*experiments.Study{st}).Studies[0]
	var out strings.Builder
	err := reportOf(s).tables(s, Paper(), func(file, heading, caption string, render func(*bytes.Buffer) error) error {
		var b bytes.Buffer
		if err := render(&b); err != nil {
			return err
		}
		out.WriteString(caption + "\n" + b.String())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	out.WriteString("findings: " + reportOf(s).findings(s, Paper()) + "\n")
	return out.String()
}

// TestBrouwerLioColumns checks that "(Brouwer & Lio)" columns stand
// where their table has the same study, dataset, model (with the same
// hyperparameters), rank and protocol, and nowhere else.
func TestBrouwerLioColumns(t *testing.T) {
	tests := []struct {
		name, kind string
		repeats    int
		grid       string // ranks and the kind's grid, YAML; default ranks 1, 2
		published  bool
		want, not  []string
	}{
		{"model selection", experiments.KindModelSelection, 3, "", true,
			// Ours at K 1: 111.00 ± 0.58 (110, 111, 112), the lowest; at K 2
			// 121. Their GEE at K 1: 12 ± 1.2 (10, 12, 14); at K 2: 8 ± 0.58,
			// the lowest.
			[]string{"| K = 1     | **111.00 ± 0.58** |", "| GEE (Brouwer & Lio) |", " 12.0 ± 1.2 |", " **8.00 ± 0.58** |", "Brouwer & Lio's lowest at K = 2"},
			// GTT runs with another tau, GRRN is not theirs, 555 is
			// MovieLens; the baseline RowMean has no lowest K.
			[]string{"GTT (Brouwer & Lio)", "GRRN (Brouwer & Lio)", "555", "99", "| **111.00 ± 0.58** |\n", "RowMean at K", "| **121"}},
		{"model selection with other folds", experiments.KindModelSelection, 4, "", true,
			[]string{"No \"(Brouwer & Lio)\" columns"}, []string{"GEE (Brouwer & Lio)"}},
		{"runtime", experiments.KindRuntime, 2, "", true,
			// Ours 0.1 s at K 1 over their 0.5: ratio 0.2; they did not time K 2.
			[]string{"seconds per iteration (Brouwer & Lio)", " 0.500 |", "| 1.5–2.5 |               1 |", " 0.20 |", "0.20 to 0.20 times"},
			[]string{"| 3 "}},
		{"nested cross-validation", experiments.KindNestedCV, 2, "", true,
			// Ours: the inner means are lowest at K 1 (MSE rises with K),
			// scored 110 and 111 on the outer folds. Theirs: GEE's grid is
			// ours (1, 2): chosen 2, 1 and 32 ± 2.0; GTT's grid (3) differs
			// and its hyperparameters too; RowMean has no K.
			[]string{"| GEE     |     1, 1 | 110.50 ± 0.50 |", "| RowMean | — (no K) |", "chosen K (Brouwer & Lio)", " 2, 1 |", "32.0 ± 2.0", "61.0 ± 1.0", "(Brouwer & Lio: 32.0 ± 2.0)"},
			[]string{"77"}},
		{"sparsity", experiments.KindSparsity, 2, "ranks: [5, 8]\nfractions: [0.3, 0.5]\n", true,
			// GEE at K 8 and 0.3: ours 100 + 80 + repeat 0, 1 = 180.50 ±
			// 0.50, theirs 41.0 ± 1.0; none at 0.5. Their K 5 row is of
			// another experiment (same K): it stands beside our K 5.
			[]string{"| GEE, K = 8 (Brouwer & Lio) |", "| 0.3 ", " 180.50 ± 0.50 |", " 41.0 ± 1.0 |", " 45.0 |"},
			[]string{"GTT, K = 8", "99"}},
		{"sparsity at other ranks", experiments.KindSparsity, 2, "ranks: [3]\nfractions: [0.3]\n", true,
			nil, []string{"Brouwer & Lio"}},
		{"noise", experiments.KindNoise, 2, "ranks: [8]\nnoise_ratios: [0.5, 1]\n", true,
			[]string{"| noise-to-signal ratio |", " 72.0 ± 2.0 |"}, []string{"GTT, K = 8"}},
		{"convergence at their iteration", experiments.KindConvergence, 2, "ranks: [8]\nsweeps: 10\nburn_in: 5\n", true,
			// Ours: train MSE 90 and 90.5; theirs after 10 iterations 31.
			[]string{"| GEE   | 8 | 90.25 ± 0.25 |", " 31.0 |"}, []string{" 33.0 "}},
		{"convergence at another length", experiments.KindConvergence, 2, "ranks: [8]\nsweeps: 12\nburn_in: 5\n", true,
			nil, []string{"Brouwer & Lio"}},
		{"no table", experiments.KindModelSelection, 3, "", false,
			[]string{"No \"(Brouwer & Lio)\" columns"}, []string{"(Brouwer & Lio) |", "Brouwer & Lio's lowest"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			if tt.published {
				writePublished(t, root)
			}
			grid := tt.grid
			if grid == "" {
				grid = "ranks: [1, 2]\n"
			}
			got := kindTables(t, blioStudyWith(t, root, tt.kind, tt.repeats, grid))
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("missing %q in\n%s", w, got)
				}
			}
			for _, n := range tt.not {
				if strings.Contains(got, n) {
					t.Errorf("unexpected %q in\n%s", n, got)
				}
			}
		})
	}
}

// TestNestedCVOfMeans checks the second nested cross-validation table
// beside their numbers: scored by E[W]E[Z] (TestMSEOfMeans), whose MSE
// in the fixture falls with K where E[WZ]'s rises, the inner folds choose
// K = 2 in both outer folds and the outer folds score 100 and 101.
func TestNestedCVOfMeans(t *testing.T) {
	root := t.TempDir()
	writePublished(t, root)
	got := kindTables(t, blioStudyWith(t, root, experiments.KindNestedCV, 2, "ranks: [1, 2]\n"))
	i := strings.Index(got, "As the table above, with every inner and outer cell scored by the held-out MSE of E[W]E[Z]")
	if i < 0 {
		t.Fatalf("no table scored by E[W]E[Z] in\n%s", got)
	}
	for _, w := range []string{"| GEE     |     2, 2 | 100.50 ± 0.50 |", " 2, 1 |", "32.0 ± 2.0"} {
		if !strings.Contains(got[i:], w) {
			t.Errorf("missing %q in the table scored by E[W]E[Z]:\n%s", w, got[i:])
		}
	}
	// Without their numbers there is no second table.
	if got := kindTables(t, blioStudyWith(t, t.TempDir(), experiments.KindNestedCV, 2, "ranks: [1, 2]\n")); strings.Contains(got, "E[W]E[Z]") {
		t.Errorf("a table scored by E[W]E[Z] without their numbers:\n%s", got)
	}
}
