package bnmf

import (
	"context"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"
)

// TestColumnMean checks the baseline against means computed by hand on a
// 3 x 3 matrix whose last column has no training entry.
func TestColumnMean(t *testing.T) {
	train, err := NewMatrix(3, 3, []Entry{{Row: 0, Col: 0, Value: 1}, {Row: 1, Col: 0, Value: 3}, {Row: 2, Col: 0, Value: 5}, {Row: 0, Col: 1, Value: 4}, {Row: 2, Col: 1, Value: 8}})
	if err != nil {
		t.Fatal(err)
	}
	test := []Entry{{Row: 1, Col: 1, Value: 2}, {Row: 0, Col: 2, Value: 1}, {Row: 1, Col: 0, Value: 4}}
	res, err := Run(context.Background(), ColumnMean{}, train, Settings{Rank: 2, Sweeps: 3, Seed: 1, Test: test})
	if err != nil {
		t.Fatal(err)
	}
	// Column 1: (4+8)/2 = 6; column 2 has no training entry, so the mean
	// of all five, 21/5 = 4.2; column 0: (1+3+5)/3 = 3.
	want := []float64{6, 4.2, 3}
	for i, w := range want {
		if !scalar.EqualWithinAbsOrRel(res.PredictiveMean[i], w, 1e-12, 1e-12) || res.PredictiveVariance[i] != 0 {
			t.Errorf("prediction %d = %v (variance %v), want %v (0)", i, res.PredictiveMean[i], res.PredictiveVariance[i], w)
		}
	}
	// Residuals (1-3)^2 + 0 + (5-3)^2 + (4-6)^2 + (8-6)^2 = 16 over 5 entries.
	if !scalar.EqualWithinAbsOrRel(res.TrainMSE, 3.2, 1e-12, 1e-12) || res.Sigma2Mean != 0 {
		t.Errorf("train MSE %v, sigma^2 %v; want 3.2 and 0", res.TrainMSE, res.Sigma2Mean)
	}
}
