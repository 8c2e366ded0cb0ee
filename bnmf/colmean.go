package bnmf

var _ Model = ColumnMean{}

// ColumnMean is a baseline with no sampler: it predicts every entry of a
// column by the mean of that column's training entries, and an entry of a
// column with no training entry by the mean of all training entries. It
// has no hyperparameters and gives the same predictions at every rank (see
// baselineChain).
type ColumnMean struct{}

// Name returns "ColumnMean".
func (ColumnMean) Name() string { return "ColumnMean" }

func columnMeanSpec() Spec {
	return Spec{Name: "ColumnMean", Zero: ColumnMean{}, Baseline: true, PointEstimate: true, Doc: "baseline: each column's training mean"}
}

func (ColumnMean) newChain(train *Matrix, k int) (chain, error) {
	return newBaselineChain(train, k, func(data *Matrix, k int, w, zt []float64) {
		m, n := data.Dims()
		for i := range m {
			w[i*k] = 1
		}
		means := lineMeans(n, func(j int) []float64 { _, v := data.Col(j); return v }, data.Mean())
		for j, mean := range means {
			zt[j*k] = mean
		}
	}), nil
}
