package experiments

import (
	"context"
	"fmt"
	"math"
	"time"

	"gonum.org/v1/gonum/stat"

	"github.com/bnmf-lab/bnmf/bnmf"
	"github.com/bnmf-lab/bnmf/internal/progress"
)

// sweepCounter is a bnmf.Recorder that reports each sweep's work to the
// progress meter.
type sweepCounter struct {
	t    *progress.CellMeter
	rank int
}

func (s sweepCounter) Record(bnmf.SweepStats) error {
	s.t.AddWork(int64(s.rank))
	return nil
}

// runCell runs the chain of cell c with the given number of sampler
// workers and returns its record. An NMF cell of a noise study trains on
// the noisy values clipped at 0 (see noiseCells.cellData), with a warning
// in its record saying how many were clipped. A cell that fails returns a record with
// Error set; only cancellation of ctx returns an error, and then no record,
// so the cell runs again on resume.
func (p *Plan) runCell(ctx context.Context, c Cell, workers int, t *progress.CellMeter) (*Record, error) {
	cfg := p.Config
	start := time.Now()
	r := &Record{
		Version:    RecordVersion,
		Study:      cfg.Name,
		Kind:       cfg.Kind,
		ConfigHash: p.Manifest.ConfigHash,
		Cell:       c,
		Seed:       CellSeed(cfg.Seed, c),
		Dataset:    p.data.Name,
		Rows:       p.data.Rows,
		Cols:       p.data.Cols,
		Sweeps:     cfg.Sweeps,
		BurnIn:     cfg.BurnIn,
		Thin:       cfg.Thin,
		Versions:   p.versions,
	}
	_, measureLoad := p.kind().(loadMeasurer)
	if measureLoad {
		r.SamplerWorkers = workers
		r.LoadAverage = appendLoadAverage(r.LoadAverage)
	}
	fail := func(err error) (*Record, error) {
		r.Error = err.Error()
		r.WallSeconds = time.Since(start).Seconds()
		return r, nil
	}
	d, err := p.source.cellData(c)
	if err != nil {
		return fail(fmt.Errorf("preparing the data: %w", err))
	}
	r.TrainEntries, r.TestEntries = d.train.Len(), len(d.test)
	in, err := p.cellChains(c, d, workers)
	if err != nil {
		return fail(err)
	}
	settings, train := in.Settings, in.Train
	settings.Recorder = sweepCounter{t: t, rank: c.Rank}
	chains, err := bnmf.RunChains(ctx, in.Model, train, settings, in.Chains)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return fail(err)
	}
	if cfg.AutoSweeps {
		// The sweeps the chains ran, and the rule's verdict on them
		// before rescaling, as the rule saw them.
		s := chains.Results[0].Settings
		r.Sweeps, r.BurnIn = s.Sweeps, s.BurnInSweeps()
		if !chains.Results[0].PointEstimate {
			r.AutoSweeps = chains.JudgeAuto(train.Variance(), cfg.MaxSweeps, bnmf.Thresholds{})
		}
	}
	chains.Rescale(in.Scale)
	res := chains.Pooled
	r.Predictive = predictiveOf(res.Scores)
	r.EmptyRows, r.EmptyCols = res.EmptyRows, res.EmptyCols
	r.Metrics = metricsOf(res, d)
	r.Hyper = hyperOf(chains.Results[0])
	r.Trace = traceOf(chains.Results[0], len(d.test) > 0)
	if p.chains > 1 {
		r.Chains = p.chains
		var seconds float64
		for i, cr := range chains.Results {
			m := metricsOf(cr, d)
			seconds += m.SecondsPerSweep / float64(p.chains)
			r.ChainMetrics = append(r.ChainMetrics, m)
			if i > 0 {
				r.ChainTraces = append(r.ChainTraces, traceOf(cr, len(d.test) > 0))
			}
		}
		r.Metrics.SecondsPerSweep = seconds
	}
	if d.clipped > 0 {
		r.Warnings = append(r.Warnings, fmt.Sprintf("noise: %d of %d noisy training values were negative and clipped at 0, "+
			"as NMF needs nonnegative data; the test values were not clipped", d.clipped, d.train.Len()))
	}
	r.Warnings = append(r.Warnings, res.Warnings...)
	var diagWarnings []string
	r.Diagnostics, diagWarnings = chains.Diagnose(d.train.Variance(), "held-out", bnmf.Thresholds{})
	r.Warnings = append(r.Warnings, diagWarnings...)
	if r.AutoSweeps != nil {
		r.Warnings = append(r.Warnings, r.AutoSweeps.Warnings("held-out", bnmf.Thresholds{})...)
	}
	clampNonFinite(r)
	r.WallSeconds = time.Since(start).Seconds()
	if measureLoad && len(r.LoadAverage) == 1 {
		r.LoadAverage = appendLoadAverage(r.LoadAverage)
	}
	return r, nil
}

