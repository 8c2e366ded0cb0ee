package bnmf

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"testing"
)

// TestRowwiseWorkers checks that a run of each row-wise Gaussian model is
// the same, bit for bit, for 1, 2 and 3 workers, with and without
// Settings.Float32Factors, and that its factors take both signs.
func TestRowwiseWorkers(t *testing.T) {
	train, test, _ := planted(t, 40, 30, 3, 0.4, 0.3, 13)
	for _, model := range []Model{GGG{}, GGGA{}, GGGW{}} {
		for _, f32 := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/float32=%v", model.Name(), f32), func(t *testing.T) {
				var first *Result
				for _, workers := range []int{1, 2, 3} {
					s := Settings{Rank: 3, Sweeps: 30, BurnIn: 10, Seed: 5, Test: test, Workers: workers, Float32Factors: f32}
					r, err := Run(context.Background(), model, train, s)
					if err != nil {
						t.Fatal(err)
					}
					r.Settings.Workers = 0
					if first == nil {
						first = r
						continue
					}
					if !reflect.DeepEqual(withoutTimes(r), withoutTimes(first)) {
						t.Errorf("%d workers give a different run from 1 worker", workers)
					}
				}
				neg := 0
				for _, v := range first.MeanW.RawMatrix().Data {
					if v < 0 {
						neg++
					}
				}
				if neg == 0 {
					t.Error("no posterior mean of W is negative: the factors look constrained")
				}
				if !(first.TestMSE < 1) || math.IsNaN(first.TestMSE) {
					t.Errorf("test MSE %v on planted data with noise variance 0.09 (data variance about 1)", first.TestMSE)
				}
			})
		}
	}
}

// TestRowwiseSweepAllocs checks that a sweep of each row-wise model
// allocates nothing, with two workers.
func TestRowwiseSweepAllocs(t *testing.T) {
	skipUnderRace(t)
	train, _, _ := planted(t, 60, 50, 4, 0.5, 0.3, 14)
	for _, model := range []Model{GGG{}, GGGA{}, GGGW{}} {
		if allocs := sweepAllocs(t, model, train, 8, 2, false); allocs != 0 {
			t.Errorf("%s: %v allocations per sweep, want 0", model.Name(), allocs)
		}
	}
}

// BenchmarkSweepRowwise measures one sweep of GGG, GGGA and GGGW, and of
// GRRN for comparison at the same K, on the shapes of BenchmarkSweep, at
// K = 10, 20 and 50, with GOMAXPROCS workers. Run with -count and compare
// the models within one run: the rows of one run are interleaved in time.
// Where the process can read its CPU time (cpuTime), each row also
// reports cpu-ns/op, the CPU time of all its threads per sweep, which
// other processes on a shared machine inflate less than the wall time.
func BenchmarkSweepRowwise(b *testing.B) {
	forMovieLensShapes(b, func(shape string, data func() *Matrix) {
		for _, k := range []int{10, 20, 50} {
			for _, model := range []Model{GRRN{}, GGG{}, GGGA{}, GGGW{}} {
				b.Run(fmt.Sprintf("%s/%s/K=%d", model.Name(), shape, k), func(b *testing.B) {
					benchmarkSweeps(b, model, data(), k)
				})
			}
		}
	})
}
