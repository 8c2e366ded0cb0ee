package bnmf

var _ Model = ColumnMean{}

// ColumnMean is a baseline with no sampler: it predicts every entry of a
// column by the mean of that column's training entries, and an entry of a
// column with no training entry by the mean of all training entries. Like
// NMF it is a point estimate: Run reports it as the posterior mean with
// zero predictive variance and a Sigma2 of 0. It has no hyperparameters,
// draws no random numbers and gives the same predictions at every rank.
type ColumnMean struct{}

// Name returns "ColumnMean".
func (ColumnMean) Name() string { return "ColumnMean" }

func columnMeanSpec() Spec {
	return Spec{Name: "ColumnMean", Zero: ColumnMean{}, Baseline: true, Doc: "baseline: each column's training mean"}
}

func (ColumnMean) newChain(train *Matrix, k int) (chain, error) {
	return &columnMeanChain{factorization: newFactorization(train, k)}, nil
}

// columnMeanChain holds the prediction as a rank-K factorisation whose
// first component is all ones in W and the column means in Z; the other
// components are zero. Its sweeps change nothing.
type columnMeanChain struct {
	factorization
}

func (c *columnMeanChain) scratchSize() int { return 0 }

func (c *columnMeanChain) init(p *pool) error {
	m, n := c.data.Dims()
	for i := range m {
		c.w[i*c.k] = 1
	}
	global := c.data.Mean()
	for j := range n {
		_, vals := c.data.Col(j)
		mean := global
		if len(vals) > 0 {
			var s float64
			for _, v := range vals {
				s += v
			}
			mean = s / float64(len(vals))
		}
		c.zt[j*c.k] = mean
	}
	return c.recomputeResiduals(p, 0)
}

func (c *columnMeanChain) sweep(*pool, int) error { return nil }

func (c *columnMeanChain) noiseVariance() float64 { return 0 }

func (c *columnMeanChain) pointEstimate() bool { return true }