// metricsOf returns the metrics of a chain's (or the pooled) result on the
// cell's data d. The train MSE and seconds per sweep are those of res's
// trace; a pooled result has none, and its caller sets them.
func metricsOf(res *bnmf.Result, d cellData) Metrics {
	m := Metrics{
		TrainMSE:       res.TrainMSE,
		TestMSE:        res.TestMSE,
		TestMSEOfMeans: res.TestMSEOfMeans,
		Sigma2Mean:     res.Sigma2Mean,
	}
	if d.clean != nil {
		// Noise studies: Fig. 4's var(data)/MSE, once against the noisy
		// data and once against the clean: VarOverMSE is the variance of
		// the noisy training values (DataVariance, unclipped for NMF too)
		// over the MSE against the noisy test values, and VarOverMSEClean
		// the variance of the clean training values over the MSE against
		// the clean test values. Dividing the clean MSE by the noisy
		// variance instead would inflate the clean measure about
		// (1+ratio)-fold.
		m.TestMSEClean = mse(res.PredictiveMean, d.clean)
		m.DataVariance = d.dataVariance
		m.VarOverMSE = m.DataVariance / m.TestMSE
		m.VarOverMSEClean = d.cleanVariance / m.TestMSEClean
	}
	if n := len(res.Trace); n > 0 {
		m.SecondsPerSweep = res.Trace[n-1].Elapsed.Seconds() / float64(n)
	}
	return m
}

// traceOf returns the per-sweep columns of a chain's result; the test MSE
// column only when the cell has test entries.
func traceOf(res *bnmf.Result, test bool) Trace {
	n := len(res.Trace)
	tr := Trace{TrainMSE: make([]float64, n), Sigma2: make([]float64, n), Seconds: make([]float64, n)}
	if test {
		tr.TestMSE = make([]float64, n)
	}
	for i, s := range res.Trace {
		tr.TrainMSE[i] = s.TrainMSE
		tr.Sigma2[i] = s.Sigma2
		tr.Seconds[i] = s.Elapsed.Seconds()
		if test {
			tr.TestMSE[i] = s.TestMSE
		}
	}
	return tr
}

// mse returns the mean squared difference of pred and want, which have the
// same length; it is 0 for none.
func mse(pred, want []float64) float64 {
	if len(want) == 0 {
		return 0
	}
	var s float64
	for i, w := range want {
		d := pred[i] - w
		s += d * d
	}
	return s / float64(len(want))
}

// clampNonFinite replaces the non-finite numbers of r, which JSON cannot
// hold, by +-math.MaxFloat64 (NaN by +MaxFloat64: as an error measure it is
// as bad as can be) and says so in a warning for each field.
func clampNonFinite(r *Record) {
	clamp := func(name string, xs ...*float64) {
		hit := 0
		for _, x := range xs {
			switch {
			case math.IsNaN(*x) || math.IsInf(*x, 1):
				*x = math.MaxFloat64
			case math.IsInf(*x, -1):
				*x = -math.MaxFloat64
			default:
				continue
			}
			hit++
		}
		if hit > 0 {
			r.Warnings = append(r.Warnings, fmt.Sprintf("%s: %d non-finite value(s) clamped to the largest float", name, hit))
		}
	}
	metrics := func(name string, m *Metrics) {
		clamp(name, &m.TrainMSE, &m.TestMSE, &m.TestMSEOfMeans, &m.Sigma2Mean,
			&m.TestMSEClean, &m.DataVariance, &m.VarOverMSE, &m.VarOverMSEClean)
	}
	metrics("metrics", &r.Metrics)
	for i := range r.ChainMetrics {
		metrics(fmt.Sprintf("chain_metrics[%d]", i), &r.ChainMetrics[i])
	}
	trace := func(name string, tr *Trace) {
		for _, col := range []struct {
			name string
			xs   []float64
		}{{".train_mse", tr.TrainMSE}, {".test_mse", tr.TestMSE}, {".sigma2", tr.Sigma2}} {
			ptrs := make([]*float64, len(col.xs))
			for i := range col.xs {
				ptrs[i] = &col.xs[i]
			}
			clamp(name+col.name, ptrs...)
		}
	}
	trace("trace", &r.Trace)
	for i := range r.ChainTraces {
		trace(fmt.Sprintf("chain_traces[%d]", i), &r.ChainTraces[i])
	}
}

// standardized returns the cell's training matrix and settings with every
// value (training, test and extra targets) divided by the unit scale of
// the training values, and that scale.
func standardized(d cellData, s bnmf.Settings) (*bnmf.Matrix, bnmf.Settings, float64, error) {
	scale := bnmf.UnitScale(d.train)
	if !(scale > 0) || math.IsInf(scale, 0) {
		return nil, s, 0, fmt.Errorf("standardize: the training values have standard deviation %v, which cannot scale them", scale)
	}
	_, _, vals := d.train.RowStorage()
	scaled := make([]float64, len(vals))
	for i, v := range vals {
		scaled[i] = v / scale
	}
	test := make([]bnmf.Entry, len(s.Test))
	for i, e := range s.Test {
		test[i] = bnmf.Entry{Row: e.Row, Col: e.Col, Value: e.Value / scale}
	}
	s.Test = test
	extra := make([][]float64, len(s.ExtraTargets))
	for t, xs := range s.ExtraTargets {
		extra[t] = make([]float64, len(xs))
		for i, x := range xs {
			extra[t][i] = x / scale
		}
	}
	s.ExtraTargets = extra
	return d.train.WithValues(scaled), s, scale, nil
}

// hyperOf summarises a chain's kept draws of its shared hyperparameters.
func hyperOf(res *bnmf.Result) []HyperSummary {
	var out []HyperSummary
	for _, h := range res.Hyper {
		if len(h.Draws) == 0 {
			continue
		}
		k := len(h.Draws[0])
		hs := HyperSummary{Name: h.Name, Mean: make([]float64, k), SD: make([]float64, k)}
		xs := make([]float64, len(h.Draws))
		for kk := range k {
			for s, d := range h.Draws {
				xs[s] = d[kk]
			}
			hs.Mean[kk], hs.SD[kk] = stat.PopMeanStdDev(xs, nil)
		}
		out = append(out, hs)
	}
	return out
}
