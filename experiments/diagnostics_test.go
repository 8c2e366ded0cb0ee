package experiments

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/bnmf-lab/bnmf/bnmf"
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

// TestConvergenceThresholds checks the thresholds themselves, by the
// quantities flagged rather than the warnings' wording: an R-hat up to
// MaxRHat (1.01) counts as mixed and any above it, including one
// between 1.01 and the older threshold 1.1, does not; a bulk-ESS below
// MinESSPerChain (100) per chain is too few, so with four chains 150 and
// 399 are too few and 400 is enough.
func TestConvergenceThresholds(t *testing.T) {
	good := Convergence{RHat: ptrTo(1.001), ESSBulk: ptrTo(5000)}
	tests := []struct {
		name         string
		chains       int
		rhat, bulk   float64
		unmixed, few bool
	}{
		{"R-hat just below 1.01", 4, 1.0099, 5000, false, false},
		{"R-hat at 1.01", 4, 1.01, 5000, false, false},
		{"R-hat just above 1.01", 4, 1.0101, 5000, true, false},
		{"R-hat between 1.01 and 1.1", 4, 1.05, 5000, true, false},
		{"R-hat just above 1.1", 4, 1.11, 5000, true, false},
		{"one chain, R-hat between 1.01 and 1.1", 1, 1.05, 5000, true, false},
		{"bulk-ESS below 100", 4, 1.001, 99, false, true},
		{"bulk-ESS between 100 and 100 x chains", 4, 1.001, 150, false, true},
		{"bulk-ESS just below 100 x chains", 4, 1.001, 399, false, true},
		{"bulk-ESS at 100 x chains", 4, 1.001, 400, false, false},
		{"one chain, bulk-ESS just below 100", 1, 1.001, 99, false, true},
		{"one chain, bulk-ESS at 100", 1, 1.001, 100, false, false},
		{"one chain, bulk-ESS 150", 1, 1.001, 150, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := Diagnostics{Chains: tt.chains, Kept: 100, TrainMSE: good, Sigma2: good,
				LogLikelihood: Convergence{RHat: ptrTo(tt.rhat), ESSBulk: ptrTo(tt.bulk)}}
			unmixed, few, stuck := d.flags("held-out")
			var wantUnmixed, wantFew []flagged
			if tt.unmixed {
				wantUnmixed = []flagged{{"log-likelihood", tt.rhat}}
			}
			if tt.few {
				wantFew = []flagged{{"log-likelihood", tt.bulk}}
			}
			if !slices.Equal(unmixed, wantUnmixed) || !slices.Equal(few, wantFew) || stuck {
				t.Errorf("flags: unmixed %v, few %v, stuck %v; want unmixed %v, few %v", unmixed, few, stuck, wantUnmixed, wantFew)
			}
		})
	}
}

// TestStuckChainAnywhere checks that a stuck chain is found whichever of
// three chains it is, the first and the middle one included: the ratio
// reported is the largest over the chains, not the last chain's.
func TestStuckChainAnywhere(t *testing.T) {
	const trainVariance, kept = 1.5, 50
	for stuck := range 3 {
		t.Run(fmt.Sprintf("chain %d", stuck), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(7, uint64(stuck)))
			chains := &bnmf.Chains{}
			for c := range 3 {
				r := &bnmf.Result{Settings: bnmf.Settings{Sweeps: kept, Thin: 1}, Sigma2Mean: 0.8}
				if c == stuck {
					r.Sigma2Mean = 3000 // 2000 times the variance: stuck
				}
				for i := range kept {
					r.Trace = append(r.Trace, bnmf.SweepStats{Sweep: i + 1, TrainMSE: 1 + rng.NormFloat64()/10,
						Sigma2: r.Sigma2Mean * (1 + rng.NormFloat64()/10), LogLikelihood: -100 + rng.NormFloat64()})
				}
				chains.Results = append(chains.Results, r)
			}
			d, _ := Diagnose(chains, trainVariance, "held-out")
			if want := 3000 / trainVariance; d.MaxSigma2OverVariance != want {
				t.Errorf("largest sigma^2 over variance %v, want chain %d's %v", d.MaxSigma2OverVariance, stuck, want)
			}
			if _, _, isStuck := d.flags("held-out"); !isStuck {
				t.Errorf("stuck chain %d not flagged", stuck)
			}
		})
	}
}
