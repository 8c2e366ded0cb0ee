package bnmf

var _ Model = GlobalMean{}

// GlobalMean is a baseline with no sampler: it predicts every entry by the
// mean of all training entries. It has no hyperparameters and gives the
// same predictions at every rank (see baselineChain).
type GlobalMean struct{}

// Name returns "GlobalMean".
func (GlobalMean) Name() string { return "GlobalMean" }

func globalMeanSpec() Spec {
	return Spec{Name: "GlobalMean", Zero: GlobalMean{}, Baseline: true, PointEstimate: true, Doc: "baseline: the mean of all training entries"}
}

func (GlobalMean) newChain(train *Matrix, k int) (chain, error) {
	return newBaselineChain(train, k, func(data *Matrix, k int, w, zt []float64) {
		m, n := data.Dims()
		for i := range m {
			w[i*k] = 1
		}
		mean := data.Mean()
		for j := range n {
			zt[j*k] = mean
		}
	}), nil
}
