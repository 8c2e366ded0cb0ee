package report

import (
	"bytes"
	"encoding/csv"
	"slices"
	"testing"

	"github.com/bnmf-lab/bnmf/bnmf"
	"github.com/bnmf-lab/bnmf/experiments"
)

// TestWriteCSVDiagnosticsAndScores checks the diagnostics and predictive
// columns of cells.csv: the worst R-hat and smallest ESS over a record's
// quantities, the stuck flag, the 90% coverage and width, the log
// density and the CRPS; empty for a record without them.
func TestWriteCSVDiagnosticsAndScores(t *testing.T) {
	fx := fixture{kind: experiments.KindSparsity, models: []string{"GEE", "GRRN"}, ranks: []int{20},
		fractions: []float64{0.97}, repeats: 2, sweeps: 4, burnIn: 2}
	st := fx.study(t, "s", "tiny")
	f := func(x float64) *float64 { return &x }
	var withDiag, stuck *experiments.Record
	for i := range st.Records {
		r := &st.Records[i]
		if r.Cell.Model != "GRRN" {
			continue
		}
		r.Diagnostics = &bnmf.Diagnostics{Chains: 4, Kept: 100,
			TrainMSE:      bnmf.Convergence{RHat: f(1.02), ESSBulk: f(300), ESSTail: f(250)},
			Sigma2:        bnmf.Convergence{RHat: f(1.2), ESSBulk: f(40), ESSTail: f(90)},
			LogLikelihood: bnmf.Convergence{RHat: f(1.05)}, // ESS undefined
			Predictions:   &bnmf.Convergence{RHat: f(1.5), ESSBulk: f(12), ESSTail: f(8)},
		}
		r.Predictive = &experiments.Predictive{Levels: []float64{0.5, 0.8, 0.9, 0.95}, Width: []float64{1, 2, 3.25, 4},
			Test: experiments.ScoreSet{Coverage: []float64{0.5, 0.8, 0.875, 0.95}, LogDensity: -1.25, CRPS: 0.5}}
		if withDiag == nil {
			withDiag = r
		} else {
			r.Warnings = append(r.Warnings, "convergence: stuck chain: mean sigma^2 is 3 times the training values' variance 1; the chain did not leave its start")
			stuck = r
		}
	}
	if stuck == nil {
		t.Fatal("the fixture has fewer than two GRRN records")
	}
	var b bytes.Buffer
	if err := WriteCSV(&b, st); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	cols := []string{"worst_rhat", "min_ess_bulk", "min_ess_tail", "stuck", "coverage_90", "width_90", "log_density", "crps"}
	at := make([]int, len(cols))
	for i, c := range cols {
		if at[i] = slices.Index(rows[0], c); at[i] < 0 {
			t.Fatalf("no column %s in %v", c, rows[0])
		}
	}
	seen := 0
	for _, row := range rows[1:] {
		got := make([]string, len(cols))
		for i, j := range at {
			got[i] = row[j]
		}
		var want []string
		switch {
		case row[4] == "GEE":
			want = make([]string, len(cols))
		case row[8] == "0":
			want = []string{"1.5", "12", "8", "false", "0.875", "3.25", "-1.25", "0.5"}
		default:
			want = []string{"1.5", "12", "8", "true", "0.875", "3.25", "-1.25", "0.5"}
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s repeat %s: %v, want %v", row[4], row[8], got, want)
		}
		seen++
	}
	if seen != 4 {
		t.Errorf("%d rows, want 4", seen)
	}
}
