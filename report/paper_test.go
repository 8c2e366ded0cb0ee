package report

import (
	"strings"
	"testing"

	"github.com/bnmf-lab/bnmf/experiments"
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
		{"experiment without a figure", `{"citation": "x", "experiments": [{"kind": "noise", "datasets": ["MovieLens 100K"]}]}`,
			"experiments[0]: kind, figure and datasets are required"},
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

func TestPaperExperiment(t *testing.T) {
	p := Paper()
	m := func(kind, data string, ranks []int, fractions, ratios []float64) experiments.Manifest {
		return experiments.Manifest{Kind: kind, Dataset: data, Ranks: ranks, Fractions: fractions, NoiseRatios: ratios}
	}
	tests := []struct {
		name   string
		m      experiments.Manifest
		figure string // "" for none
	}{
		{"100K sparsity", m("sparsity", "movielens-100k", []int{20, 30, 40, 50}, []float64{0.93, 0.94, 0.95, 0.96, 0.97, 0.98}, nil), "Fig. 5"},
		{"1M sparsity, part of the grid", m("sparsity", "movielens-1m", []int{20, 50}, []float64{0.96, 0.97, 0.98}, nil), "Fig. 5"},
		{"1M convergence", m("convergence", "movielens-1m", []int{10, 20, 30, 40, 50}, nil, nil), "Fig. 2"},
		// A noise manifest lists its one split's fraction: not an axis.
		{"1M noise", m("noise", "movielens-1m", []int{50}, []float64{0.9577}, []float64{0, 0.1, 10}), "Fig. 4"},
		{"a fraction the paper did not run", m("sparsity", "movielens-100k", []int{20}, []float64{0.5}, nil), ""},
		{"a rank the paper did not run", m("convergence", "movielens-100k", []int{5}, nil, nil), ""},
		{"a noise ratio the paper did not run", m("noise", "movielens-100k", []int{50}, nil, []float64{3}), ""},
		{"synthetic data", m("sparsity", "synthetic", []int{20}, []float64{0.97}, nil), ""},
		{"a user's file", m("convergence", "wine.csv", []int{10}, nil, nil), ""},
		{"another MovieLens", m("convergence", "movielens-10m", []int{10}, nil, nil), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, ok := p.Experiment(tt.m)
			if ok != (tt.figure != "") || e.Figure != tt.figure {
				t.Errorf("Experiment = %q, %v; want %q", e.Figure, ok, tt.figure)
			}
		})
	}
	if e, _ := p.Experiment(tests[0].m); e.Table != "Table 2" {
		t.Errorf("the sparsity experiment's table is %q, want Table 2", e.Table)
	}
}
