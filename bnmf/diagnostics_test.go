package bnmf

import (
	"bytes"
	"encoding/json"

	"fmt"
	"github.com/bnmf-lab/bnmf/mcmcdiag"
	"math"
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
		got := tt.d.warnings(1.27, "held-out", DefaultThresholds())
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
			unmixed, few, stuck := d.flags("held-out", DefaultThresholds())
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
			chains := &Chains{}
			for c := range 3 {
				r := &Result{Settings: Settings{Sweeps: kept, Thin: 1}, Sigma2Mean: 0.8}
				if c == stuck {
					r.Sigma2Mean = 3000 // 2000 times the variance: stuck
				}
				for i := range kept {
					r.Trace = append(r.Trace, SweepStats{Sweep: i + 1, TrainMSE: 1 + rng.NormFloat64()/10,
						Sigma2: r.Sigma2Mean * (1 + rng.NormFloat64()/10), LogLikelihood: -100 + rng.NormFloat64()})
				}
				chains.Results = append(chains.Results, r)
			}
			d, _ := chains.Diagnose(trainVariance, "held-out", Thresholds{})
			if want := 3000 / trainVariance; d.MaxSigma2OverVariance != want {
				t.Errorf("largest sigma^2 over variance %v, want chain %d's %v", d.MaxSigma2OverVariance, stuck, want)
			}
			if _, _, isStuck := d.flags("held-out", DefaultThresholds()); !isStuck {
				t.Errorf("stuck chain %d not flagged", stuck)
			}
		})
	}
}

// ar1 is a source of AR(1) series x_t = mu + phi (x_{t-1} - mu) + e_t,
// with e_t ~ N(0, sd^2 (1 - phi^2)), so that the stationary sd is sd; it
// starts in the stationary distribution.
type ar1 struct {
	rng         *rand.Rand
	mu, sd, phi float64
	x           float64
	started     bool
	values      []float64
}

func (a *ar1) upTo(n int) []float64 {
	for len(a.values) < n {
		if !a.started {
			a.x, a.started = a.mu+a.sd*a.rng.NormFloat64(), true
		} else {
			a.x = a.mu + a.phi*(a.x-a.mu) + a.sd*math.Sqrt(1-a.phi*a.phi)*a.rng.NormFloat64()
		}
		a.values = append(a.values, a.x)
	}
	return a.values[:n]
}

// syntheticChains stands for the chains of RunChains with
// Settings.Auto: chains whose sigma^2, held-out MSE and two tracked
// predictions are independent AR(1) series with coefficient phi, sigma^2
// around sigma2.
type syntheticChains struct {
	sigma2, mse []*ar1
	tracked     [][2]*ar1
}

func newSyntheticChains(n int, phi, sigma2 float64, seed uint64) *syntheticChains {
	rng := rand.New(rand.NewPCG(seed, 3))
	s := &syntheticChains{}
	for range n {
		s.sigma2 = append(s.sigma2, &ar1{rng: rng, mu: sigma2, sd: 0.05 * sigma2, phi: phi})
		s.mse = append(s.mse, &ar1{rng: rng, mu: 1, sd: 0.1, phi: phi})
		s.tracked = append(s.tracked, [2]*ar1{{rng: rng, mu: 3, sd: 0.4, phi: phi}, {rng: rng, mu: 2, sd: 0.3, phi: phi}})
	}
	return s
}

// after returns the chains as they are after n sweeps, kept half and all,
// as the stopping rule is shown them.
func (s *syntheticChains) after(n int) *Chains {
	test := []Entry{{Row: 0, Col: 0, Value: 3}, {Row: 1, Col: 1, Value: 2}}
	out := &Chains{}
	for c := range s.sigma2 {
		r := &Result{Settings: Settings{Sweeps: n, BurnIn: n / 2, Thin: 1, Test: test, Tracked: []int{0, 1}}}
		sig, mse := s.sigma2[c].upTo(n), s.mse[c].upTo(n)
		a, b := s.tracked[c][0].upTo(n), s.tracked[c][1].upTo(n)
		for i := range n {
			r.Trace = append(r.Trace, SweepStats{Sweep: i + 1, Sigma2: sig[i], TestMSE: mse[i]})
			r.Tracked = append(r.Tracked, []float64{a[i], b[i]})
			if i >= n/2 {
				r.Sigma2Mean += sig[i] / float64(n-n/2)
			}
		}
		out.Results = append(out.Results, r)
	}
	return out
}

