package bnmf

import (
	"context"
	"math"
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
