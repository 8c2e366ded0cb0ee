package bnmf

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/bnmf-lab/bnmf/internal/synthetic"
	"github.com/bnmf-lab/bnmf/predictive"
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
// model on matrices shaped like cleaned MovieLens 100K and 1M: the
// entry-wise samplers, NMF, the row-wise ones (GGG, GGGA, GGGW) and the
// Poisson ones (PGG, PGGG, the values 1 to 5 taken as counts), each of
// which scripts/floor-ratio.sh compares with a C floor of its own.
func BenchmarkSweep(b *testing.B) {
	forMovieLensShapes(b, func(shape string, data func() *Matrix) {
		for _, model := range []Model{GEE{}, GTT{}, GTTN{}, GRRN{}, NMF{}, GGGU{}, GLL{}, GLLI{}, GEEA{}, GEG{}, GL21{}, GVnG{}, GVG{},
			GGG{}, GGGA{}, GGGW{}, PGG{}, PGGG{}} {
			for _, k := range []int{10, 20, 50} {
				b.Run(fmt.Sprintf("%s/%s/K=%d", model.Name(), shape, k), func(b *testing.B) {
					benchmarkSweeps(b, model, data(), k)
				})
			}
		}
	})
}

// ml25mShape builds the matrix of synthetic.ML25M, with the shape and
// number of observed entries of MovieLens 25M.
func ml25mShape(tb testing.TB) *Matrix {
	tb.Helper()
	entries := make([]Entry, 0, synthetic.ML25MObserved)
	for e := range synthetic.ML25M() {
		entries = append(entries, e)
	}
	m, err := NewMatrix(synthetic.ML25MRows, synthetic.ML25MCols, entries)
	if err != nil {
		tb.Fatal(err)
	}
	return m
}

// BenchmarkSweep25M measures one GRRN sweep at K = 50 on the MovieLens 25M
// shape, with all of GOMAXPROCS as workers, by default and with
// Settings.Float32Factors. Building the matrix takes tens of seconds and
// about 2 GB; run it alone:
//
//	go test ./bnmf -run '^$' -bench Sweep25M -benchtime 3x
func BenchmarkSweep25M(b *testing.B) {
	data := ml25mShape(b)
	runtime.GC()
	b.Run("float64", func(b *testing.B) { benchmarkSweeps(b, GRRN{}, data, 50) })
	b.Run("float32", func(b *testing.B) { benchmarkSweepsFloat32(b, GRRN{}, data, 50) })
}

// BenchmarkSweepFloat32 is BenchmarkSweep for GRRN at K = 50 with
// Settings.Float32Factors.
func BenchmarkSweepFloat32(b *testing.B) {
	forMovieLensShapes(b, func(shape string, data func() *Matrix) {
		b.Run(fmt.Sprintf("GRRN/%s/K=50", shape), func(b *testing.B) { benchmarkSweepsFloat32(b, GRRN{}, data(), 50) })
	})
}

// forMovieLensShapes calls bench with the name and a matrix
// (movieLensShape) of each shape of cleaned MovieLens the sweep benchmarks
// run on: "ml100k" (943 x 1473 with 99,723 ratings) and "ml1m" (6040 x
// 3503 with 999,917). The matrix is built when a sub-benchmark first asks
// for it, so that a run that selects one shape does not build the other.
func forMovieLensShapes(b *testing.B, bench func(shape string, data func() *Matrix)) {
	for _, sh := range []struct {
		name            string
		rows, cols, nnz int
	}{
		{"ml100k", 943, 1473, 99723},
		{"ml1m", 6040, 3503, 999917},
	} {
		var built *Matrix
		bench(sh.name, func() *Matrix {
			if built == nil {
				built = movieLensShape(b, sh.rows, sh.cols, sh.nnz)
				// Building the matrix leaves garbage (the map of drawn
				// positions); collect it now so that the collector does
				// not run during the measured sweeps.
				runtime.GC()
			}
			return built
		})
	}
}

