package bnmf

import (
	"context"
	"reflect"
	"testing"
)

// TestUnivariateWorkersBitIdentical checks that GGGU, GLL, GLLI, GEEA and
// GEG give the same Result, bit for bit, with 1, 2 and 3 workers: trace,
// predictions, posterior means and GEEA's kept rates, which are drawn on a
// stream of their own (phaseGlobal) after the lines of Z.
func TestUnivariateWorkersBitIdentical(t *testing.T) {
	train, test, _ := planted(t, 50, 70, 4, 0.4, 0.2, 3)
	for _, model := range []Model{GGGU{}, GLL{}, GLLI{}, GEEA{}, GEG{}} {
		t.Run(model.Name(), func(t *testing.T) {
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
