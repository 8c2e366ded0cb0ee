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
					benchmarkSweeps(b, model, data, k)
				})
			}
		}
	}
}

// ml25mShape builds a matrix with the shape and number of observed entries
// of MovieLens 25M (162,541 x 59,047, 25,000,095 ratings), values 1 to 5.
// Each row takes a run of distinct columns, ceil or floor of the average
// count, from a row-dependent start with a stride coprime to the number of
// columns, so no map of drawn positions is needed at this size.
func ml25mShape(tb testing.TB) *Matrix {
	tb.Helper()
	const rows, cols, observed = 162541, 59047, 25000095
	rng := rand.New(rand.NewPCG(3, 4))
	entries := make([]Entry, 0, observed)
	const stride = 7919 // prime, and 59047 = 137 * 431 is not a multiple of it
	for i := range rows {
		n := observed / rows
		if i < observed%rows {
			n++
		}
		start := rng.IntN(cols)
		for j := range n {
			entries = append(entries, Entry{Row: i, Col: (start + j*stride) % cols, Value: float64(1 + rng.IntN(5))})
		}
	}
	m, err := NewMatrix(rows, cols, entries)
	if err != nil {
		tb.Fatal(err)
	}
	return m
}

// BenchmarkSweep25M measures one GRRN sweep at K = 50 on the MovieLens 25M
// shape, with all of GOMAXPROCS as workers. Building the matrix takes tens
// of seconds and about 2 GB; run it alone:
//
//	go test ./bnmf -run '^$' -bench Sweep25M -benchtime 3x
func BenchmarkSweep25M(b *testing.B) {
	data := ml25mShape(b)
	runtime.GC()
	benchmarkSweeps(b, GRRN{}, data, 50)
}

// benchmarkSweeps times sweeps of model's chain on data at rank k, with
// GOMAXPROCS workers, after its initialisation.
func benchmarkSweeps(b *testing.B, model Model, data *Matrix, k int) {
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
}
