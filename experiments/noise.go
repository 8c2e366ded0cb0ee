package experiments

import (
	"context"
	"slices"

	"github.com/bnmf-lab/bnmf/bnmf"
	"github.com/bnmf-lab/bnmf/dataset"
)

// KindNoise names the noise study: held-out MSE against the
// noise-to-signal variance ratio (the paper's Fig. 4). Every cell holds
// out the same share of the observed entries (noise_holdout) and adds
// Gaussian noise at its ratio; the split depends on (base seed, repeat)
// and the noise on (base seed, ratio, repeat) only.
const KindNoise = "noise"

type noiseKind struct{}

func (noiseKind) Name() string  { return KindNoise }
func (noiseKind) Axis() Axis    { return NoiseRatioAxis{} }
func (noiseKind) HeldOut() bool { return true }

func (noiseKind) validate(c *Config) error {
	if len(c.Fractions) > 0 {
		return c.errorf("fractions", "fractions apply only to sparsity studies")
	}
	if len(c.NoiseRatios) == 0 {
		return c.errorf("noise_ratios", "a noise study needs noise ratios")
	}
	return nil
}

func (noiseKind) hashed(*hashed) {}

func (noiseKind) grid(c *Config) []float64 { return c.NoiseRatios }

func (noiseKind) prepare(_ context.Context, p *Plan) (cellSource, error) {
	minF := dataset.MinFractionUnobserved(p.data)
	f := 1 - (1-p.Config.NoiseHoldout)*(1-minF)
	if err := p.checkSplit("noise_holdout", f, minF); err != nil {
		return nil, err
	}
	return noiseCells{p, f}, nil
}

// noiseCells holds out one split per repeat and adds noise at each cell's
// ratio.
type noiseCells struct {
	p *Plan
	// fraction is the fraction unobserved of the split.
	fraction float64
}

// cellData draws the training and test entries of cell c.
//
// The noisy training values of a model that needs nonnegative data (NMF,
// whose multiplicative updates do) are clipped at 0, because Gaussian
// noise makes some values negative; runCell records how many were clipped
// in a warning. The other models train on the unclipped noisy values, and
// every model is scored on the same, unclipped, noisy and clean test
// values.
func (s noiseCells) cellData(c Cell) (cellData, error) {
	p := s.p
	cfg := p.Config
	train, test, err := dataset.SplitUnobserved(p.data, s.fraction, p.coverage, SplitSource(cfg.Seed, s.fraction, c.Repeat))
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
	if spec, _ := bnmf.Lookup(c.Model); spec.Nonnegative {
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

func (s noiseCells) describe(m *Manifest) {
	// The one split that every noise cell uses.
	m.Fractions = []float64{s.fraction}
	m.NoiseRatios = s.p.Config.NoiseRatios
	m.Coverage = s.p.Config.Coverage
}

// NoiseRatioAxis is the Axis of a noise study: Cell.NoiseRatio, the
// noise-to-signal variance ratio.
type NoiseRatioAxis struct{}

// Name returns "noise ratio".
func (NoiseRatioAxis) Name() string { return "noise ratio" }

// Column returns "noise_ratio".
func (NoiseRatioAxis) Column() string { return "noise_ratio" }

// Value returns c.NoiseRatio.
func (NoiseRatioAxis) Value(c Cell) float64 { return c.NoiseRatio }

// With returns c with NoiseRatio v.
func (NoiseRatioAxis) With(c Cell, v float64) Cell { c.NoiseRatio = v; return c }

// Grid returns m.NoiseRatios.
func (NoiseRatioAxis) Grid(m *Manifest) []float64 { return m.NoiseRatios }
