package bnmf

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"
)

// chain is the internal state of one model's sampler.
type chain interface {
	// scratchSize is the number of scratch floats one worker needs.
	scratchSize() int
	// init draws the initial state (sweep 0).
	init(p *pool) error
	// sweep performs sweep s, counted from 1.
	sweep(p *pool, s int) error
	// trainSS is the sum of squared residuals of the current state.
	trainSS() float64
	// factors returns W (M x K) and Z transposed (N x K), row-major. The
	// slices alias the state.
	factors() (w, zt []float64)
	// noiseVariance is the current sigma^2 (0 for NMF).
	noiseVariance() float64
	// pointEstimate reports whether the chain is an optimiser whose final
	// iterate is its estimate, rather than a sampler.
	pointEstimate() bool
	// static reports whether the state never changes after init (a
	// baseline's rule), so that its predictions need computing only once.
	static() bool
}

// Run fits model to the observed entries of train for s.Sweeps sweeps and
// returns the trace and posterior summaries. Invalid settings, invalid
// hyperparameters and invalid test entries are errors. If a non-finite
// value would enter the chain's state, Run stops with an error that wraps
// ErrNonFinite and says where it happened. A cancelled ctx stops the run
// within one sweep and returns an error wrapping ctx.Err(). With s.Auto,
// Run is RunChains with one chain.
func Run(ctx context.Context, model Model, train *Matrix, s Settings) (*Result, error) {
	return run(ctx, model, train, s, false)
}

// run is Run; deferScores keeps the scores' accumulator in the Result
// unfinished, for RunChains to pool over chains.
func run(ctx context.Context, model Model, train *Matrix, s Settings, deferScores bool) (*Result, error) {
	if model == nil || train == nil {
		return nil, errors.New("bnmf: Run needs a model and training data")
	}
	s, err := s.resolved()
	if err != nil {
		return nil, err
	}
	if s.Auto != nil {
		ch, err := RunChains(ctx, model, train, s, 1)
		if err != nil {
			return nil, err
		}
		return ch.Pooled, nil
	}
	r, err := startRun(model, train, s)
	if err != nil {
		return nil, err
	}
	defer r.close()
	r.deferScores = deferScores
	if err := r.advance(ctx, s.Sweeps); err != nil {
		return nil, err
	}
	return r.result()
}

// runState is a chain of Run under way: its sampler, workers, summaries
// and trace, which advance runs on sweep by sweep.
type runState struct {
	model Model
	train *Matrix
	// s are the resolved settings; s.Sweeps and s.BurnIn say which
	// sweeps the current summaries keep.
	s   Settings
	ch  chain
	p   *pool
	sum *summary
	res *Result
	// static is set for a chain whose state never changes (a baseline),
	// which predicts the test entries once, at the first sweep, and again
	// at the last to keep it.
	static bool
	// deferScores keeps the scores' accumulator unfinished in the
	// Result, for RunChains to pool over chains.
	deferScores bool
	testMSE     float64
	done        int // sweeps run
	// start is when the chain started, moved on by the time it spent
	// paused between calls of advance (paused), so that the trace's
	// elapsed times count the chain's own work.
	start, paused time.Time
}

// startRun validates the test entries of the resolved settings s, builds
// model's chain on train and draws its initial state.
func startRun(model Model, train *Matrix, s Settings) (*runState, error) {
	m, n := train.Dims()
	for i, e := range s.Test {
		if e.Row < 0 || e.Row >= m || e.Col < 0 || e.Col >= n || !isFinite(e.Value) {
			return nil, fmt.Errorf("bnmf: test entry %d (%d, %d, %v) is outside the %d x %d matrix or not finite", i, e.Row, e.Col, e.Value, m, n)
		}
	}
	if train.Len() == 0 {
		return nil, errors.New("bnmf: the training matrix has no observed entries")
	}
	ch, err := model.newChain(train, s.Rank)
	if err != nil {
		return nil, err
	}
	if familyOf(ch) == Poisson {
		for i, e := range s.Test {
			if !isCount(e.Value) {
				return nil, fmt.Errorf("bnmf: test entry %d (%d, %d, %v) is not a count; %s's Poisson likelihood scores nonnegative integers", i, e.Row, e.Col, e.Value, model.Name())
			}
		}
	}
	if st, ok := ch.(sigma2Starter); ok {
		st.setSigma2Start(s.Sigma2Start)
	}
	if f, ok := ch.(float32Reader); ok && s.Float32Factors {
		f.useFloat32Factors()
	}
	p := newPool(s.Workers, s.Seed, max(ch.scratchSize(), 1))

	start := time.Now()
	if err := ch.init(p); err != nil {
		p.close()
		return nil, fmt.Errorf("%s initialisation: %w", model.Name(), err)
	}
	sum, err := newSummary(ch, s, p)
	if err != nil {
		p.close()
		return nil, err
	}
	r := &runState{model: model, train: train, s: s, ch: ch, p: p, sum: sum, static: ch.static(), start: start, paused: start}
	r.res = &Result{Model: model.Name(), Settings: s, Trace: make([]SweepStats, 0, s.Sweeps), PointEstimate: ch.pointEstimate(), Family: familyOf(ch), trainLen: train.Len()}
	return r, nil
}

// close stops the chain's workers.
func (r *runState) close() { r.p.close() }

