package bnmf

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/bnmf-lab/bnmf/predictive"
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

// testChunk is the number of test entries one pool line predicts.
const testChunk = 4096

// summary accumulates the posterior summaries of a run: the running mean
// and variance (Welford 1962) of each test prediction and the sums of W
// and Z over the kept sweeps.
type summary struct {
	ch      chain
	test    []Entry
	k       int
	pool    *pool
	pred    []float64 // current predictions
	mean    []float64 // running mean of kept predictions
	m2      []float64 // running sum of squared deviations
	chunkSS []float64
	sumW    []float64
	sumZt   []float64
	sigma2  float64
	kept    int
	keep    bool
	line    lineFunc
	// tracked indexes the test entries whose predictions are kept every
	// sweep, in trackedPred (sweeps x len(tracked), row-major).
	tracked     []int
	trackedPred []float64
	// scoring accumulates the predictive scores of the kept sweeps, nil
	// when not asked for.
	scoring *predictive.Accumulator
	// hyper collects the kept draws of the shared hyperparameters.
	hyper []HyperDraws
	// off is the chain's offsets and offAcc their summaries, nil
	// without offsets.
	off    *offsets
	offAcc *offsetAcc
	// poisson is set when the predictive mixture is one of Poissons, whose
	// rates are the predictions.
	poisson bool
}

func newSummary(ch chain, s Settings, p *pool) (*summary, error) {
	w, zt := ch.factors()
	nt := len(s.Test)
	sm := &summary{
		ch:      ch,
		test:    s.Test,
		k:       s.Rank,
		pool:    p,
		pred:    make([]float64, nt),
		mean:    make([]float64, nt),
		m2:      make([]float64, nt),
		chunkSS: make([]float64, (nt+testChunk-1)/testChunk),
		sumW:    make([]float64, len(w)),
		sumZt:   make([]float64, len(zt)),
		tracked: s.Tracked,
		off:     chainOffsets(ch),
		poisson: familyOf(ch) == Poisson,
	}
	if sm.off != nil {
		sm.offAcc = newOffsetAcc(sm.off)
	}
	if len(s.Tracked) > 0 {
		sm.trackedPred = make([]float64, s.Sweeps*len(s.Tracked))
	}
	sm.line = sm.predictChunk
	if s.Scores != nil && nt > 0 && !ch.pointEstimate() {
		ps := *s.Scores
		ps.Samples = s.KeptSweeps()
		ps.Family = familyOf(ch).predictive()
		targets := make([][]float64, 0, 1+len(s.ExtraTargets))
		values := make([]float64, nt)
		for t, e := range s.Test {
			values[t] = e.Value
		}
		targets = append(append(targets, values), s.ExtraTargets...)
		var err error
		if sm.scoring, err = predictive.New(targets, ps); err != nil {
			return nil, fmt.Errorf("bnmf: scoring the predictions: %w", err)
		}
	}
	return sm, nil
}

// track copies the current predictions of the tracked test entries into
// row sweep-1 of trackedPred.
func (sm *summary) track(sweep int) {
	row := sm.trackedPred[(sweep-1)*len(sm.tracked) : sweep*len(sm.tracked)]
	for i, t := range sm.tracked {
		row[i] = sm.pred[t]
	}
}

// predictChunk predicts test entries [c*testChunk, (c+1)*testChunk) from
// the current factors and, on a kept sweep, folds them into the running
// moments.
func (sm *summary) predictChunk(_ *worker, c int) error {
	w, zt := sm.ch.factors()
	k := sm.k
	lo, hi := c*testChunk, min((c+1)*testChunk, len(sm.test))
	n := float64(sm.kept + 1)
	var ss float64
	for t := lo; t < hi; t++ {
		e := sm.test[t]
		p := floats.Dot(w[e.Row*k:(e.Row+1)*k], zt[e.Col*k:(e.Col+1)*k])
		if sm.off != nil {
			p += sm.off.at(e.Row, e.Col)
		}
		sm.pred[t] = p
		d := p - e.Value
		ss += d * d
		if sm.keep {
			delta := p - sm.mean[t]
			sm.mean[t] += delta / n
			sm.m2[t] += delta * (p - sm.mean[t])
		}
	}
	sm.chunkSS[c] = ss
	return nil
}

