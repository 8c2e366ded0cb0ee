package predictive

import (
	"math"
	"math/rand/v2"
	"testing"
)

// posterior is a synthetic set of posterior samples shaped like a Bayesian
// NMF sampler's: sample s predicts mu[s][k] for entry k and has noise
// variance sigma2[s].
type posterior struct {
	mu     [][]float64
	sigma2 []float64
}

// simulate draws S samples for n entries. The noise variance is 0.8 with a
// relative spread of 1% between samples; entry k's predictions have a
// centre drawn from N(3, 1) and move between samples as an AR(1) chain with
// autocorrelation rho and a stationary standard deviation spread times a
// uniform draw on [0.2, 1] times sigma (MovieLens predictions move by a
// fraction of the noise). spread = 0 gives identical predictions.
func simulate(n, samples int, rho, spread float64, seed uint64) posterior {
	rng := rand.New(rand.NewPCG(seed, 7))
	p := posterior{mu: make([][]float64, samples), sigma2: make([]float64, samples)}
	for s := range p.sigma2 {
		p.sigma2[s] = 0.8 * (1 + 0.01*rng.NormFloat64())
		p.mu[s] = make([]float64, n)
	}
	innov := math.Sqrt(1 - rho*rho)
	for k := range n {
		centre := 3 + rng.NormFloat64()
		scale := spread * (0.2 + 0.8*rng.Float64()) * math.Sqrt(0.8)
		x := rng.NormFloat64()
		for s := range samples {
			p.mu[s][k] = centre + scale*x
			x = rho*x + innov*rng.NormFloat64()
		}
	}
	return p
}

// mixture returns entry k's predictive mixture over samples [lo, hi).
func (p posterior) mixture(k, lo, hi int) Mixture {
	m := Mixture{Mu: make([]float64, hi-lo), Sigma2: p.sigma2[lo:hi]}
	for s := lo; s < hi; s++ {
		m.Mu[s-lo] = p.mu[s][k]
	}
	return m
}

// draw returns one value per entry drawn from entry k's mixture over all
// samples: a uniformly chosen sample's normal.
func (p posterior) draw(seed uint64) []float64 {
	rng := rand.New(rand.NewPCG(seed, 11))
	n := len(p.mu[0])
	y := make([]float64, n)
	for k := range y {
		s := rng.IntN(len(p.sigma2))
		y[k] = p.mu[s][k] + math.Sqrt(p.sigma2[s])*rng.NormFloat64()
	}
	return y
}

// accumulate feeds samples [lo, hi) of p to a new accumulator.
func accumulate(t testing.TB, p posterior, lo, hi int, targets [][]float64, s Settings) *Accumulator {
	t.Helper()
	acc, err := New(targets, s)
	if err != nil {
		t.Fatal(err)
	}
	for i := lo; i < hi; i++ {
		if err := acc.Add(p.mu[i], p.sigma2[i]); err != nil {
			t.Fatal(err)
		}
	}
	return acc
}

func finish(t testing.TB, acc *Accumulator) *Result {
	t.Helper()
	res, err := acc.Finish()
	if err != nil {
		t.Fatal(err)
	}
	return res
}