// advance runs the chain on to sweep to (r.s.Sweeps at most).
func (r *runState) advance(ctx context.Context, to int) error {
	if r.done > 0 {
		r.start = r.start.Add(time.Since(r.paused))
	}
	defer func() { r.paused = time.Now() }()
	s, ch, sum, model := r.s, r.ch, r.sum, r.model
	for sweep := r.done + 1; sweep <= to; sweep++ {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("bnmf: %s stopped before sweep %d: %w", model.Name(), sweep, err)
		}
		if err := ch.sweep(r.p, sweep); err != nil {
			return fmt.Errorf("%s: %w", model.Name(), err)
		}
		keep := s.IsKept(sweep)
		if ch.pointEstimate() {
			keep = sweep == s.Sweeps
		}
		if !r.static || sweep == 1 || keep {
			var err error
			if r.testMSE, err = sum.observe(keep); err != nil {
				return fmt.Errorf("%s: sweep %d: %w", model.Name(), sweep, err)
			}
		}
		sum.track(sweep)
		ss, sigma2 := ch.trainSS(), ch.noiseVariance()
		st := SweepStats{
			Sweep:         sweep,
			TrainMSE:      ss / float64(r.train.Len()),
			TestMSE:       r.testMSE,
			Sigma2:        sigma2,
			LogLikelihood: chainLogLikelihood(ch, ss, sigma2, r.train.Len()),
			Elapsed:       time.Since(r.start),
		}
		r.res.Trace = append(r.res.Trace, st)
		r.done = sweep
		if s.Recorder != nil {
			if err := s.Recorder.Record(st); err != nil {
				return fmt.Errorf("bnmf: recorder at sweep %d: %w", sweep, err)
			}
		}
		if keep && s.Draws != nil && !ch.pointEstimate() {
			w, zt := ch.factors()
			d := Draw{Sweep: sweep, W: w, Zt: zt, Sigma2: ch.noiseVariance()}
			if o := chainOffsets(ch); o != nil {
				d.Mu, d.B, d.C = o.mu, o.b, o.c
			}
			if err := s.Draws.RecordDraw(d); err != nil {
				return fmt.Errorf("bnmf: draw recorder at sweep %d: %w", sweep, err)
			}
		}
	}
	return nil
}

// extend lets the chain run on to s.Sweeps sweeps, s being r.s with more
// sweeps and a later burn-in: the summaries start afresh with the next
// sweep, which must be the first that s keeps, while the trace and the
// tracked predictions so far carry on.
func (r *runState) extend(s Settings) error {
	if s.IsKept(r.done) || s.KeptSweeps() == 0 || s.BurnInSweeps() < r.done {
		panic(fmt.Sprintf("bnmf: extending a chain of %d sweeps to keep sweeps %d to %d", r.done, s.BurnInSweeps()+1, s.Sweeps))
	}
	sum, err := newSummary(r.ch, s, r.p)
	if err != nil {
		return err
	}
	copy(sum.trackedPred, r.sum.trackedPred)
	copy(sum.pred, r.sum.pred)
	r.s, r.sum = s, sum
	r.res = &Result{Model: r.res.Model, Settings: s, Trace: r.res.Trace, PointEstimate: r.res.PointEstimate, Family: r.res.Family, trainLen: r.res.trainLen}
	return nil
}

// result finishes the summaries of the sweeps run into the chain's
// Result; the summaries are then spent.
func (r *runState) result() (*Result, error) {
	res, sum := r.res, r.sum
	res.TrainMSE = res.Trace[len(res.Trace)-1].TrainMSE
	sum.finish(res)
	if sum.scoring != nil {
		res.scoring = sum.scoring
		if !r.deferScores {
			var err error
			if res.Scores, err = sum.scoring.Finish(); err != nil {
				return nil, fmt.Errorf("%s: scoring the predictions: %w", r.model.Name(), err)
			}
		}
	}
	res.EmptyRows, res.EmptyCols, res.Warnings = emptyLines(r.train, r.ch.pointEstimate())
	if sum.offAcc != nil && sum.offAcc.n > 0 {
		res.Offsets = sum.offAcc.summary(r.train)
		m, n := r.train.Dims()
		for _, w := range []string{offsetWarning(res.Offsets, m, n), caughtOffsetsWarning(res.Offsets, math.Sqrt(r.train.Variance()))} {
			if w != "" {
				res.Warnings = append(res.Warnings, w)
			}
		}
	}
	return res, nil
}

// emptyLines counts the rows and columns of the training matrix that have
// no observed entries, whose factors are learned from the prior alone, and
// says so in a warning when there are any.
func emptyLines(train *Matrix, point bool) (rows, cols int, warnings []string) {
	m, n := train.Dims()
	for i := range m {
		if cols, _ := train.Row(i); len(cols) == 0 {
			rows++
		}
	}
	for j := range n {
		if rows, _ := train.Col(j); len(rows) == 0 {
			cols++
		}
	}
	if rows == 0 && cols == 0 {
		return 0, 0, nil
	}
	what := "their factors are sampled from the prior"
	if point {
		what = "their factors keep their initial values"
	}
	return rows, cols, []string{fmt.Sprintf("%d of %d rows and %d of %d columns have no training entries; %s", rows, m, cols, n, what)}
}

// chainLogLikelihood returns the log-likelihood of the training entries
// under ch's current state, whose squared residuals sum to ss: the
// chain's own for a non-Gaussian likelihood, logLikelihood otherwise.
func chainLogLikelihood(ch chain, ss, sigma2 float64, n int) float64 {
	if f, ok := ch.(familyChain); ok {
		return f.logLikelihood()
	}
	return logLikelihood(ss, sigma2, n, ch.pointEstimate())
}

// logLikelihood returns the Gaussian log-likelihood of n observed entries
// whose squared residuals sum to ss under noise variance sigma2, or NaN
// for a point estimate, which has no likelihood.
func logLikelihood(ss, sigma2 float64, n int, point bool) float64 {
	if point {
		return math.NaN()
	}
	return -0.5*float64(n)*math.Log(2*math.Pi*sigma2) - ss/(2*sigma2)
}
