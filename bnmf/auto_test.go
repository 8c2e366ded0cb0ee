package bnmf

import (
	"context"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/bnmf-lab/bnmf/predictive"
)

func TestAutoCheckpoints(t *testing.T) {
	cases := []struct {
		max  int
		want []int
	}{
		{4, []int{4}},
		{150, []int{150}},
		{199, []int{199}},
		{200, []int{100, 200}},
		{400, []int{100, 200, 400}},
		{2000, []int{125, 250, 500, 1000, 2000}},
		{2001, []int{125, 250, 500, 1000, 2001}},
	}
	for _, c := range cases {
		if got := AutoCheckpoints(c.max); !slices.Equal(got, c.want) {
			t.Errorf("AutoCheckpoints(%d) = %v, want %v", c.max, got, c.want)
		}
	}
}

// autoSettings are the settings of the tests of Settings.Auto: every test
// entry tracked and scored.
func autoSettings(t *testing.T) (*Matrix, Settings) {
	t.Helper()
	train, test, _ := planted(t, 20, 16, 2, 0.5, 0.3, 21)
	all := make([]int, len(test))
	for i := range all {
		all[i] = i
	}
	return train, Settings{Rank: 2, Seed: 5, Test: test, Tracked: all, Scores: &predictive.Settings{Levels: []float64{0.5, 0.9}}}
}

// TestAutoBlocksEqualStraightRun checks that chains run in blocks and
// stopped after N sweeps, by the rule or by the cap, are bit for bit the
// chains of a straight run to N sweeps with a burn-in of N/2, for one
// and several chains and any number of workers; and that the rule was
// asked after every block but the last, with the results a straight run
// to that block's end gives.
func TestAutoBlocksEqualStraightRun(t *testing.T) {
	train, base := autoSettings(t)
	for _, c := range []struct {
		name           string
		chains, stopAt int // stopAt 0: never
		want           int // sweeps run
		asked          []int
	}{
		{"one chain to the cap", 1, 0, 400, []int{100, 200}},
		{"three chains to the cap", 3, 0, 400, []int{100, 200}},
		{"three chains stopped", 3, 200, 200, []int{100, 200}},
		{"two chains stopped at once", 2, 100, 100, []int{100}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var asked []int
			stop := StopFunc(func(ch *Chains) (bool, error) {
				n := ch.Results[0].Settings.Sweeps
				asked = append(asked, n)
				straight := base
				straight.Sweeps, straight.BurnIn, straight.Workers = n, n/2, 1
				want, err := RunChains(context.Background(), GRRN{}, train, straight, c.chains)
				if err != nil {
					return false, err
				}
				if ch.Pooled != nil || len(ch.Results) != c.chains {
					t.Errorf("after %d sweeps: the rule got %d results and Pooled %v, want %d and nil", n, len(ch.Results), ch.Pooled, c.chains)
				}
				for i, r := range ch.Results {
					// Compare copies: the scores are unfinished in the
					// chains the rule sees, and finished in a straight
					// run of one chain; the workers are the chain's share.
					got, w := *r, *want.Results[i]
					got.scoring, w.scoring, w.Scores = nil, nil, nil
					got.Settings.Workers = 1
					if !reflect.DeepEqual(withoutTimes(&got), withoutTimes(&w)) {
						t.Errorf("after %d sweeps: chain %d differs from a straight run", n, i)
					}
				}
				return n == c.stopAt, nil
			})
			for _, workers := range []int{1, 3} {
				asked = nil
				s := base
				s.Workers = workers
				s.Auto = &AutoSweeps{MaxSweeps: 400, Stop: stop}
				got, err := RunChains(context.Background(), GRRN{}, train, s, c.chains)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(asked, c.asked) {
					t.Errorf("%d workers: the rule was asked after %v sweeps, want %v", workers, asked, c.asked)
				}
				straight := base
				straight.Sweeps, straight.BurnIn, straight.Workers = c.want, c.want/2, workers
				want, err := RunChains(context.Background(), GRRN{}, train, straight, c.chains)
				if err != nil {
					t.Fatal(err)
				}
				for i, r := range got.Results {
					if r.Settings.Sweeps != c.want || len(r.Trace) != c.want || r.Kept != c.want/2 || r.Settings.Auto != nil {
						t.Errorf("%d workers, chain %d: %d sweeps (trace %d, kept %d, Auto %v), want %d, %d, %d, nil",
							workers, i, r.Settings.Sweeps, len(r.Trace), r.Kept, r.Settings.Auto, c.want, c.want, c.want/2)
					}
				}
				if !reflect.DeepEqual(withoutTimes(got.Pooled), withoutTimes(want.Pooled)) || !reflect.DeepEqual(got.Pooled.Scores, want.Pooled.Scores) {
					t.Errorf("%d workers: the pooled result differs from a straight run's", workers)
				}
				for i := range got.Results {
					if !reflect.DeepEqual(withoutTimes(got.Results[i]), withoutTimes(want.Results[i])) {
						t.Errorf("%d workers: chain %d differs from a straight run's", workers, i)
					}
				}
			}
		})
	}
}

// countingRecorder counts the sweeps it receives.
type countingRecorder struct {
	mu     sync.Mutex
	sweeps map[int]int // by chain
}

func (c *countingRecorder) Record(st SweepStats) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sweeps[st.Chain]++
	return nil
}

// restartingDraws keeps the sweeps of the draws it receives, by chain,
// and starts a chain over on RestartDraws.
type restartingDraws struct {
	sweeps map[int][]int
	kept   map[int]int
}

func (d *restartingDraws) RecordDraw(dr Draw) error {
	d.sweeps[dr.Chain] = append(d.sweeps[dr.Chain], dr.Sweep)
	return nil
}

