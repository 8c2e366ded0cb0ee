package bnmf

import (
	"context"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"
	"gonum.org/v1/gonum/mat"
)

// baselineTrain is the 3 x 3 training matrix
//
//	1 4 .
//	3 . .
//	5 8 .
//
// (row 1 has one entry, column 2 none) with mean 21/5 = 4.2.
func baselineTrain(t *testing.T) *Matrix {
	t.Helper()
	m, err := NewMatrix(3, 3, []Entry{
		{Row: 0, Col: 0, Value: 1}, {Row: 1, Col: 0, Value: 3}, {Row: 2, Col: 0, Value: 5},
		{Row: 0, Col: 1, Value: 4}, {Row: 2, Col: 1, Value: 8},
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestMeanBaselines checks GlobalMean, RowMean and ColumnMean against
// means computed by hand, at two ranks (a baseline ignores the rank).
func TestMeanBaselines(t *testing.T) {
	test := []Entry{{Row: 1, Col: 1, Value: 2}, {Row: 0, Col: 2, Value: 1}, {Row: 1, Col: 0, Value: 4}}
	tests := []struct {
		model Model
		want  []float64
	}{
		{GlobalMean{}, []float64{4.2, 4.2, 4.2}},
		// Rows: (1+4)/2 = 2.5, 3, (5+8)/2 = 6.5.
		{RowMean{}, []float64{3, 2.5, 3}},
		// Columns: (1+3+5)/3 = 3, (4+8)/2 = 6, none: 4.2.
		{ColumnMean{}, []float64{6, 4.2, 3}},
	}
	for _, tt := range tests {
		for _, k := range []int{1, 3} {
			res, err := Run(context.Background(), tt.model, baselineTrain(t), Settings{Rank: k, Sweeps: 50, Seed: 1, Test: test})
			if err != nil {
				t.Fatal(err)
			}
			for _, st := range res.Trace {
				// The predictions are made once and never change.
				if !scalar.EqualWithinAbsOrRel(st.TestMSE, res.TestMSE, 1e-12, 1e-12) {
					t.Errorf("%s K=%d: sweep %d's test MSE %v differs from the final %v", tt.model.Name(), k, st.Sweep, st.TestMSE, res.TestMSE)
				}
			}
			for i, w := range tt.want {
				if !scalar.EqualWithinAbsOrRel(res.PredictiveMean[i], w, 1e-12, 1e-12) || res.PredictiveVariance[i] != 0 ||
					!scalar.EqualWithinAbsOrRel(res.PosteriorMeanProduct[i], w, 1e-12, 1e-12) {
					t.Errorf("%s K=%d: prediction %d = %v (variance %v, product of means %v), want %v (0, the same)", tt.model.Name(), k, i,
						res.PredictiveMean[i], res.PredictiveVariance[i], res.PosteriorMeanProduct[i], w)
				}
			}
		}
	}
}

// TestBiasClosedForm compares the alternating least squares of Bias with
// the solution of the normal equations of its objective, solved directly:
// for row i, (RegRow + n_i) b_i + sum_{j in row i} c_j = sum_{j in row i}
// (a_ij - mu), and likewise for each column.
func TestBiasClosedForm(t *testing.T) {
	train := baselineTrain(t)
	const regRow, regCol = 2.0, 0.5
	m, n := train.Dims()
	mu := train.Mean()
	a := mat.NewDense(m+n, m+n, nil)
	rhs := mat.NewVecDense(m+n, nil)
	for _, e := range train.Entries() {
		i, j := e.Row, m+e.Col
		a.Set(i, i, a.At(i, i)+1)
		a.Set(j, j, a.At(j, j)+1)
		a.Set(i, j, a.At(i, j)+1)
		a.Set(j, i, a.At(j, i)+1)
		rhs.SetVec(i, rhs.AtVec(i)+e.Value-mu)
		rhs.SetVec(j, rhs.AtVec(j)+e.Value-mu)
	}
	for i := range m {
		a.Set(i, i, a.At(i, i)+regRow)
	}
	for j := range n {
		a.Set(m+j, m+j, a.At(m+j, m+j)+regCol)
	}
	var x mat.VecDense
	if err := x.SolveVec(a, rhs); err != nil {
		t.Fatal(err)
	}
	var test []Entry
	for i := range m {
		for j := range n {
			test = append(test, Entry{Row: i, Col: j, Value: 0})
		}
	}
	res, err := Run(context.Background(), Bias{RegRow: regRow, RegCol: regCol}, train, Settings{Rank: 2, Sweeps: 1, Seed: 1, Test: test})
	if err != nil {
		t.Fatal(err)
	}
	for q, e := range test {
		want := mu + x.AtVec(e.Row) + x.AtVec(m+e.Col)
		// ALS stops when no bias moves by more than 1e-12 (1 + |mu|); the
		// contraction of this small problem makes the error of the same
		// order.
		if got := res.PredictiveMean[q]; math.Abs(got-want) > 1e-9 {
			t.Errorf("Bias prediction at (%d, %d) = %.12f, want %.12f", e.Row, e.Col, got, want)
		}
	}
	if _, err := Run(context.Background(), Bias{}, train, Settings{Rank: 1, Sweeps: 1, Seed: 1}); err == nil || !strings.Contains(err.Error(), "rank of at least 2") {
		t.Errorf("Bias at rank 1: err = %v, want one naming the rank", err)
	}
}
