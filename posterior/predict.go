package posterior

import (
	"math"

	"gonum.org/v1/gonum/floats"

	"github.com/bnmf-lab/bnmf/predictive"
)

// Prediction is the posterior predictive distribution of one entry, the
// mixture over the stored samples s of N(w_m . z_n, sigma_s^2) (of
// Poi(w_m . z_n), with whole-count interval ends, for a Poisson model),
// summarised in the data's units: its mean, its standard deviation and
// its central interval [Lower, Upper] at the level asked for (mixture
// quantiles, to predictive.DefaultTol of the mixture's sd).
type Prediction struct {
	Mean, SD, Lower, Upper float64
}

// Predict returns the prediction of entry (row, col), its central
// interval at level a in (0, 1). It panics if row or col is out of range.
func (m *Model) Predict(row, col int, a float64) Prediction {
	return m.predict(row, col, a, make([]float64, len(m.W)))
}

// predict is Predict with mu, scratch space of one float per sample.
func (m *Model) predict(row, col int, a float64, mu []float64) Prediction {
	k := m.Rank
	for s := range m.W {
		mu[s] = floats.Dot(m.W[s][row*k:(row+1)*k], m.Zt[s][col*k:(col+1)*k]) + m.offset(s, row, col)
	}
	if m.Poisson() {
		mix := predictive.PoissonMixture{Rate: mu}
		lo, hi := mix.Interval(a)
		return Prediction{Mean: mix.Mean(), SD: math.Sqrt(mix.Variance()), Lower: float64(lo), Upper: float64(hi)}
	}
	mix := predictive.Mixture{Mu: mu, Sigma2: m.Sigma2}
	lo, hi := mix.Interval(a, 0)
	return Prediction{Mean: mix.Mean(), SD: math.Sqrt(mix.Variance()), Lower: lo, Upper: hi}
}

// PredictPairs returns the predictions of the (row, col) index pairs, their
// central intervals at level a in (0, 1).
func (m *Model) PredictPairs(pairs [][2]int, a float64) []Prediction {
	mu := make([]float64, len(m.W))
	out := make([]Prediction, len(pairs))
	for i, p := range pairs {
		out[i] = m.predict(p[0], p[1], a, mu)
	}
	return out
}

// RangeFlag says where a predictive mean lies relative to the training
// values' range: "above" their largest, "below" their smallest, else
// "in"; "" for a model file that does not record the range.
func (m *Model) RangeFlag(mean float64) string {
	if len(m.TrainRange) != 2 {
		return ""
	}
	switch {
	case mean > m.TrainRange[1]:
		return "above"
	case mean < m.TrainRange[0]:
		return "below"
	}
	return "in"
}
