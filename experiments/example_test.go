package experiments_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/bnmf-lab/bnmf/experiments"
)

func ExampleParseConfig() {
	cfg, err := experiments.ParseConfig("table2.yaml", []byte(`
kind: sparsity
dataset: {name: movielens-100k}
models: [{name: GRRN}, {name: NMF}]
ranks: [20, 50]
fractions: [0.97, 0.98]
repeats: 10
`))
	if err != nil {
		log.Fatal(err)
	}
	cells := cfg.Cells()
	fmt.Println(cfg.Name, "has", len(cells), "cells, written to", cfg.Output)
	for _, c := range cells[:3] {
		fmt.Printf("%s seed %#x\n", c.Key(), experiments.CellSeed(cfg.Seed, c))
	}
	// Output:
	// table2 has 80 cells, written to results/table2
	// GRRN-k20-f0.97-r0 seed 0x83e87257c26c37bc
	// NMF-k20-f0.97-r0 seed 0xb9f7d88e5a0cde93
	// GRRN-k50-f0.97-r0 seed 0x93ad68acbfe2aacd
}

func ExampleParseConfig_error() {
	_, err := experiments.ParseConfig("study.yaml", []byte(`
kind: sparsity
dataset: {name: movielens-100k}
ranks: [20, -30]
fractions: [0.97]
`))
	fmt.Println(err)
	// Output:
	// study.yaml:4: ranks[1]: rank -30 must be positive
}

// ExamplePlan_Run runs a small study on synthetic data, stores a record
// per cell, and reads them back.
func ExamplePlan_Run() {
	dir, err := os.MkdirTemp("", "bnmf-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	cfg, err := experiments.ParseConfig("demo.yaml", []byte(`
kind: sparsity
dataset:
  name: synthetic
  synthetic: {rows: 30, cols: 40, rank: 3, density: 0.3}
models: [{name: GRRN}, {name: NMF}]
ranks: [3]
fractions: [0.8]
repeats: 2
sweeps: 50
burn_in: 25
`))
	if err != nil {
		log.Fatal(err)
	}
	plan, err := experiments.Prepare(cfg, experiments.PrepareOptions{})
	if err != nil {
		log.Fatal(err)
	}
	out := filepath.Join(dir, "demo")
	sum, err := plan.Run(context.Background(), experiments.RunOptions{Output: out})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("ran %d of %d cells\n", sum.Ran, sum.Cells)

	st, err := experiments.LoadStudy(out)
	if err != nil {
		log.Fatal(err)
	}
	for _, r := range st.Records {
		fmt.Printf("%s: %d training and %d test entries, test MSE below 10: %v\n",
			r.Cell.Key(), r.TrainEntries, r.TestEntries, r.Metrics.TestMSE < 10)
	}
	// Output:
	// ran 4 of 4 cells
	// GRRN-k3-f0.8-r0: 240 training and 120 test entries, test MSE below 10: true
	// NMF-k3-f0.8-r0: 240 training and 120 test entries, test MSE below 10: true
	// GRRN-k3-f0.8-r1: 240 training and 120 test entries, test MSE below 10: true
	// NMF-k3-f0.8-r1: 240 training and 120 test entries, test MSE below 10: true
}