// benchmarkSweeps times sweeps of model's chain on data at rank k, with
// GOMAXPROCS workers, after its initialisation, and reports cpu-ns/op, the
// process's CPU time per sweep, where processCPUTime can read it.
func benchmarkSweeps(b *testing.B, model Model, data *Matrix, k int) {
	benchmarkChainSweeps(b, model, data, k, false)
}

// benchmarkSweepsFloat32 is benchmarkSweeps with Settings.Float32Factors.
func benchmarkSweepsFloat32(b *testing.B, model Model, data *Matrix, k int) {
	benchmarkChainSweeps(b, model, data, k, true)
}

func benchmarkChainSweeps(b *testing.B, model Model, data *Matrix, k int, float32Factors bool) {
	ch, err := model.newChain(data, k)
	if err != nil {
		b.Fatal(err)
	}
	if f, ok := ch.(float32Reader); ok && float32Factors {
		f.useFloat32Factors()
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
	cpu0, cpuOK := processCPUTime()
	sweep := 1
	for b.Loop() {
		if err := ch.sweep(p, sweep); err != nil {
			b.Fatal(err)
		}
		sweep++
	}
	// On a loaded machine the wall time per sweep mostly measures the
	// wait for a core; the process's CPU time per sweep does not.
	if cpu1, ok := processCPUTime(); ok && cpuOK {
		b.ReportMetric(float64(cpu1-cpu0)/float64(b.N), "cpu-ns/op")
	}
}

// BenchmarkTrack measures what tracking held-out predictions for the
// convergence diagnostics adds to each sweep: copying the predictions of
// 20 of the 97,761 test entries of the 100K shape at 98% unobserved (the
// predictions themselves are computed every sweep anyway, for the test
// MSE). Compare with BenchmarkSweep/GRRN/ml100k/K=50.
func BenchmarkTrack(b *testing.B) {
	const nt, tracked, sweeps = 97761, 20, 500
	sm := &summary{pred: make([]float64, nt), tracked: make([]int, tracked), trackedPred: make([]float64, sweeps*tracked)}
	for i := range sm.tracked {
		sm.tracked[i] = i * (nt / tracked)
	}
	b.ReportAllocs()
	sweep := 0
	for b.Loop() {
		sm.track(sweep%sweeps + 1)
		sweep++
	}
}

// BenchmarkRunScores compares a whole run with and without the predictive
// scores on a cell shaped like the 100K sparsity study at 98% unobserved
// (943 x 1473, 27,781 training and 71,942 test entries; K = 50; 500
// sweeps of which the last 100 are kept, as the paper's protocol), one
// worker: the scores' share of a cell's time is
// (scores - plain) / plain.
func BenchmarkRunScores(b *testing.B) {
	all := movieLensShape(b, 943, 1473, 99723).Entries()
	rng := rand.New(rand.NewPCG(5, 6))
	rng.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
	const trainN = 27781
	train, err := NewMatrix(943, 1473, all[:trainN])
	if err != nil {
		b.Fatal(err)
	}
	test := all[trainN:]
	for _, scores := range []bool{false, true} {
		name := "plain"
		s := Settings{Rank: 50, Sweeps: 500, BurnIn: 400, Seed: 1, Workers: 1, Test: test}
		if scores {
			name = "scores"
			s.Scores = &predictive.Settings{}
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if _, err := Run(context.Background(), GRRN{}, train, s); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkSweepBiases compares a GRRN sweep with and without offsets
// (Biased) on the MovieLens 100K and 1M shapes at K = 20, one after the
// other within each run so that repeated runs (-count) interleave them
// under the same load; compare their cpu-ns/op.
func BenchmarkSweepBiases(b *testing.B) {
	for _, sh := range []struct {
		name            string
		rows, cols, nnz int
	}{{"ml100k", 943, 1473, 99723}, {"ml1m", 6040, 3503, 999917}} {
		data := movieLensShape(b, sh.rows, sh.cols, sh.nnz)
		runtime.GC()
		for _, model := range []Model{GRRN{}, WithBiases(GRRN{})} {
			b.Run(fmt.Sprintf("%s/%s/K=20", model.Name(), sh.name), func(b *testing.B) {
				benchmarkSweeps(b, model, data, 20)
			})
		}
	}
}
