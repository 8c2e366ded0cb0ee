package bnmf

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkSweepPoisson measures one sweep of PGG and PGGG (both splits of
// the counts included) beside GRRN, on the MovieLens-shaped matrices of
// BenchmarkSweep (their values, 1 to 5, are counts) at K = 10, 20 and 50.
// GRRN runs in the same benchmark so that -count interleaves it with the
// Poisson models:
//
//	go test ./bnmf -run '^$' -bench SweepPoisson -count 5
func BenchmarkSweepPoisson(b *testing.B) {
	forMovieLensShapes(b, func(shape string, data func() *Matrix) {
		for _, k := range []int{10, 20, 50} {
			for _, model := range []Model{GRRN{}, PGG{}, PGGG{}} {
				b.Run(fmt.Sprintf("%s/%s/K=%d", model.Name(), shape, k), func(b *testing.B) {
					benchmarkSweeps(b, model, data(), k)
				})
			}
		}
	})
}

// BenchmarkSplitCount measures the split of a count of 3 over K
// categories (three categorical draws), the inner step of the Poisson
// models' sweeps.
func BenchmarkSplitCount(b *testing.B) {
	for _, k := range []int{10, 20, 50} {
		b.Run(fmt.Sprintf("K=%d", k), func(b *testing.B) {
			src := rand.NewPCG(1, 2)
			cum := make([]float64, k)
			var total float64
			for i := range cum {
				total += 0.5 + float64(i%7)/7
				cum[i] = total
			}
			tally, tally2 := make([]float64, k), make([]float64, k)
			for b.Loop() {
				splitCount(src, cum, 3, tally, tally2)
			}
		})
	}
}