// observe predicts the test entries from the current state, accumulates
// the state when keep is set, and returns the current test MSE.
func (sm *summary) observe(keep bool) (float64, error) {
	sm.keep = keep
	var mse float64
	if len(sm.test) > 0 {
		// predictChunk never fails.
		_ = sm.pool.run(sm.line, len(sm.chunkSS), 0, phaseOther)
		for _, v := range sm.chunkSS {
			mse += v
		}
		mse /= float64(len(sm.test))
	}
	if keep {
		w, zt := sm.ch.factors()
		floats.Add(sm.sumW, w)
		floats.Add(sm.sumZt, zt)
		sm.sigma2 += sm.ch.noiseVariance()
		sm.hyper = appendHyperDraws(sm.hyper, sm.ch)
		if sm.offAcc != nil {
			sm.offAcc.add(sm.off)
		}
		sm.kept++
		if sm.scoring != nil {
			var err error
			if sm.poisson {
				err = sm.scoring.AddPoisson(sm.pred)
			} else {
				err = sm.scoring.Add(sm.pred, sm.ch.noiseVariance())
			}
			if err != nil {
				return 0, err
			}
		}
	}
	return mse, nil
}

// finish writes the posterior summaries into res.
func (sm *summary) finish(res *Result) {
	res.Kept = sm.kept
	res.Hyper = sm.hyper
	inv := 1 / float64(sm.kept)
	res.Sigma2Mean = sm.sigma2 * inv
	floats.Scale(inv, sm.sumW)
	floats.Scale(inv, sm.sumZt)
	k := sm.k
	m, n := len(sm.sumW)/k, len(sm.sumZt)/k
	res.MeanW = mat.NewDense(m, k, sm.sumW)
	res.MeanZ = mat.DenseCopyOf(mat.NewDense(n, k, sm.sumZt).T())
	nt := len(sm.test)
	if nt == 0 {
		return
	}
	if len(sm.tracked) > 0 {
		res.Tracked = make([][]float64, len(sm.trackedPred)/len(sm.tracked))
		for i := range res.Tracked {
			res.Tracked[i] = sm.trackedPred[i*len(sm.tracked) : (i+1)*len(sm.tracked)]
		}
	}
	res.PredictiveMean = sm.mean
	res.PredictiveVariance = sm.m2
	floats.Scale(inv, res.PredictiveVariance)
	res.PosteriorMeanProduct, res.TestMSE, res.TestMSEOfMeans = heldOutErrors(sm.test, sm.mean, func(e Entry) float64 {
		p := floats.Dot(sm.sumW[e.Row*k:(e.Row+1)*k], sm.sumZt[e.Col*k:(e.Col+1)*k])
		if sm.offAcc != nil {
			a := sm.offAcc
			p += a.mu + a.b[e.Row] + a.c[e.Col]
		}
		return p
	})
}

// heldOutErrors returns, for the test entries, the posterior mean
// products pm_t = product(test[t]), the mean squared error of the
// predictive means predMean and that of the products.
func heldOutErrors(test []Entry, predMean []float64, product func(Entry) float64) (pm []float64, mse, mseOfMeans float64) {
	pm = make([]float64, len(test))
	var ss, ssMeans float64
	for t, e := range test {
		pm[t] = product(e)
		d := predMean[t] - e.Value
		ss += d * d
		d = pm[t] - e.Value
		ssMeans += d * d
	}
	n := float64(len(test))
	return pm, ss / n, ssMeans / n
}

// positive checks that a hyperparameter is positive and finite.
func positive(model, field string, v float64) error {
	if !(v > 0) || math.IsInf(v, 0) {
		return fmt.Errorf("bnmf: %s.%s is %v; it must be positive and finite", model, field, v)
	}
	return nil
}

// orDefault returns v, or def when v is zero.
func orDefault(v, def float64) float64 {
	if v == 0 {
		return def
	}
	return v
}
