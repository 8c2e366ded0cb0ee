package bnmf

import (
	"context"
	"reflect"
	"testing"
)

// TestUnivariateWorkersBitIdentical checks that GGGU, GLL, GLLI, GEEA and
// GEG (and GEG, GLL and GLLI with block draws) give the same Result, bit
// for bit, with 1, 2 and 3 workers: trace, predictions, posterior means
// and GEEA's kept rates, which are drawn on a stream of their own
// (phaseGlobal) after the lines of Z.
func TestUnivariateWorkersBitIdentical(t *testing.T) {
	train, test, _ := planted(t, 50, 70, 4, 0.4, 0.2, 3)
	models := append([]Model{GGGU{}, GLL{}, GLLI{}, GEEA{}, GEG{}, GL21{}, GVnG{}, GVG{}}, blockDrawModels()...)
	for _, model := range models {
		t.Run(modelLabel(model), func(t *testing.T) {
			var first *Result
			for _, workers := range []int{1, 2, 3} {
				res, err := Run(context.Background(), model, train, Settings{Rank: 4, Sweeps: 30, BurnIn: 10, Seed: 17, Workers: workers, Test: test})
				if err != nil {
					t.Fatal(err)
				}
				res = withoutTimes(res)
				res.Settings.Workers = 0
				if _, ok := model.(GEEA); ok && (len(res.Hyper) != 1 || len(res.Hyper[0].Draws) != 20 || len(res.Hyper[0].Draws[0]) != 4) {
					t.Fatalf("GEEA's Hyper is %+v, want 20 kept draws of 4 rates", res.Hyper)
				}
				if first == nil {
					first = res
					continue
				}
				if !reflect.DeepEqual(res, first) {
					t.Errorf("%d workers give a different result from 1", workers)
				}
			}
		})
	}
}

// TestSpecRealValued checks the Spec.RealValued of each model with a
// gibbsChain against the chain: true exactly when a side's prior is a
// realPrior, whose entries are drawn from untruncated normals.
func TestSpecRealValued(t *testing.T) {
	train, _, _ := planted(t, 6, 5, 2, 0.8, 0.3, 29)
	for _, s := range Specs() {
		if s.Family != Gaussian {
			continue // a Poisson model's chain is not a gibbsChain and needs counts
		}
		ch, err := s.Zero.newChain(train, 2)
		if err != nil {
			t.Fatalf("%s: %v", s.Name, err)
		}
		c, ok := ch.(*gibbsChain)
		if !ok {
			continue // NMF, the baselines and block samplers: not checked here
		}
		real := c.sides[0].real || c.sides[1].real
		if real != s.RealValued {
			t.Errorf("%s: Spec.RealValued is %v, but its chain has a real-valued side: %v", s.Name, s.RealValued, real)
		}
	}
}
