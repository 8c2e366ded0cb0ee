package bnmf

import (
	"context"
	"math"
	"reflect"
	"sync"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"

	"github.com/bnmf-lab/bnmf/predictive"
)

// withoutTimes returns r with its trace's wall times zeroed, and its NaN
// log-likelihoods (a point estimate's) too, so that reflect.DeepEqual can
// compare it.
func withoutTimes(r *Result) *Result {
	c := *r
	c.Trace = append([]SweepStats(nil), r.Trace...)
	for i := range c.Trace {
		c.Trace[i].Elapsed = 0
		if math.IsNaN(c.Trace[i].LogLikelihood) {
			c.Trace[i].LogLikelihood = 0
		}
	}
	return &c
}

// TestOneChainIsRun checks that one chain of RunChains is exactly Run, so
// that records of single-chain runs stay valid as chain 0.
func TestOneChainIsRun(t *testing.T) {
	train, test, _ := planted(t, 30, 25, 3, 0.4, 0.3, 11)
	s := Settings{Rank: 3, Sweeps: 40, Seed: 7, Test: test, Workers: 2}
	for _, model := range []Model{GRRN{}, GEE{}, NMF{}, Bias{}} {
		want, err := Run(context.Background(), model, train, s)
		if err != nil {
			t.Fatal(err)
		}
		got, err := RunChains(context.Background(), model, train, s, 1)
		if err != nil {
			t.Fatal(err)
		}
		if got.Pooled != got.Results[0] || !reflect.DeepEqual(withoutTimes(got.Pooled), withoutTimes(want)) {
			t.Errorf("%s: one chain of RunChains differs from Run", model.Name())
		}
	}
}

// TestPooledChains checks the pooled summary of three chains against a
// direct two-pass computation over every kept sweep of every chain (the
// predictions of all test entries are tracked), and that neither the
// chains nor the pool depend on the number of workers.
func TestPooledChains(t *testing.T) {
	train, test, _ := planted(t, 30, 25, 3, 0.4, 0.3, 12)
	all := make([]int, len(test))
	for i := range all {
		all[i] = i
	}
	s := Settings{Rank: 3, Sweeps: 60, BurnIn: 40, Thin: 2, Seed: 9, Test: test, Tracked: all}
	var runs []*Chains
	for _, workers := range []int{1, 2, 5} {
		s.Workers = workers
		var mu sync.Mutex
		seen := map[int]int{}
		s.Recorder = recorderFunc(func(st SweepStats) error {
			mu.Lock()
			defer mu.Unlock()
			seen[st.Chain]++
			return nil
		})
		ch, err := RunChains(context.Background(), GRRN{}, train, s, 3)
		if err != nil {
			t.Fatal(err)
		}
		if len(seen) != 3 || seen[0] != 60 || seen[2] != 60 {
			t.Errorf("workers %d: the recorder saw sweeps per chain %v, want 60 for each of 3", workers, seen)
		}
		runs = append(runs, ch)
	}
	for _, other := range runs[1:] {
		for c := range 3 {
			if !reflect.DeepEqual(withoutTimes(other.Results[c]).Tracked, runs[0].Results[c].Tracked) ||
				other.Results[c].TestMSE != runs[0].Results[c].TestMSE {
				t.Errorf("chain %d depends on the number of workers", c)
			}
		}
		if !reflect.DeepEqual(other.Pooled.PredictiveMean, runs[0].Pooled.PredictiveMean) ||
			!reflect.DeepEqual(other.Pooled.PredictiveVariance, runs[0].Pooled.PredictiveVariance) {
			t.Error("the pooled summary depends on the number of workers")
		}
	}
	ch := runs[0]
	if ch.Results[1].TestMSE == ch.Results[0].TestMSE {
		t.Error("chains 0 and 1 gave the same test MSE: are their seeds different?")
	}
	// Kept sweeps: 42, 44, ..., 60, so 10 per chain.
	var kept [][]float64
	for _, r := range ch.Results {
		if r.Kept != 10 {
			t.Fatalf("a chain kept %d sweeps, want 10", r.Kept)
		}
		for sweep := 42; sweep <= 60; sweep += 2 {
			kept = append(kept, r.Tracked[sweep-1])
		}
	}
	n := float64(len(kept))
	for e := range test {
		var mean, v float64
		for _, row := range kept {
			mean += row[e] / n
		}
		for _, row := range kept {
			d := row[e] - mean
			v += d * d / n
		}
		// Streaming (Welford) and two-pass sums agree to rounding.
		if !scalar.EqualWithinAbsOrRel(ch.Pooled.PredictiveMean[e], mean, 1e-12, 1e-10) ||
			!scalar.EqualWithinAbsOrRel(ch.Pooled.PredictiveVariance[e], v, 1e-12, 1e-8) {
			t.Fatalf("entry %d: pooled mean %v and variance %v, direct %v and %v", e,
				ch.Pooled.PredictiveMean[e], ch.Pooled.PredictiveVariance[e], mean, v)
		}
	}
	if ch.Pooled.Kept != 30 || ch.Pooled.Trace != nil {
		t.Errorf("pooled Kept %d and Trace %v, want 30 and nil", ch.Pooled.Kept, ch.Pooled.Trace)
	}
}

