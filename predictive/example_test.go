package predictive_test

import (
	"fmt"
	"log"
	"math/rand/v2"

	"github.com/bnmf-lab/bnmf/predictive"
)

// Example scores two chains' posterior predictive distributions for 1000
// held-out entries whose observed values are drawn from those
// distributions, so that every interval covers about its level.
func Example() {
	const entries, samples = 1000, 50
	rng := rand.New(rand.NewPCG(1, 2))

	// A chain's sample s predicts centre[k] + noise for entry k, with noise
	// variance about 0.8.
	centre := make([]float64, entries)
	for k := range centre {
		centre[k] = 1 + 4*rng.Float64()
	}
	type sample struct {
		mu     []float64
		sigma2 float64
	}
	chains := make([][]sample, 2)
	for c := range chains {
		for range samples {
			s := sample{mu: make([]float64, entries), sigma2: 0.8 + 0.01*rng.NormFloat64()}
			for k := range s.mu {
				s.mu[k] = centre[k] + 0.3*rng.NormFloat64()
			}
			chains[c] = append(chains[c], s)
		}
	}
	// Observed values: each drawn from a random sample's normal.
	y := make([]float64, entries)
	for k := range y {
		s := chains[rng.IntN(2)][rng.IntN(samples)]
		y[k] = s.mu[k] + rng.NormFloat64()*0.9
	}

	var parts []*predictive.Accumulator
	for _, chain := range chains {
		acc, err := predictive.New([][]float64{y}, predictive.Settings{Samples: samples})
		if err != nil {
			log.Fatal(err)
		}
		for _, s := range chain {
			if err := acc.Add(s.mu, s.sigma2); err != nil {
				log.Fatal(err)
			}
		}
		parts = append(parts, acc)
	}
	pooled, err := predictive.Merge(parts...)
	if err != nil {
		log.Fatal(err)
	}
	res, err := pooled.Finish()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d samples, %d kept per entry\n", res.Samples, res.Buffered)
	for l, a := range res.Levels {
		fmt.Printf("level %.2f: coverage %.2f, mean width %.1f\n", a, res.Scores[0].Coverage[l], res.MeanWidth[l])
	}
	fmt.Printf("mean log density %.1f, mean CRPS %.2f\n", res.Scores[0].MeanLogDensity, res.Scores[0].MeanCRPS)
	// Output:
	// 100 samples, 40 kept per entry
	// level 0.50: coverage 0.50, mean width 1.3
	// level 0.80: coverage 0.80, mean width 2.4
	// level 0.90: coverage 0.90, mean width 3.1
	// level 0.95: coverage 0.95, mean width 3.7
	// mean log density -1.4, mean CRPS 0.53
}

// ExampleMixture_Quantile finds the quartiles of two separated normals.
func ExampleMixture_Quantile() {
	m := predictive.Mixture{Mu: []float64{-4, 4}, Sigma2: []float64{1, 1}}
	for _, p := range []float64{0.25, 0.5, 0.75} {
		fmt.Printf("%.2f-quantile %.4f\n", p, m.Quantile(p, 0))
	}
	// Output:
	// 0.25-quantile -4.0000
	// 0.50-quantile 0.0000
	// 0.75-quantile 4.0000
}

// The predictive distribution of a count from three posterior samples of
// its Poisson rate: its mean, its central 80% interval (whole counts,
// holding at least 80% of the probability) and the scores of an observed
// count of 5.
func ExamplePoissonMixture() {
	m := predictive.PoissonMixture{Rate: []float64{2.5, 3, 4}}
	lo, hi := m.Interval(0.8)
	fmt.Printf("mean %.2f, variance %.2f, 80%% interval [%d, %d]\n", m.Mean(), m.Variance(), lo, hi)
	fmt.Printf("P(X = 5) %.3f, log mass %.2f, CRPS %.2f\n", m.Prob(5), m.LogProb(5), m.CRPS(5))
	// Output:
	// mean 3.17, variance 3.56, 80% interval [1, 6]
	// P(X = 5) 0.108, log mass -2.23, CRPS 1.20
}
