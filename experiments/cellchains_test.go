package experiments

import (
	"context"
	"strings"
	"testing"

	"github.com/bnmf-lab/bnmf/bnmf"
)

// TestCellChains checks that running a cell's chains from Plan.CellChains
// gives the numbers of the record Plan.Run stores for it: in a
// model-selection study, and in a sparsity study with two chains and
// standardized values.
func TestCellChains(t *testing.T) {
	plans := map[string]*Plan{
		"model-selection":  foldStudy(t, KindModelSelection),
		"standardized x 2": tinyPlan(t, "models: [{name: GRRN}]\nchains: 2\nstandardize: true\n"),
	}
	for name, p := range plans {
		t.Run(name, func(t *testing.T) {
			st, err := LoadStudy(run(t, p, RunOptions{Workers: 1}))
			if err != nil {
				t.Fatal(err)
			}
			if len(st.Records) != len(p.Manifest.Cells) {
				t.Fatalf("%d records for %d cells", len(st.Records), len(p.Manifest.Cells))
			}
			for _, r := range st.Records {
				in, err := p.CellChains(r.Cell, 2)
				if err != nil {
					t.Fatal(err)
				}
				if in.Settings.Seed != r.Seed || in.Train.Len() != r.TrainEntries || len(in.Settings.Test) != r.TestEntries {
					t.Errorf("%s: seed %d, %d train and %d test entries; the record has %d, %d and %d",
						r.Cell, in.Settings.Seed, in.Train.Len(), len(in.Settings.Test), r.Seed, r.TrainEntries, r.TestEntries)
				}
				chains, err := bnmf.RunChains(context.Background(), in.Model, in.Train, in.Settings, in.Chains)
				if err != nil {
					t.Fatal(err)
				}
				chains.Rescale(in.Scale)
				got := metricsOf(chains.Pooled, cellData{})
				want := r.Metrics
				if got.TestMSE != want.TestMSE || got.TestMSEOfMeans != want.TestMSEOfMeans || got.Sigma2Mean != want.Sigma2Mean {
					t.Errorf("%s: test MSE %v, of means %v, sigma^2 %v; the record has %v, %v and %v",
						r.Cell, got.TestMSE, got.TestMSEOfMeans, got.Sigma2Mean, want.TestMSE, want.TestMSEOfMeans, want.Sigma2Mean)
				}
				if tr := chains.Results[0].Trace; len(tr) != len(r.Trace.TrainMSE) || tr[len(tr)-1].TrainMSE != r.Trace.TrainMSE[len(tr)-1] {
					t.Errorf("%s: chain 0's trace differs from the record's", r.Cell)
				}
			}
		})
	}

	// A cell outside the study is refused, not run on made-up data: a
	// model it lacks, and a fold (repeat) or rank beyond its grid, which
	// would otherwise train on every entry and test on none.
	p := plans["model-selection"]
	in := p.Manifest.Cells[0]
	for _, c := range []Cell{
		{Model: "GTT", Rank: in.Rank, Fold: in.Fold, Repeat: in.Repeat},
		{Model: in.Model, Rank: in.Rank, Fold: in.Fold, Repeat: in.Repeat + 1000},
		{Model: in.Model, Rank: in.Rank + 1000, Fold: in.Fold, Repeat: in.Repeat},
	} {
		if _, err := p.CellChains(c, 1); err == nil || !strings.Contains(err.Error(), "no such cell") {
			t.Errorf("cell %s outside the study gave %v, want an error saying so", c.Key(), err)
		}
	}
}
