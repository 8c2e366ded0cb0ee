package bnmf_test

import (
	"context"
	"fmt"
	"log"

	"github.com/bnmf-lab/bnmf/bnmf"
	"github.com/bnmf-lab/bnmf/mcmcdiag"
)

// ExampleAutoSweeps runs four chains until the R-hat of sigma^2 over the
// kept half of their sweeps is below 1.01, checking after 100, 200, 400
// and 800 sweeps.
func ExampleAutoSweeps() {
	// A 20 x 15 matrix of rank 1, (i+1) (j+1) / 10, every third entry
	// observed.
	var entries []bnmf.Entry
	for i := range 20 {
		for j := range 15 {
			if (i+j)%3 == 0 {
				entries = append(entries, bnmf.Entry{Row: i, Col: j, Value: float64((i+1)*(j+1)) / 10})
			}
		}
	}
	train, err := bnmf.NewMatrix(20, 15, entries)
	if err != nil {
		log.Fatal(err)
	}
	sigma2Mixed := bnmf.StopFunc(func(c *bnmf.Chains) (bool, error) {
		draws := make([][]float64, len(c.Results))
		for k, r := range c.Results {
			for i, st := range r.Trace {
				if r.Settings.IsKept(i + 1) {
					draws[k] = append(draws[k], st.Sigma2)
				}
			}
		}
		return mcmcdiag.RHat(draws) < 1.01, nil
	})
	s := bnmf.Settings{Rank: 1, Seed: 1, Auto: &bnmf.AutoSweeps{MaxSweeps: 800, Stop: sigma2Mixed}}
	chains, err := bnmf.RunChains(context.Background(), bnmf.GRRN{}, train, s, 4)
	if err != nil {
		log.Fatal(err)
	}
	r := chains.Results[0]
	fmt.Println("checks after:", bnmf.AutoCheckpoints(800))
	fmt.Printf("stopped before the cap: %v; burn-in is half: %v\n", r.Settings.Sweeps < 800, r.Kept == r.Settings.Sweeps/2)
	// Output:
	// checks after: [100 200 400 800]
	// stopped before the cap: true; burn-in is half: true
}