// stopsAfter runs the stopping rule on s at AutoCheckpoints(max),
// as RunChains does, and returns the verdict at the sweep it stopped.
func stopsAfter(s *syntheticChains, maxSweeps int, trainVariance float64) *AutoStop {
	checks := AutoCheckpoints(maxSweeps)
	rule := AutoRule{TrainVariance: trainVariance}
	for _, n := range checks[:len(checks)-1] {
		if stop, _ := rule.Stop(s.after(n)); stop {
			return s.after(n).JudgeAuto(trainVariance, maxSweeps, Thresholds{})
		}
	}
	return s.after(maxSweeps).JudgeAuto(trainVariance, maxSweeps, Thresholds{})
}

// TestAutoRule runs the stopping rule on synthetic chains of four chains
// each, seeded, at the checkpoints of a cap of 16000 sweeps (125, 250,
// ..., 16000).
//
// Independent draws: N sweeps keep 4 N/2 draws pooled, whose ESS is
// about their number, so the rule can first stop at N = 250 (500 draws)
// and, with R-hat's sampling noise, should by N = 500.
// AR(1) with phi = 0.8: the ESS per draw is (1 - phi) / (1 + phi) =
// 0.11, so 400 takes about 3,600 pooled draws, N of about 1800, which
// the worst of four quantities may miss at N = 2000 but hardly at 8000
// (ESS about 1800): the chains run 4 to 32 times as long as the
// independent ones.
// A stuck chain (sigma^2 50 times the data's variance) stops at the
// first check, 125 sweeps; a very slow one (phi = 0.999, ESS about 8 per
// 16,000 draws) reaches the cap not converged.
func TestAutoRule(t *testing.T) {
	const maxSweeps = 16000
	cases := []struct {
		name        string
		phi, sigma2 float64
		verdict     string
		minN, maxN  int
	}{
		{"independent draws stop early", 0, 1, Converged, 250, 500},
		{"an AR(1) chain runs longer", 0.8, 1, Converged, 2000, 8000},
		{"a stuck chain stops at once", 0, 50, Stuck, 125, 125},
		{"a very slow chain reaches the cap", 0.999, 1, NotConverged, maxSweeps, maxSweeps},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			seeds := uint64(5)
			if testing.Short() {
				seeds = 1
			}
			for seed := range seeds {
				a := stopsAfter(newSyntheticChains(4, c.phi, c.sigma2, seed), maxSweeps, 1)
				if a.Verdict != c.verdict || a.Sweeps < c.minN || a.Sweeps > c.maxN || a.MaxSweeps != maxSweeps {
					t.Errorf("seed %d: %s after %d sweeps (cap %d), want %s after %d to %d; sigma^2 %v, MSE %v, predictions %v",
						seed, a.Verdict, a.Sweeps, a.MaxSweeps, c.verdict, c.minN, c.maxN, a.Sigma2, a.TestMSE, a.Predictions)
				}
				if a.TestMSE == nil || a.Predictions == nil {
					t.Errorf("seed %d: the held-out MSE (%v) or the predictions (%v) were not diagnosed", seed, a.TestMSE, a.Predictions)
				}
				t.Logf("seed %d: %s after %d sweeps", seed, a.Verdict, a.Sweeps)
				ws := a.Warnings("held-out", Thresholds{})
				switch a.Verdict {
				case Converged:
					if len(ws) > 0 {
						t.Errorf("seed %d: converged with warnings %v", seed, ws)
					}
				case NotConverged:
					if len(ws) != 1 || !strings.HasPrefix(ws[0], "convergence: not converged: sweeps: auto reached max_sweeps 16000") {
						t.Errorf("seed %d: warnings %v", seed, ws)
					}
				case Stuck:
					if len(ws) != 1 || !strings.Contains(ws[0], "stopped after 125 sweeps: a chain is stuck") {
						t.Errorf("seed %d: warnings %v", seed, ws)
					}
				}
			}
		})
	}
}

