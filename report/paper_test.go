package report

import (
	"strings"
	"testing"
)

func TestPaperValues(t *testing.T) {
	p := Paper()
	if !strings.Contains(p.Citation, "Lu") || !strings.Contains(p.Citation, "Table 2") {
		t.Errorf("citation %q lacks the authors or the table", p.Citation)
	}
	tests := []struct {
		dataset  string
		fraction float64
		model    string
		rank     int
		want     float64
		ok       bool
	}{
		{"movielens-100k", 0.97, "GEE", 20, 1.18, true},
		{"movielens-100k", 0.97, "GRRN", 50, 0.97, true},
		{"movielens-100k", 0.98, "GTT", 30, 2.27, true},
		{"movielens-100k", 0.98, "GEE", 40, 17056.27, true},
		{"movielens-100k", 0.98, "GEE", 50, 236750.39, true},
		{"movielens-100k", 0.98, "GTTN", 50, 5452.18, true},
		{"MovieLens 100K", 0.98, "grrn", 20, 1.10, true},
		{"movielens-100k", 0.98, "NMF", 20, 0, false}, // no NMF column
		{"movielens-100k", 0.96, "GRRN", 20, 0, false},
		{"movielens-100k", 0.97, "GRRN", 10, 0, false},
		{"movielens-1m", 0.98, "GRRN", 20, 0, false}, // no 1M table
		{"synthetic", 0.98, "GRRN", 20, 0, false},
	}
	for _, tt := range tests {
		got, ok := p.HeldOutMSE(tt.dataset, tt.fraction, tt.model, tt.rank)
		if got != tt.want || ok != tt.ok {
			t.Errorf("HeldOutMSE(%s, %v, %s, %d) = %v, %v; want %v, %v", tt.dataset, tt.fraction, tt.model, tt.rank, got, ok, tt.want, tt.ok)
		}
	}
	for _, d := range []struct {
		name                 string
		rows, cols, observed int
		fraction             float64
	}{
		{"ml-100k", 943, 1473, 99723, 0.072},
		{"movielens-1m", 6040, 3503, 999917, 0.047},
	} {
		got, ok := p.Dataset(d.name)
		if !ok || got.Rows != d.rows || got.Cols != d.cols || got.Observed != d.observed || got.FractionObserved != d.fraction {
			t.Errorf("Dataset(%s) = %+v, %v", d.name, got, ok)
		}
	}
}

func TestParsePaperValuesErrors(t *testing.T) {
	tests := []struct {
		name, json, want string
	}{
		{"unknown field", `{"citation": "x", "extra": 1}`, `unknown field "extra"`},
		{"no citation", `{"datasets": []}`, "citation is empty"},
		{"short row", `{"citation": "x", "held_out_mse": [{"models": ["GEE", "GTT"], "rows": [{"rank": 20, "mse": [1]}]}]}`,
			"held_out_mse[0].rows[0]: 1 values for 2 models"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parsePaperValues([]byte(tt.json))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want it to contain %q", err, tt.want)
			}
		})
	}
}
