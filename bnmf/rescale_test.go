package bnmf

import (
	"context"
	"fmt"
	"math"
	"slices"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"

	"github.com/bnmf-lab/bnmf/predictive"
)

// TestRescale fits values divided by their unit scale s and maps the
// result back, then checks it in the original units: the test MSE is that
// of the rescaled predictions against the original values, the scores'
// mean and variance are again the predictive mean and variance plus
// sigma^2, each log density is log of the mixture's density at the
// original value, and the coverage is unchanged.
func TestRescale(t *testing.T) {
	train, test, _ := planted(t, 30, 25, 3, 0.4, 0.3, 16)
	const factor = 1000 // values in the thousands
	raw := train.Entries()
	for i := range raw {
		raw[i].Value *= factor
	}
	big, err := NewMatrix(30, 25, raw)
	if err != nil {
		t.Fatal(err)
	}
	s := UnitScale(big)
	if want := math.Sqrt(big.Variance()); s != want || s < 100 {
		t.Fatalf("UnitScale = %v, want %v", s, want)
	}
	_, _, vals := big.RowStorage()
	scaledVals := make([]float64, len(vals))
	for i, v := range vals {
		scaledVals[i] = v / s
	}
	scaledTest := make([]Entry, len(test))
	bigTest := make([]float64, len(test))
	for i, e := range test {
		bigTest[i] = e.Value * factor
		scaledTest[i] = Entry{Row: e.Row, Col: e.Col, Value: bigTest[i] / s}
	}
	ch, err := RunChains(context.Background(), GRRN{}, big.WithValues(scaledVals),
		Settings{Rank: 3, Sweeps: 60, BurnIn: 40, Seed: 5, Test: scaledTest, Scores: &predictive.Settings{Buffer: 20}}, 2)
	if err != nil {
		t.Fatal(err)
	}
	coverage := append([]float64(nil), ch.Pooled.Scores.Scores[0].Coverage...)
	ch.Rescale(s)
	r := ch.Pooled
	var ss float64
	for i, y := range bigTest {
		d := r.PredictiveMean[i] - y
		ss += d * d
	}
	if want := ss / float64(len(test)); !scalar.EqualWithinAbsOrRel(r.TestMSE, want, 0, 1e-10) {
		t.Errorf("rescaled test MSE %v, want %v", r.TestMSE, want)
	}
	sc := r.Scores
	for i := range test {
		if !scalar.EqualWithinAbsOrRel(sc.Mean[i], r.PredictiveMean[i], 0, 1e-10) ||
			!scalar.EqualWithinAbsOrRel(sc.Variance[i], r.PredictiveVariance[i]+r.Sigma2Mean, 0, 1e-8) {
			t.Fatalf("entry %d: scores' mean %v and variance %v; predictive mean %v, variance %v + sigma^2 %v",
				i, sc.Mean[i], sc.Variance[i], r.PredictiveMean[i], r.PredictiveVariance[i], r.Sigma2Mean)
		}
	}
	for l, c := range sc.Scores[0].Coverage {
		if c != coverage[l] {
			t.Errorf("coverage at level %v changed from %v to %v", sc.Levels[l], coverage[l], c)
		}
	}
	// Each chain's last trace value: sigma^2 and the log-likelihood in the
	// original units.
	st := ch.Results[0].Trace[59]
	n := float64(big.Len())
	want := -n/2*math.Log(2*math.Pi*st.Sigma2) - st.TrainMSE*n/(2*st.Sigma2)
	if !scalar.EqualWithinAbsOrRel(st.LogLikelihood, want, 1e-9, 1e-10) {
		t.Errorf("rescaled log-likelihood %v, want %v from the rescaled sigma^2 and train MSE", st.LogLikelihood, want)
	}
}

// TestChainsRescale checks Chains.Rescale against a direct computation,
// with one chain (where Pooled is the chain's own Result, which must be
// scaled once, not twice) and with several (where Pooled is a result of
// its own and must be scaled too). Each number is the one before times s
// (or s^2), computed the same way, so the comparison is exact.
func TestChainsRescale(t *testing.T) {
	train, test, _ := planted(t, 12, 10, 2, 0.5, 0.2, 21)
	const s = 7.5
	for _, n := range []int{1, 3} {
		t.Run(fmt.Sprintf("chains=%d", n), func(t *testing.T) {
			ch, err := RunChains(context.Background(), GRRN{}, train,
				Settings{Rank: 2, Sweeps: 20, BurnIn: 10, Seed: 3, Test: test, Workers: 1}, n)
			if err != nil {
				t.Fatal(err)
			}
			type numbers struct {
				mean, variance []float64
				sigma2, mse    float64
				traceSigma2    float64
			}
			take := func(r *Result) numbers {
				x := numbers{mean: slices.Clone(r.PredictiveMean), variance: slices.Clone(r.PredictiveVariance), sigma2: r.Sigma2Mean, mse: r.TestMSE}
				if len(r.Trace) > 0 {
					x.traceSigma2 = r.Trace[len(r.Trace)-1].Sigma2
				}
				return x
			}
			var before []numbers
			for _, r := range append([]*Result{ch.Pooled}, ch.Results...) {
				before = append(before, take(r))
			}
			ch.Rescale(s)
			for i, r := range append([]*Result{ch.Pooled}, ch.Results...) {
				name := "pooled"
				if i > 0 {
					name = fmt.Sprintf("chain %d", i-1)
				}
				b, got := before[i], take(r)
				for j := range b.mean {
					if got.mean[j] != b.mean[j]*s || got.variance[j] != b.variance[j]*(s*s) {
						t.Fatalf("%s, entry %d: mean %v, variance %v; want %v, %v", name, j, got.mean[j], got.variance[j], b.mean[j]*s, b.variance[j]*(s*s))
					}
				}
				if got.sigma2 != b.sigma2*(s*s) || got.mse != b.mse*(s*s) || got.traceSigma2 != b.traceSigma2*(s*s) {
					t.Errorf("%s: sigma^2 %v, test MSE %v, last traced sigma^2 %v; want %v, %v, %v",
						name, got.sigma2, got.mse, got.traceSigma2, b.sigma2*(s*s), b.mse*(s*s), b.traceSigma2*(s*s))
				}
			}
		})
	}
}
