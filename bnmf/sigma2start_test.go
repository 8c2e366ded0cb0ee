package bnmf

import (
	"context"
	"math"
	"testing"
)

// TestSigma2Start checks each way of starting sigma^2 on a small planted
// problem: at the data's variance exactly; from the InvGamma(3, 2) prior,
// whose precision has mean 3/2 and variance 3/4, over 2,000 seeds (standard
// error 0.019; the tolerance is four of them); and that NMF, which has no
// sigma^2, ignores it.
func TestSigma2Start(t *testing.T) {
	train, _, _ := planted(t, 12, 10, 2, 0.5, 0.3, 21)
	lik := Likelihood{AlphaSigma: 3, BetaSigma: 2}
	start := func(model Model, how Sigma2Start, seed uint64) float64 {
		t.Helper()
		ch, err := model.newChain(train, 2)
		if err != nil {
			t.Fatal(err)
		}
		ch.(sigma2Starter).setSigma2Start(how)
		p := newPool(1, seed, max(ch.scratchSize(), 1))
		defer p.close()
		if err := ch.init(p); err != nil {
			t.Fatal(err)
		}
		return ch.noiseVariance()
	}
	if got := start(GTT{Likelihood: lik}, Sigma2AtDataVariance, 1); got != train.Variance() {
		t.Errorf("data-variance start: sigma^2 = %v, want %v", got, train.Variance())
	}
	const n = 2000
	var sum float64
	for seed := range uint64(n) {
		sum += 1 / start(GRRN{Likelihood: lik}, Sigma2FromPrior, seed)
	}
	if mean := sum / n; math.Abs(mean-1.5) > 4*math.Sqrt(0.75/n) {
		t.Errorf("prior start: mean precision %v over %d seeds, want 1.5", mean, n)
	}
	if a, b := start(GEE{Likelihood: lik}, Sigma2FromConditional, 3), start(GEE{Likelihood: lik}, Sigma2FromPrior, 3); a == b {
		t.Errorf("the conditional and prior starts gave the same sigma^2 %v", a)
	}
	a, err := Run(context.Background(), NMF{}, train, Settings{Rank: 2, Sweeps: 3, Seed: 1, Sigma2Start: Sigma2FromPrior})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Run(context.Background(), NMF{}, train, Settings{Rank: 2, Sweeps: 3, Seed: 1})
	if err != nil || a.TrainMSE != b.TrainMSE {
		t.Errorf("NMF with a sigma^2 start: train MSE %v, without %v (%v)", a.TrainMSE, b.TrainMSE, err)
	}
	for _, s := range Sigma2Starts() {
		if got, err := ParseSigma2Start(s.String()); err != nil || got != s {
			t.Errorf("ParseSigma2Start(%q) = %v, %v", s, got, err)
		}
	}
}
