package bnmf

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/bnmf-lab/bnmf/predictive"
)

// plantedCounts draws a rows x cols matrix of counts a_mn ~ Poi(w_m . z_n)
// with rank-k factors uniform on [0, 1.2], observes each entry with
// probability density and splits the observed entries into train (90%)
// and test (10%).
func plantedCounts(t testing.TB, rows, cols, k int, density float64, seed uint64) (train *Matrix, test []Entry) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 3))
	w, z := plantedFactors(rng, rows, cols, k)
	return plantedEntries(t, rng, rows, cols, density, func(i, j int) float64 {
		var mu float64
		for kk := range k {
			mu += w[i*k+kk] * z[j*k+kk]
		}
		return distuv.Poisson{Lambda: mu, Src: rng}.Rand()
	})
}

func poissonModels() []Model { return []Model{PGG{}, PGGG{}} }

// TestPoissonRecovery fits counts drawn from a rank-3 Poisson model and
// checks the held-out predictions and their Poisson predictive scores.
func TestPoissonRecovery(t *testing.T) {
	train, test := plantedCounts(t, 60, 80, 3, 0.5, 7)
	var meanRate float64
	for _, e := range test {
		meanRate += e.Value
	}
	meanRate /= float64(len(test))
	for _, model := range poissonModels() {
		t.Run(model.Name(), func(t *testing.T) {
			res, err := Run(context.Background(), model, train, Settings{Rank: 3, Sweeps: 300, BurnIn: 200, Seed: 1, Test: test, Scores: &predictive.Settings{}})
			if err != nil {
				t.Fatal(err)
			}
			sc := res.Scores.Scores[0]
			t.Logf("train MSE %.3f, test MSE %.3f (mean count %.3f), log mass %.3f, CRPS %.3f, coverage %v", res.TrainMSE, res.TestMSE, meanRate, sc.MeanLogDensity, sc.MeanCRPS, sc.Coverage)
			// The Poisson noise variance of an entry is its rate, about
			// 1.0 on average; the held-out MSE of the predictive mean is
			// that plus the error of the estimated rate: within 1.5 times
			// the mean count (measured: 1.27 and 1.25 against 1.03).
			if !(res.TestMSE < 1.5*meanRate) {
				t.Errorf("test MSE %.4g, want below 1.5 x mean count %.4g", res.TestMSE, meanRate)
			}
			if res.Sigma2Mean != 0 || res.Trace[0].Sigma2 != 0 {
				t.Errorf("sigma^2 %v, %v; a Poisson model has none", res.Sigma2Mean, res.Trace[0].Sigma2)
			}
			// Coverage of ~400 held-out counts at each level: the
			// intervals of a discrete predictive hold at least the level,
			// so coverage may exceed it; allow 4 binomial standard errors
			// below.
			for l, a := range res.Scores.Levels {
				if se := math.Sqrt(a * (1 - a) / float64(len(test))); !(sc.Coverage[l] > a-4*se) {
					t.Errorf("coverage %v at level %v", sc.Coverage[l], a)
				}
			}
			if sc.PITLeft == nil {
				t.Error("no PITLeft: the scores are not those of a Poisson predictive")
			}
			last := res.Trace[len(res.Trace)-1]
			// The log-likelihood of ~2200 counts with rates near 1 is
			// about -1.4 per entry; far from the Gaussian formula's value.
			if ll := last.LogLikelihood / float64(train.Len()); !(ll > -2.5 && ll < -0.5) {
				t.Errorf("log-likelihood per entry %v", ll)
			}
		})
	}
}

// TestPoissonWorkersDeterminism checks that the chains of the Poisson
// models, their predictions and their scores are the same bit for bit
// with 1, 2 and 3 workers.
func TestPoissonWorkersDeterminism(t *testing.T) {
	train, test := plantedCounts(t, 50, 70, 4, 0.4, 3)
	for _, model := range poissonModels() {
		t.Run(model.Name(), func(t *testing.T) {
			var runs [3]*Result
			for i, workers := range []int{1, 2, 3} {
				res, err := Run(context.Background(), model, train, Settings{Rank: 4, Sweeps: 20, BurnIn: 10, Seed: 11, Workers: workers, Test: test, Scores: &predictive.Settings{}})
				if err != nil {
					t.Fatal(err)
				}
				runs[i] = res
			}
			a := runs[0]
			for _, b := range runs[1:] {
				for s := range a.Trace {
					if a.Trace[s].TrainMSE != b.Trace[s].TrainMSE || a.Trace[s].TestMSE != b.Trace[s].TestMSE || a.Trace[s].LogLikelihood != b.Trace[s].LogLikelihood {
						t.Fatalf("sweep %d differs: %+v vs %+v", s+1, a.Trace[s], b.Trace[s])
					}
				}
				for i := range a.PredictiveMean {
					if a.PredictiveMean[i] != b.PredictiveMean[i] || a.PredictiveVariance[i] != b.PredictiveVariance[i] {
						t.Fatalf("prediction %d differs", i)
					}
				}
				if !mat.Equal(a.MeanW, b.MeanW) || !mat.Equal(a.MeanZ, b.MeanZ) {
					t.Fatal("posterior means of W or Z differ")
				}
				if a.Scores.Scores[0].MeanCRPS != b.Scores.Scores[0].MeanCRPS || a.Scores.Scores[0].MeanLogDensity != b.Scores.Scores[0].MeanLogDensity {
					t.Fatal("scores differ")
				}
			}
		})
	}
}

