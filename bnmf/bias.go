package bnmf

import (
	"fmt"
	"math"
)

var _ Model = Bias{}

// Bias is the regularised bias baseline of recommender systems ("baseline
// only"; Koren 2010, "Factor in the neighbors: scalable and accurate
// collaborative filtering", ACM TKDD 4(1), Sec. 2.1): it predicts entry
// (i, j) by mu + b_i + c_j, where mu is the mean of the training entries
// and the row biases b and column biases c minimise
//
//	sum over training (i, j) of (a_ij - mu - b_i - c_j)^2 + RegRow sum b_i^2 + RegCol sum c_j^2.
//
// It is fitted by alternating least squares, which this strictly convex
// problem lets converge to its unique minimum: rows, then columns, until
// no bias changes by more than 1e-12 (1 + |mu|), or at most 1,000 passes.
// A row or column with no training entry has bias 0. It has no sampler,
// draws no random numbers, and gives the same predictions at every rank
// of at least 2 (it stores mu + b_i + c_j as the factors w_i = (mu + b_i,
// 1, 0, ...) and z_j = (1, c_j, 0, ...)); a rank of 1 is an error.
type Bias struct {
	// RegRow is the shrinkage of the row biases. Zero means 15.
	RegRow float64
	// RegCol is the shrinkage of the column biases. Zero means 10.
	RegCol float64
}

// Name returns "Bias".
func (Bias) Name() string { return "Bias" }

func biasSpec() Spec {
	return Spec{
		Name: "Bias", Zero: Bias{}, Baseline: true, PointEstimate: true,
		Doc: "baseline: mean + row bias + column bias, shrunk (Koren 2010)",
		Params: []Param{
			{Key: "reg_row", Field: "RegRow", Support: Positive, Default: "15", Doc: "shrinkage of the row biases"},
			{Key: "reg_col", Field: "RegCol", Support: Positive, Default: "10", Doc: "shrinkage of the column biases"},
		},
	}
}

func (b Bias) newChain(train *Matrix, k int) (chain, error) {
	regRow, regCol := orDefault(b.RegRow, 15), orDefault(b.RegCol, 10)
	if err := positive("Bias", "RegRow", regRow); err != nil {
		return nil, err
	}
	if err := positive("Bias", "RegCol", regCol); err != nil {
		return nil, err
	}
	if k < 2 {
		return nil, fmt.Errorf("bnmf: Bias needs a rank of at least 2 to store mu + b_i + c_j as factors; got %d", k)
	}
	return newBaselineChain(train, k, func(data *Matrix, k int, w, zt []float64) {
		mu, rows, cols := fitBiases(data, regRow, regCol)
		for i, bi := range rows {
			w[i*k], w[i*k+1] = mu+bi, 1
		}
		for j, cj := range cols {
			zt[j*k], zt[j*k+1] = 1, cj
		}
	}), nil
}

// fitBiases returns mu, the row biases and the column biases of the Bias
// baseline, fitted by alternating least squares.
func fitBiases(data *Matrix, regRow, regCol float64) (mu float64, rows, cols []float64) {
	m, n := data.Dims()
	mu = data.Mean()
	rows, cols = make([]float64, m), make([]float64, n)
	tol := 1e-12 * (1 + math.Abs(mu))
	// update sets each bias of one side to its least-squares value given
	// the other side's, and returns the largest change.
	update := func(bias, other []float64, line func(int) ([]int32, []float64), reg float64) float64 {
		var change float64
		for i := range bias {
			idx, vals := line(i)
			var s float64
			for q, j := range idx {
				s += vals[q] - mu - other[j]
			}
			v := s / (reg + float64(len(idx)))
			change = math.Max(change, math.Abs(v-bias[i]))
			bias[i] = v
		}
		return change
	}
	for range 1000 {
		dr := update(rows, cols, data.Row, regRow)
		dc := update(cols, rows, data.Col, regCol)
		if math.Max(dr, dc) <= tol {
			break
		}
	}
	return mu, rows, cols
}
