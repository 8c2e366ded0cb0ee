package experiments

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestDiagnosticsInRecords checks that a Bayesian cell's record carries
// diagnostics over its chains and tracked entries, and NMF's none.
func TestDiagnosticsInRecords(t *testing.T) {
	p := tinyPlan(t, "models: [{name: GRRN}, {name: NMF}]\nchains: 2\n")
	st, err := LoadStudy(run(t, p, RunOptions{Workers: 2}))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range st.Records {
		d := r.Diagnostics
		if r.Cell.Model == "NMF" {
			if d != nil {
				t.Errorf("%s has diagnostics", r.Cell.Key())
			}
			continue
		}
		// tinyStudy keeps sweeps 61 to 120 of each chain.
		if d == nil || d.Chains != 2 || d.Kept != 60 || d.Tracked != trackedEntries || d.Predictions == nil ||
			d.TrainMSE.RHat == nil || d.Sigma2.ESSBulk == nil || d.MaxSigma2OverVariance <= 0 {
			t.Fatalf("%s: diagnostics %+v", r.Cell.Key(), d)
		}
		if *d.TrainMSE.RHat < 0.9 || *d.TrainMSE.RHat > 3 {
			t.Errorf("%s: train MSE R-hat %v is not a plausible R-hat", r.Cell.Key(), *d.TrainMSE.RHat)
		}
	}
}

func TestTrackedIndices(t *testing.T) {
	if got := trackedIndices(rand.NewPCG(1, 2), 5); !slices.Equal(got, []int{0, 1, 2, 3, 4}) {
		t.Errorf("a test set of 5 tracks %v, want all", got)
	}
	a := trackedIndices(TrackedSource(1, 0.97, 3), 1000)
	b := trackedIndices(TrackedSource(1, 0.97, 3), 1000)
	if len(a) != trackedEntries || !slices.Equal(a, b) || !slices.IsSorted(a) || slices.Compact(slices.Clone(a))[trackedEntries-1] != a[trackedEntries-1] {
		t.Errorf("tracked %v and %v: want %d distinct sorted indices, the same each time", a, b, trackedEntries)
	}
	if c := trackedIndices(TrackedSource(1, 0.97, 4), 1000); slices.Equal(a, c) {
		t.Error("two repeats track the same entries")
	}
}
