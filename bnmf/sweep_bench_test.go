package bnmf

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"
)

// movieLensShape draws a synthetic matrix with the shape and number of
// observed entries of cleaned MovieLens (entries placed uniformly at
// random, values 1 to 5).
func movieLensShape(tb testing.TB, rows, cols, observed int) *Matrix {
	tb.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	seen := make(map[[2]int]bool, observed)
	entries := make([]Entry, 0, observed)
	for len(entries) < observed {
		i, j := rng.IntN(rows), rng.IntN(cols)
		if seen[[2]int{i, j}] {
			continue
		}
		seen[[2]int{i, j}] = true
		entries = append(entries, Entry{Row: i, Col: j, Value: float64(1 + rng.IntN(5))})
	}
	m, err := NewMatrix(rows, cols, entries)
	if err != nil {
		tb.Fatal(err)
	}
	return m
}

// BenchmarkSweep measures one sweep (W, Z, hyperparameters and sigma^2) per
// model on matrices shaped like cleaned MovieLens 100K and 1M.
func BenchmarkSweep(b *testing.B) {
	shapes := []struct {
		name            string
		rows, cols, nnz int
	}{
		{"ml100k", 943, 1473, 99723},
		{"ml1m", 6040, 3503, 999917},
	}
	for _, sh := range shapes {
		data := movieLensShape(b, sh.rows, sh.cols, sh.nnz)
		// Building the matrix leaves garbage (the map of drawn
		// positions); collect it now so that the collector does not run
		// on the measured cores during the first benchmarks.
		runtime.GC()
		for _, model := range []Model{GEE{}, GTT{}, GTTN{}, GRRN{}, NMF{}} {
			for _, k := range []int{20, 50} {
				b.Run(fmt.Sprintf("%s/%s/K=%d", model.Name(), sh.name, k), func(b *testing.B) {
					ch, err := model.newChain(data, k)
					if err != nil {
						b.Fatal(err)
					}
					s, err := Settings{Rank: k}.resolved()
					if err != nil {
						b.Fatal(err)
					}
					p := newPool(s.Workers, 1, ch.scratchSize())
					defer p.close()
					if err := ch.init(p); err != nil {
						b.Fatal(err)
					}
					b.ReportAllocs()
					sweep := 1
					for b.Loop() {
						if err := ch.sweep(p, sweep); err != nil {
							b.Fatal(err)
						}
						sweep++
					}
				})
			}
		}
	}
}