// TestPoissonSweepAllocatesNothing checks that a sweep of the Poisson
// models allocates nothing, with one worker and with three.
func TestPoissonSweepAllocatesNothing(t *testing.T) {
	train, _ := plantedCounts(t, 30, 40, 3, 0.5, 5)
	for _, model := range poissonModels() {
		for _, workers := range []int{1, 3} {
			t.Run(fmt.Sprintf("%s/workers=%d", model.Name(), workers), func(t *testing.T) {
				ch, err := model.newChain(train, 4)
				if err != nil {
					t.Fatal(err)
				}
				p := newPool(workers, 1, ch.scratchSize())
				defer p.close()
				if err := ch.init(p); err != nil {
					t.Fatal(err)
				}
				sweep := 1
				if allocs := testing.AllocsPerRun(20, func() {
					if err := ch.sweep(p, sweep); err != nil {
						t.Fatal(err)
					}
					sweep++
				}); allocs != 0 {
					t.Errorf("%v allocations per sweep, want 0", allocs)
				}
			})
		}
	}
}

// TestPoissonRefusesNonCounts checks that the Poisson models refuse
// training or test data that are not counts, naming the first offending
// entry.
func TestPoissonRefusesNonCounts(t *testing.T) {
	good := []Entry{{Row: 0, Col: 0, Value: 2}, {Row: 0, Col: 1, Value: 0}, {Row: 1, Col: 1, Value: 7}}
	cases := []struct {
		name  string
		train []Entry
		test  []Entry
		want  string
	}{
		{"fraction", []Entry{{Row: 0, Col: 0, Value: 2}, {Row: 1, Col: 0, Value: 3.5}, {Row: 1, Col: 1, Value: -1}}, nil,
			"bnmf: %s has a Poisson likelihood and needs counts (nonnegative integers); entry (1, 0) is 3.5"},
		{"negative", []Entry{{Row: 0, Col: 1, Value: -2}, {Row: 1, Col: 0, Value: 3.5}}, nil,
			"bnmf: %s has a Poisson likelihood and needs counts (nonnegative integers); entry (0, 1) is -2"},
		{"test-fraction", good, []Entry{{Row: 1, Col: 0, Value: 1}, {Row: 0, Col: 1, Value: 0.5}},
			"bnmf: test entry 1 (0, 1, 0.5) is not a count; %s's Poisson likelihood scores nonnegative integers"},
	}
	for _, model := range poissonModels() {
		for _, c := range cases {
			t.Run(model.Name()+"/"+c.name, func(t *testing.T) {
				m, err := NewMatrix(2, 2, c.train)
				if err != nil {
					t.Fatal(err)
				}
				_, err = Run(context.Background(), model, m, Settings{Rank: 2, Sweeps: 2, Test: c.test})
				if want := fmt.Sprintf(c.want, model.Name()); err == nil || err.Error() != want {
					t.Errorf("got error %v, want %q", err, want)
				}
			})
		}
	}
}

// TestPoissonSpecs checks that the registry's likelihood family of every
// model agrees with its chain's.
func TestPoissonSpecs(t *testing.T) {
	train, _ := plantedCounts(t, 10, 10, 2, 0.5, 1)
	for _, s := range Specs() {
		ch, err := s.Zero.newChain(train, 2)
		if err != nil {
			t.Fatalf("%s: %v", s.Name, err)
		}
		if got := familyOf(ch); got != s.Family {
			t.Errorf("%s: the chain's family is %v, the Spec's %v", s.Name, got, s.Family)
		}
	}
	if s, _ := Lookup("PGGG"); s.Default || !strings.Contains(s.Doc, "Poisson") {
		t.Errorf("PGGG's Spec: %+v", s)
	}
}

// roundedCounts returns m with every value rounded to the nearest count.
func roundedCounts(t testing.TB, m *Matrix) *Matrix {
	t.Helper()
	_, _, values := m.RowStorage()
	counts := make([]float64, len(values))
	for i, v := range values {
		counts[i] = math.Max(0, math.Round(v))
	}
	return m.WithValues(counts)
}
