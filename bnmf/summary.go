package bnmf

import (
	"fmt"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/bnmf-lab/bnmf/predictive"
)

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
