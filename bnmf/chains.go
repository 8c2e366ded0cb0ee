package bnmf

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/bnmf-lab/bnmf/internal/workpool"
	"github.com/bnmf-lab/bnmf/predictive"
)

// Chains is what RunChains returns: every chain's own Result and the
// posterior summary of all their kept sweeps together.
type Chains struct {
	// Results holds each chain's Result, in the order of the chains'
	// indices.
	Results []*Result
	// Pooled summarises the kept sweeps of every chain as one sample from
	// the posterior (every chain keeps as many sweeps, so each counts
	// equally): PredictiveMean and PredictiveVariance are the mean and
	// variance of w_m . z_n over all of them, Sigma2Mean and MeanW, MeanZ
	// the means, PosteriorMeanProduct and the test MSEs follow from those,
	// and TrainMSE is the mean over chains of each chain's final train
	// MSE; Scores (when asked for) score the mixture over every kept sweep
	// of every chain. Its Trace and Tracked are nil: each chain's are in
	// Results.
	// With one chain, Pooled is that chain's Result.
	//
	// Averaging W and Z over chains is meaningful only when the chains
	// agree on the order (and scale) of the K factors, which nothing
	// enforces: an NMF posterior is invariant to permuting them. The
	// predictions do not depend on it.
	Pooled *Result
}

