package bnmf

var _ Model = RowMean{}

// RowMean is a baseline with no sampler: it predicts every entry of a row
// by the mean of that row's training entries, and an entry of a row with
// no training entry by the mean of all training entries. It has no
// hyperparameters and gives the same predictions at every rank (see
// baselineChain).
type RowMean struct{}

// Name returns "RowMean".
func (RowMean) Name() string { return "RowMean" }

func rowMeanSpec() Spec {
	return Spec{Name: "RowMean", Zero: RowMean{}, Baseline: true, PointEstimate: true, Doc: "baseline: each row's training mean"}
}

func (RowMean) newChain(train *Matrix, k int) (chain, error) {
	return newBaselineChain(train, k, func(data *Matrix, k int, w, zt []float64) {
		m, n := data.Dims()
		means := lineMeans(m, func(i int) []float64 { _, v := data.Row(i); return v }, data.Mean())
		for i, mean := range means {
			w[i*k] = mean
		}
		for j := range n {
			zt[j*k] = 1
		}
	}), nil
}