// TestLogLikelihood checks the per-sweep log-likelihood against its formula
// from the sweep's train MSE and sigma^2, and that NMF has none.
func TestLogLikelihood(t *testing.T) {
	train, _, _ := planted(t, 20, 20, 2, 0.5, 0.3, 13)
	res, err := Run(context.Background(), GTT{}, train, Settings{Rank: 2, Sweeps: 5, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	n := float64(train.Len())
	for _, st := range res.Trace {
		want := -n/2*math.Log(2*math.Pi*st.Sigma2) - st.TrainMSE*n/(2*st.Sigma2)
		if !scalar.EqualWithinAbsOrRel(st.LogLikelihood, want, 1e-9, 1e-12) {
			t.Errorf("sweep %d: log-likelihood %v, want %v", st.Sweep, st.LogLikelihood, want)
		}
	}
	res, err = Run(context.Background(), NMF{}, train, Settings{Rank: 2, Sweeps: 2, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !math.IsNaN(res.Trace[0].LogLikelihood) {
		t.Errorf("NMF's log-likelihood is %v, want NaN", res.Trace[0].LogLikelihood)
	}
}

func TestRunChainsRejects(t *testing.T) {
	train, test, _ := planted(t, 10, 10, 2, 0.5, 0.3, 14)
	if _, err := RunChains(context.Background(), GRRN{}, train, Settings{Rank: 2}, 0); err == nil {
		t.Error("no chains: no error")
	}
	if _, err := Run(context.Background(), GRRN{}, train, Settings{Rank: 2, Test: test, Tracked: []int{len(test)}}); err == nil {
		t.Error("a tracked index outside Test: no error")
	}
}

// recorderFunc is a Recorder made of a function.
type recorderFunc func(SweepStats) error

func (f recorderFunc) Record(st SweepStats) error { return f(st) }

// TestEmptyLines checks the counts of rows and columns without training
// entries on a 3 x 4 matrix whose row 1 and columns 2 and 3 are empty.
func TestEmptyLines(t *testing.T) {
	train, err := NewMatrix(3, 4, []Entry{{Row: 0, Col: 0, Value: 1}, {Row: 2, Col: 1, Value: 2}})
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), GEE{}, train, Settings{Rank: 1, Sweeps: 2, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if res.EmptyRows != 1 || res.EmptyCols != 2 || len(res.Warnings) != 1 {
		t.Errorf("empty rows %d, columns %d, warnings %q; want 1, 2 and one warning", res.EmptyRows, res.EmptyCols, res.Warnings)
	}
}

// TestScores checks that the predictive scores are computed over the kept
// sweeps of every chain: one chain's scores in Run, the pooled scores in
// RunChains (and none per chain), whose predictive mean is the pooled
// PredictiveMean and whose variance adds the mean sigma^2 to the pooled
// PredictiveVariance; and none for NMF.
func TestScores(t *testing.T) {
	train, test, _ := planted(t, 30, 25, 3, 0.4, 0.3, 15)
	clean := make([]float64, len(test))
	for i, e := range test {
		clean[i] = e.Value + 0.1
	}
	s := Settings{Rank: 3, Sweeps: 60, BurnIn: 40, Seed: 3, Test: test, Workers: 2,
		Scores: &predictive.Settings{}, ExtraTargets: [][]float64{clean}}
	one, err := Run(context.Background(), GRRN{}, train, s)
	if err != nil {
		t.Fatal(err)
	}
	if one.Scores == nil || one.Scores.Samples != 20 || len(one.Scores.Scores) != 2 || len(one.Scores.Scores[0].Coverage) != 4 {
		t.Fatalf("one chain's scores: %+v", one.Scores)
	}
	ch, err := RunChains(context.Background(), GRRN{}, train, s, 3)
	if err != nil {
		t.Fatal(err)
	}
	sc := ch.Pooled.Scores
	if sc == nil || sc.Samples != 60 || ch.Results[1].Scores != nil {
		t.Fatalf("pooled scores over %v samples (want 60), chain 1's %v (want none)", sc, ch.Results[1].Scores)
	}
	for e := range test {
		// Summed in different orders: agreement to rounding.
		if !scalar.EqualWithinAbsOrRel(sc.Mean[e], ch.Pooled.PredictiveMean[e], 1e-12, 1e-10) ||
			!scalar.EqualWithinAbsOrRel(sc.Variance[e], ch.Pooled.PredictiveVariance[e]+ch.Pooled.Sigma2Mean, 1e-12, 1e-8) {
			t.Fatalf("entry %d: scores' mean %v and variance %v; pooled mean %v, variance %v + sigma^2 %v", e,
				sc.Mean[e], sc.Variance[e], ch.Pooled.PredictiveMean[e], ch.Pooled.PredictiveVariance[e], ch.Pooled.Sigma2Mean)
		}
	}
	nmf, err := Run(context.Background(), NMF{}, train, s)
	if err != nil || nmf.Scores != nil {
		t.Errorf("NMF: scores %v, %v; want none", nmf.Scores, err)
	}
}

// TestRunChainsNoBurnIn checks that a negative BurnIn (none) keeps every
// sweep in each of several chains, and that Result.Settings runs again as
// it did: resolving settings twice used to read the resolved burn-in of 0
// as "the default", four fifths of the sweeps.
func TestRunChainsNoBurnIn(t *testing.T) {
	train, test, _ := planted(t, 12, 10, 2, 0.5, 0.3, 3)
	s := Settings{Rank: 2, Sweeps: 30, BurnIn: -1, Seed: 4, Test: test}
	for _, n := range []int{1, 2} {
		ch, err := RunChains(context.Background(), GRRN{}, train, s, n)
		if err != nil {
			t.Fatal(err)
		}
		for c, r := range ch.Results {
			if r.Kept != 30 || r.Settings.BurnInSweeps() != 0 || r.Settings.BurnIn != NoBurnIn {
				t.Errorf("%d chains, chain %d: kept %d sweeps with burn-in %d (BurnIn %d), want 30, 0 and NoBurnIn", n, c, r.Kept, r.Settings.BurnInSweeps(), r.Settings.BurnIn)
			}
		}
		again, err := Run(context.Background(), GRRN{}, train, ch.Results[0].Settings)
		if err != nil {
			t.Fatal(err)
		}
		if again.Kept != 30 || again.TestMSE != ch.Results[0].TestMSE {
			t.Errorf("%d chains: chain 0's settings run again kept %d sweeps, test MSE %v; want 30 and %v", n, again.Kept, again.TestMSE, ch.Results[0].TestMSE)
		}
	}
}