// TestDiagnoseQuantityWithoutField checks that a per-sweep quantity added
// as one line (no field of Diagnostics) is diagnosed into
// Diagnostics.Others under its name, listed by Quantities and flagged by
// the warnings, and that diagnostics without such quantities encode
// without an "others" key, as records always have.
func TestDiagnoseQuantityWithoutField(t *testing.T) {
	ch := newSyntheticChains(4, 0.99, 1, 7).after(400)
	// The test MSE trace is an AR(1) series with phi = 0.99: over 200
	// kept draws of four chains its R-hat is far above 1.01.
	extra := append(sweepQuantities(), sweepQuantity{name: "held-out MSE", value: func(r *Result, i int) float64 { return r.Trace[i].TestMSE }})
	d, warns := ch.diagnose(extra, 1, "held-out", Thresholds{})
	got := d.Others["held-out MSE"]
	want := convergenceOf(mcmcdiag.Summarize(keptSeries(ch, keptIndices(ch.Results[0]), extra[len(extra)-1].value)))
	if got == nil || got.RHat == nil || *got.RHat != *want.RHat || *got.ESSBulk != *want.ESSBulk {
		t.Fatalf("Others[held-out MSE] = %v, want %v", got, want)
	}
	if *got.RHat < 1.05 {
		t.Errorf("R-hat of an AR(1) series with phi 0.99 is %.3f; the test needs it unmixed", *got.RHat)
	}
	names := []string{}
	for _, q := range d.Quantities("held-out") {
		names = append(names, q.Name)
	}
	if !slices.Contains(names, "held-out MSE") {
		t.Errorf("Quantities = %v, without held-out MSE", names)
	}
	if !strings.Contains(strings.Join(warns, "\n"), "held-out MSE") {
		t.Errorf("warnings do not flag the unmixed held-out MSE: %q", warns)
	}
	plain, _ := ch.Diagnose(1, "held-out", Thresholds{})
	b, err := json.Marshal(plain)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(b, []byte("others")) {
		t.Errorf("diagnostics of the standard quantities encode an others key: %s", b)
	}
}

// TestAutoStuckNotWhileComingDown checks the stuck verdict of JudgeAuto
// at the first check of sweeps: auto (125 sweeps, the kept half from
// sweep 63): four chains whose sigma^2 starts near 4e6, as the paper's
// start puts GEE's at K = 50 on MovieLens 100K, and falls geometrically
// to 1.4 by sweep 100 (as in ml100k-diagnostics' GEE, K = 50, 97%
// unobserved) are not stuck, although their mean over the kept half is
// far above ten times the training values' variance; chains that fall
// only to 2e5 and stay there are.
func TestAutoStuckNotWhileComingDown(t *testing.T) {
	const n, trainVariance = 125, 1.27
	chains := func(floor float64) *Chains {
		c := &Chains{}
		for chain := range 4 {
			r := &Result{Settings: Settings{Sweeps: n, BurnIn: n / 2, Thin: 1}}
			for i := range n {
				s := math.Max(floor, 4e6*math.Pow(1.4/4e6, float64(i)/100)) * (1 + 0.01*float64(chain))
				r.Trace = append(r.Trace, SweepStats{Sweep: i + 1, Sigma2: s})
				if i >= n/2 {
					r.Sigma2Mean += s / float64(n-n/2)
				}
			}
			c.Results = append(c.Results, r)
		}
		return c
	}
	for _, c := range []struct {
		name  string
		floor float64
		stuck bool
	}{
		{"coming down to 1.4 by sweep 100", 1.4, false},
		{"staying at 2e5", 2e5, true},
	} {
		ch := chains(c.floor)
		a := ch.JudgeAuto(trainVariance, 8000, Thresholds{})
		if !(a.MaxSigma2OverVariance > 10) {
			t.Fatalf("%s: the kept half's mean sigma^2 is %.3g times the variance; the test needs it above 10", c.name, a.MaxSigma2OverVariance)
		}
		if got := a.Verdict == Stuck; got != c.stuck {
			t.Errorf("%s: verdict %q, want stuck %v (recent sigma^2 %.3g times the variance)", c.name, a.Verdict, c.stuck, recentSigma2OverVariance(ch, trainVariance))
		}
	}
}