// ChainSeed returns the seed of chain c of a run seeded with seed: seed
// itself for chain 0, so that one chain of RunChains is exactly Run, and
// for c >= 1 a SplitMix64 mix (Steele, Lea and Flood 2014) of seed and c,
// so that the chains' streams are unrelated.
func ChainSeed(seed uint64, c int) uint64 {
	if c == 0 {
		return seed
	}
	z := seed + uint64(c)*0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// RunChains runs n independent chains of model on train, chain c with
// Settings s but seed ChainSeed(s.Seed, c), and pools their kept sweeps
// (see Chains). The chains share s.Workers goroutines: up to that many
// chains run at once, each with an equal share of them. Results do not
// depend on s.Workers. s.Recorder, if not nil, receives the sweeps of
// every chain (SweepStats.Chain tells them apart), one call at a time, and
// so does s.Draws (Draw.Chain tells them apart).
// With s.Auto the chains run in blocks until its stopping rule says
// stop (see AutoSweeps), each chain's Result.Settings saying how many
// sweeps it ran; all n chains are then held in memory at once.
// The first chain that fails stops the others, and its error is returned;
// a cancelled ctx stops every chain within a sweep.
func RunChains(ctx context.Context, model Model, train *Matrix, s Settings, n int) (*Chains, error) {
	if n < 1 {
		return nil, fmt.Errorf("bnmf: RunChains needs at least one chain; got %d", n)
	}
	if model == nil || train == nil {
		return nil, errors.New("bnmf: Run needs a model and training data")
	}
	s, err := s.resolved()
	if err != nil {
		return nil, err
	}
	parallel := min(n, s.Workers)
	perChain := max(1, s.Workers/parallel)
	out := &Chains{Results: make([]*Result, n)}
	if s.Auto != nil && !isPointEstimate(model) {
		if out.Results, err = runAuto(ctx, model, train, s, n, parallel, perChain); err != nil {
			return nil, err
		}
	} else {
		s.Auto = nil
		// One lock serialises the calls of every chain to the caller's
		// recorders.
		var mu sync.Mutex
		err := eachChain(ctx, n, parallel, func(c int) error {
			res, err := run(ctx, model, train, chainSettings(s, c, perChain, &mu), n > 1)
			out.Results[c] = res
			return err
		})
		if err != nil {
			return nil, err
		}
	}
	for _, r := range out.Results {
		r.Settings.Workers = s.Workers // as given, not the chain's share
	}
	out.Pooled = poolResults(out.Results)
	if n > 1 && out.Results[0].scoring != nil {
		accs := make([]*predictive.Accumulator, n)
		for c, r := range out.Results {
			accs[c] = r.scoring
		}
		merged, err := predictive.Merge(accs...)
		if err == nil {
			out.Pooled.Scores, err = merged.Finish()
		}
		if err != nil {
			return nil, fmt.Errorf("bnmf: pooling the chains' predictive scores: %w", err)
		}
	}
	return out, nil
}

// chainSettings returns the settings of chain c that RunChains runs with
// settings s and perChain workers, its recorders passing their calls on
// to s's one at a time under mu.
func chainSettings(s Settings, c, perChain int, mu *sync.Mutex) Settings {
	cs := s
	cs.Seed = ChainSeed(s.Seed, c)
	cs.Workers = perChain
	if s.Recorder != nil {
		cs.Recorder = chainRecorder{chainSink[SweepStats]{mu, c, s.Recorder.Record}}
	}
	if s.Draws != nil {
		cs.Draws = chainDraws{chainSink[Draw]{mu, c, s.Draws.RecordDraw}, s.Draws}
	}
	return cs
}

// eachChain calls run for chains 0 to n-1, up to parallel at once. The
// first error skips the calls not yet started and is returned, with the
// chain's index when n > 1; the calls under way run on (run sees the
// caller's context, not the pool's).
func eachChain(ctx context.Context, n, parallel int, run func(c int) error) error {
	return workpool.Range(ctx, n, parallel, func(_ context.Context, c int) error {
		err := run(c)
		if err != nil && n > 1 {
			err = fmt.Errorf("chain %d: %w", c, err)
		}
		return err
	})
}

// isPointEstimate reports whether model is registered as a point
// estimate (NMF, a baseline), which has no posterior.
func isPointEstimate(model Model) bool {
	spec, ok := Lookup(model.Name())
	return ok && spec.PointEstimate
}

// chainSink passes one chain's records to a callback shared by every
// chain, one call at a time, with the chain's index stamped on them.
type chainSink[T interface{ SweepStats | Draw }] struct {
	mu    *sync.Mutex
	chain int
	to    func(T) error
}

func (c chainSink[T]) put(v T) error {
	switch r := any(&v).(type) {
	case *SweepStats:
		r.Chain = c.chain
	case *Draw:
		r.Chain = c.chain
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.to(v)
}

// chainRecorder is a chain's Recorder in RunChains.
type chainRecorder struct{ chainSink[SweepStats] }

func (c chainRecorder) Record(st SweepStats) error { return c.put(st) }

// chainDraws is a chain's DrawRecorder in RunChains; to is the caller's.
type chainDraws struct {
	chainSink[Draw]
	to DrawRecorder
}

func (c chainDraws) RecordDraw(d Draw) error { return c.put(d) }

// RestartDraws passes the call on to the caller's recorder with the
// chain's index, when it is a DrawRestarter; runAuto holds the lock.
func (c chainDraws) RestartDraws(_, kept int) error {
	if d, ok := c.to.(DrawRestarter); ok {
		return d.RestartDraws(c.chain, kept)
	}
	return nil
}

// poolResults combines the results of chains that kept the same number of
// sweeps; see Chains.Pooled.
func poolResults(rs []*Result) *Result {
	if len(rs) == 1 {
		return rs[0]
	}
	first := rs[0]
	inv := 1 / float64(len(rs))
	p := &Result{Model: first.Model, Settings: first.Settings, PointEstimate: first.PointEstimate, Family: first.Family, EmptyRows: first.EmptyRows, EmptyCols: first.EmptyCols}
	nt := len(first.PredictiveMean)
	p.PredictiveMean = make([]float64, nt)
	p.PredictiveVariance = make([]float64, nt)
	meanW := mat.NewDense(first.MeanW.RawMatrix().Rows, first.MeanW.RawMatrix().Cols, nil)
	meanZ := mat.NewDense(first.MeanZ.RawMatrix().Rows, first.MeanZ.RawMatrix().Cols, nil)
	for _, r := range rs {
		p.Kept += r.Kept
		p.TrainMSE += r.TrainMSE * inv
		p.Sigma2Mean += r.Sigma2Mean * inv
		floats.AddScaled(p.PredictiveMean, inv, r.PredictiveMean)
		// The mean within-chain variance; the between-chain part follows.
		floats.AddScaled(p.PredictiveVariance, inv, r.PredictiveVariance)
		meanW.Add(meanW, r.MeanW)
		meanZ.Add(meanZ, r.MeanZ)
		for _, w := range r.Warnings {
			if !slices.Contains(p.Warnings, w) {
				p.Warnings = append(p.Warnings, w)
			}
		}
	}
	// The law of total variance over equally weighted chains: the mean of
	// the chains' variances plus the variance of their means.
	for _, r := range rs {
		for t, m := range r.PredictiveMean {
			d := m - p.PredictiveMean[t]
			p.PredictiveVariance[t] += d * d * inv
		}
	}
	meanW.Scale(inv, meanW)
	meanZ.Scale(inv, meanZ)
	p.MeanW, p.MeanZ = meanW, meanZ
	p.Hyper = poolHyperDraws(rs)
	p.Offsets = poolOffsets(rs)
	test := first.Settings.Test
	if nt == 0 {
		return p
	}
	p.PosteriorMeanProduct, p.TestMSE, p.TestMSEOfMeans = heldOutErrors(test, p.PredictiveMean, func(e Entry) float64 {
		if p.Offsets != nil {
			return p.Offsets.at(e.Row, e.Col) + mat.Dot(meanW.RowView(e.Row), meanZ.ColView(e.Col))
		}
		return mat.Dot(meanW.RowView(e.Row), meanZ.ColView(e.Col))
	})
	return p
}
