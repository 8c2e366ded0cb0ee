package experiments

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func ptrTo(x float64) *float64 { return &x }

// TestDiagnosticWarnings checks which diagnostics are flagged, with their
// numbers, at the thresholds of Vehtari et al. (2021).
func TestDiagnosticWarnings(t *testing.T) {
	good := Convergence{RHat: ptrTo(1.005), ESSBulk: ptrTo(900), ESSTail: ptrTo(700)}
	tests := []struct {
		name string
		d    Diagnostics
		want []string
	}{
		{"mixed", Diagnostics{Chains: 4, Kept: 100, TrainMSE: good, Sigma2: good, LogLikelihood: good, MaxSigma2OverVariance: 0.8}, nil},
		{"unmixed sigma^2", Diagnostics{Chains: 4, Kept: 100, TrainMSE: good, LogLikelihood: good,
			Sigma2: Convergence{RHat: ptrTo(1.34), ESSBulk: ptrTo(12)}, MaxSigma2OverVariance: 0.8},
			[]string{"R-hat above 1.01 across 4 chains of 100 kept sweeps: sigma^2 1.34", "bulk-ESS below 100 per chain (400 in all): sigma^2 12"}},
		{"one chain", Diagnostics{Chains: 1, Kept: 100, TrainMSE: Convergence{RHat: ptrTo(1.2), ESSBulk: ptrTo(150)}, Sigma2: good, LogLikelihood: good},
			[]string{"across the two halves of its chain of 100 kept sweeps: train MSE 1.2"}},
		{"stuck", Diagnostics{Chains: 2, Kept: 100, TrainMSE: good, Sigma2: good, LogLikelihood: good, MaxSigma2OverVariance: 2.5e5},
			[]string{"stuck chain: mean sigma^2 is 2.5e+05 times the training values' variance 1.27"}},
		{"undefined is not flagged", Diagnostics{Chains: 2, Kept: 100, TrainMSE: Convergence{}, Sigma2: good, LogLikelihood: good}, nil},
	}
	for _, tt := range tests {
		got := tt.d.warnings(1.27, "held-out")
		if len(got) != len(tt.want) {
			t.Errorf("%s: warnings %q, want %d", tt.name, got, len(tt.want))
			continue
		}
		for i, w := range tt.want {
			if !strings.HasPrefix(got[i], "convergence: ") || !strings.Contains(got[i], w) {
				t.Errorf("%s: warning %q, want one containing %q", tt.name, got[i], w)
			}
		}
	}
}

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
