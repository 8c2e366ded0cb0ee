package experiments

import (
	"context"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/bnmf-lab/bnmf/bnmf"
	"github.com/bnmf-lab/bnmf/dataset"
)

// cellData is what one cell trains and is scored on.
type cellData struct {
	train *bnmf.Matrix
	test  []bnmf.Entry
	// Noise studies only: clean holds the noise-free values of the test
	// entries; dataVariance and cleanVariance are the population
	// variances of the noisy and of the clean training values (noisy
	// before any clipping); clipped counts the training values that were
	// negative and clipped at 0 for NMF.
	clean                       []float64
	dataVariance, cleanVariance float64
	clipped                     int
}

// cellData draws the training and test entries of cell c. The split
// depends on (base seed, fraction, repeat) and the noise on (base seed,
// ratio, repeat) only, so every model and rank sees the same data.
//
// In a noise study the noisy training values of an NMF cell are clipped
// at 0, because Lee and Seung's multiplicative updates need nonnegative
// data and Gaussian noise makes some values negative; runCell records how
// many were clipped in a warning. The Bayesian models train on the
// unclipped noisy values, and every model is scored on the same,
// unclipped, noisy and clean test values.
func (p *Plan) cellData(c Cell) (cellData, error) {
	cfg := p.Config
	switch cfg.Kind {
	case KindConvergence:
		return cellData{train: p.full}, nil
	case KindSparsity:
		train, test, err := dataset.SplitUnobserved(p.data, c.Fraction, p.coverage, SplitSource(cfg.Seed, c.Fraction, c.Repeat))
		if err != nil {
			return cellData{}, err
		}
		m, err := bnmf.NewMatrix(p.data.Rows, p.data.Cols, train)
		return cellData{train: m, test: test}, err
	}
	train, test, err := dataset.SplitUnobserved(p.data, p.noiseFraction, p.coverage, SplitSource(cfg.Seed, p.noiseFraction, c.Repeat))
	if err != nil {
		return cellData{}, err
	}
	clean := make([]float64, len(test))
	for i, e := range test {
		clean[i] = e.Value
	}
	// Noise is added to every observed entry, with a variance relative to
	// that of all observed ratings, and only then split apart again.
	all := make([]bnmf.Entry, 0, len(train)+len(test))
	all = append(append(all, train...), test...)
	noisy, err := dataset.AddNoise(all, c.NoiseRatio, NoiseSource(cfg.Seed, c.NoiseRatio, c.Repeat))
	if err != nil {
		return cellData{}, err
	}
	d := cellData{
		test:          noisy[len(train):],
		clean:         clean,
		dataVariance:  dataset.Variance(noisy[:len(train)]),
		cleanVariance: dataset.Variance(train),
	}
	fed := noisy[:len(train)]
	if _, ok := p.models[c.Model].(bnmf.NMF); ok {
		fed = slices.Clone(fed)
		for i := range fed {
			if fed[i].Value < 0 {
				fed[i].Value = 0
				d.clipped++
			}
		}
	}
	d.train, err = bnmf.NewMatrix(p.data.Rows, p.data.Cols, fed)
	return d, err
}

// sweepCounter is a bnmf.Recorder that reports each sweep's work to the
// progress tracker.
type sweepCounter struct {
	t    *tracker
	rank int
}

func (s sweepCounter) Record(bnmf.SweepStats) error {
	s.t.addWork(int64(s.rank))
	return nil
}