func (d *restartingDraws) RestartDraws(chain, kept int) error {
	d.sweeps[chain], d.kept[chain] = nil, kept
	return nil
}

// TestAutoCapAndDraws checks that a rule that never stops runs every
// chain to the cap and no further, that the recorder sees every sweep
// once, and that a DrawRestarter ends with the draws of the kept half.
func TestAutoCapAndDraws(t *testing.T) {
	train, s := autoSettings(t)
	rec := &countingRecorder{sweeps: map[int]int{}}
	draws := &restartingDraws{sweeps: map[int][]int{}, kept: map[int]int{}}
	s.Recorder, s.Draws, s.Thin = rec, draws, 3
	s.Auto = &AutoSweeps{MaxSweeps: 250, Stop: StopFunc(func(*Chains) (bool, error) { return false, nil })}
	ch, err := RunChains(context.Background(), GEE{}, train, s, 2)
	if err != nil {
		t.Fatal(err)
	}
	var want []int
	for sweep := 125 + 3; sweep <= 250; sweep += 3 {
		want = append(want, sweep)
	}
	for c, r := range ch.Results {
		if r.Settings.Sweeps != 250 || len(r.Trace) != 250 || rec.sweeps[c] != 250 || r.Kept != len(want) {
			t.Errorf("chain %d: %d sweeps, trace of %d, %d recorded, %d kept; want 250, 250, 250, %d", c, r.Settings.Sweeps, len(r.Trace), rec.sweeps[c], r.Kept, len(want))
		}
		if !slices.Equal(draws.sweeps[c], want) || draws.kept[c] != len(want) {
			t.Errorf("chain %d: draws of sweeps %v (announced %d), want %v", c, draws.sweeps[c], draws.kept[c], want)
		}
	}
}

// TestAutoPointEstimate checks that NMF, which has no posterior, ignores
// Auto and runs Sweeps.
func TestAutoPointEstimate(t *testing.T) {
	train, s := autoSettings(t)
	s.Sweeps = 30
	s.Auto = &AutoSweeps{MaxSweeps: 400, Stop: StopFunc(func(*Chains) (bool, error) {
		t.Error("the rule was asked about NMF")
		return true, nil
	})}
	ch, err := RunChains(context.Background(), NMF{}, train, s, 2)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(ch.Results[1].Trace); n != 30 {
		t.Errorf("NMF ran %d sweeps, want 30", n)
	}
}

func TestAutoSettingsErrors(t *testing.T) {
	train, base := autoSettings(t)
	never := StopFunc(func(*Chains) (bool, error) { return false, nil })
	cases := []struct {
		name string
		edit func(*Settings)
		want string
	}{
		{"cap", func(s *Settings) { s.Auto = &AutoSweeps{MaxSweeps: 3, Stop: never} }, "Settings.Auto.MaxSweeps is 3; it must be between 4 and MaxSweeps, 10000000"},
		{"rule", func(s *Settings) { s.Auto = &AutoSweeps{MaxSweeps: 100} }, "Settings.Auto needs a Stop rule"},
		{"burn-in", func(s *Settings) { s.Auto, s.BurnIn = &AutoSweeps{MaxSweeps: 100, Stop: never}, 10 }, "BurnIn must be 0"},
		{"thin", func(s *Settings) { s.Auto, s.Thin = &AutoSweeps{MaxSweeps: 100, Stop: never}, 51 }, "Settings.Thin 51 keeps none of the 50 sweeps"},
		{"draws", func(s *Settings) {
			s.Auto, s.Draws = &AutoSweeps{MaxSweeps: 100, Stop: never}, drawFunc(func(Draw) error { return nil })
		}, "implements DrawRestarter"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := base
			c.edit(&s)
			_, err := RunChains(context.Background(), GRRN{}, train, s, 2)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("got error %v, want one containing %q", err, c.want)
			}
		})
	}
}

// drawFunc adapts a function to a DrawRecorder without RestartDraws.
type drawFunc func(Draw) error

func (f drawFunc) RecordDraw(d Draw) error { return f(d) }

// TestJudgeAutoWatchesFamily checks that the verdict watches sigma^2 for
// a Gaussian model and the log-likelihood in its place for a Poisson one
// (Result.Family), whose chains have no sigma^2.
func TestJudgeAutoWatchesFamily(t *testing.T) {
	counts, _ := plantedCounts(t, 20, 16, 2, 0.6, 3)
	reals, _, _ := planted(t, 20, 16, 2, 0.6, 0.3, 3)
	for _, c := range []struct {
		model   Model
		train   *Matrix
		family  Family
		logLike bool
	}{
		{PGG{}, counts, Poisson, true},
		{GRRN{}, reals, Gaussian, false},
	} {
		ch, err := RunChains(context.Background(), c.model, c.train, Settings{Rank: 2, Seed: 9, Sweeps: 60}, 2)
		if err != nil {
			t.Fatal(err)
		}
		if got := ch.Results[0].Family; got != c.family {
			t.Errorf("%s: Result.Family = %v, want %v", c.model.Name(), got, c.family)
		}
		a := ch.JudgeAuto(c.train.Variance(), 60, Thresholds{})
		if (a.LogLikelihood != nil) != c.logLike {
			t.Errorf("%s: watches the log-likelihood: %v, want %v", c.model.Name(), a.LogLikelihood != nil, c.logLike)
		}
		if c.logLike && a.Sigma2.RHat != nil {
			t.Errorf("%s: sigma^2 R-hat %v for a model without sigma^2", c.model.Name(), *a.Sigma2.RHat)
		}
		if !c.logLike && a.Sigma2.RHat == nil {
			t.Errorf("%s: sigma^2 has no R-hat", c.model.Name())
		}
	}
}
