package posterior

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/stat"

	"github.com/bnmf-lab/bnmf/bnmf"
)

// TestSummariseHyper checks the pooling of shared hyperparameters over
// chains whose factors were matched: dimension k of chain c is its
// factor perms[c][k].
func TestSummariseHyper(t *testing.T) {
	rs := []*bnmf.Result{
		{Hyper: []bnmf.HyperDraws{{Name: "lambda", Draws: [][]float64{{1, 2}, {3, 4}}}}},
		{Hyper: []bnmf.HyperDraws{{Name: "lambda", Draws: [][]float64{{20, 10}}}}},
	}
	got := SummariseHyper(rs, [][]int{{0, 1}, {1, 0}})
	if len(got) != 1 || got[0].Name != "lambda" || got[0].Draws != 3 {
		t.Fatalf("summary %+v, want one of 3 draws named lambda", got)
	}
	// Dimension 0 pools {1, 3, 10}, dimension 1 {2, 4, 20}.
	for k, want := range [][]float64{{1, 3, 10}, {2, 4, 20}} {
		mean := (want[0] + want[1] + want[2]) / 3
		median := stat.Quantile(0.5, stat.LinInterp, want, nil) // as sigma^2's summary computes it
		if math.Abs(got[0].Mean[k]-mean) > 1e-12 || got[0].Median[k] != median {
			t.Errorf("dimension %d: mean %v, median %v; want %v, %v", k, got[0].Mean[k], got[0].Median[k], mean, median)
		}
	}
	if SummariseHyper([]*bnmf.Result{{}}, nil) != nil {
		t.Error("a model without shared hyperparameters has a summary")
	}
}