// runCell runs the chain of cell c with the given number of sampler
// workers and returns its record. An NMF cell of a noise study trains on
// the noisy values clipped at 0 (see cellData), with a warning in its
// record saying how many were clipped. A cell that fails returns a record with
// Error set; only cancellation of ctx returns an error, and then no record,
// so the cell runs again on resume.
func (p *Plan) runCell(ctx context.Context, c Cell, workers int, t *tracker) (*Record, error) {
	cfg := p.Config
	start := time.Now()
	r := &Record{
		Version:    RecordVersion,
		Study:      cfg.Name,
		Kind:       cfg.Kind,
		ConfigHash: p.Manifest.ConfigHash,
		Cell:       c,
		Seed:       ChainSeed(cfg.Seed, c),
		Dataset:    p.data.Name,
		Rows:       p.data.Rows,
		Cols:       p.data.Cols,
		Sweeps:     cfg.Sweeps,
		BurnIn:     cfg.BurnIn,
		Thin:       cfg.Thin,
		Versions:   p.versions,
	}
	fail := func(err error) (*Record, error) {
		r.Error = err.Error()
		r.WallSeconds = time.Since(start).Seconds()
		return r, nil
	}
	d, err := p.cellData(c)
	if err != nil {
		return fail(fmt.Errorf("preparing the data: %w", err))
	}
	r.TrainEntries, r.TestEntries = d.train.Len(), len(d.test)
	burnIn := cfg.BurnIn
	if burnIn == 0 {
		burnIn = -1 // bnmf reads 0 as its default; the config means none
	}
	res, err := bnmf.Run(ctx, p.models[c.Model], d.train, bnmf.Settings{
		Rank:     c.Rank,
		Sweeps:   cfg.Sweeps,
		BurnIn:   burnIn,
		Thin:     cfg.Thin,
		Workers:  workers,
		Seed:     r.Seed,
		Test:     d.test,
		Recorder: sweepCounter{t: t, rank: c.Rank},
	})
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return fail(err)
	}
	r.Metrics = Metrics{
		TrainMSE:       res.TrainMSE,
		TestMSE:        res.TestMSE,
		TestMSEOfMeans: res.TestMSEOfMeans,
		Sigma2Mean:     res.Sigma2Mean,
	}
	if cfg.Kind == KindNoise {
		// Fig. 4's var(data)/MSE, once against the noisy data and once
		// against the clean: VarOverMSE is the variance of the noisy
		// training values (DataVariance, unclipped for NMF too) over the
		// MSE against the noisy test values, and VarOverMSEClean the
		// variance of the clean training values over the MSE against the
		// clean test values. Dividing the clean MSE by the noisy variance
		// instead would inflate the clean measure about (1+ratio)-fold.
		m := &r.Metrics
		m.TestMSEClean = mse(res.PredictiveMean, d.clean)
		m.DataVariance = d.dataVariance
		m.VarOverMSE = m.DataVariance / m.TestMSE
		m.VarOverMSEClean = d.cleanVariance / m.TestMSEClean
	}
	n := len(res.Trace)
	r.Trace = Trace{TrainMSE: make([]float64, n), Sigma2: make([]float64, n), Seconds: make([]float64, n)}
	if len(d.test) > 0 {
		r.Trace.TestMSE = make([]float64, n)
	}
	for i, s := range res.Trace {
		r.Trace.TrainMSE[i] = s.TrainMSE
		r.Trace.Sigma2[i] = s.Sigma2
		r.Trace.Seconds[i] = s.Elapsed.Seconds()
		if r.Trace.TestMSE != nil {
			r.Trace.TestMSE[i] = s.TestMSE
		}
	}
	if n > 0 {
		r.Metrics.SecondsPerSweep = res.Trace[n-1].Elapsed.Seconds() / float64(n)
	}
	if d.clipped > 0 {
		r.Warnings = append(r.Warnings, fmt.Sprintf("noise: %d of %d noisy training values were negative and clipped at 0, "+
			"as NMF needs nonnegative data; the test values were not clipped", d.clipped, d.train.Len()))
	}
	r.Warnings = append(r.Warnings, res.Warnings...)
	clampNonFinite(r)
	r.WallSeconds = time.Since(start).Seconds()
	return r, nil
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
	m := &r.Metrics
	clamp("metrics", &m.TrainMSE, &m.TestMSE, &m.TestMSEOfMeans, &m.Sigma2Mean,
		&m.TestMSEClean, &m.DataVariance, &m.VarOverMSE, &m.VarOverMSEClean)
	for _, col := range []struct {
		name string
		xs   []float64
	}{{"trace.train_mse", r.Trace.TrainMSE}, {"trace.test_mse", r.Trace.TestMSE}, {"trace.sigma2", r.Trace.Sigma2}} {
		ptrs := make([]*float64, len(col.xs))
		for i := range col.xs {
			ptrs[i] = &col.xs[i]
		}
		clamp(col.name, ptrs...)
	}
}
