package experiments

import (
	"context"
	"fmt"

	"github.com/bnmf-lab/bnmf/bnmf"
	"github.com/bnmf-lab/bnmf/dataset"
)

// KindSparsity names the sparsity study: held-out MSE against the
// fraction unobserved (the paper's Fig. 5 and Table 2). Each cell holds
// out entries at its fraction; the split depends on (base seed, fraction,
// repeat) only, so every model and rank sees the same split.
const KindSparsity = "sparsity"

type sparsityKind struct{}

func (sparsityKind) Name() string  { return KindSparsity }
func (sparsityKind) Axis() Axis    { return FractionAxis{} }
func (sparsityKind) HeldOut() bool { return true }

func (sparsityKind) validate(c *Config) error {
	if len(c.Fractions) == 0 {
		return c.errorf("fractions", "a sparsity study needs fractions unobserved")
	}
	if len(c.NoiseRatios) > 0 {
		return c.errorf("noise_ratios", "noise ratios apply only to noise studies")
	}
	if _, set := c.lines["noise_holdout"]; set {
		return c.errorf("noise_holdout", "noise_holdout applies only to noise studies")
	}
	return nil
}

func (sparsityKind) hashed(h *hashed) { h.NoiseHoldout = 0 }

func (sparsityKind) grid(c *Config) []float64 { return c.Fractions }

func (sparsityKind) prepare(ctx context.Context, p *Plan) (cellSource, error) {
	minF := dataset.MinFractionUnobserved(p.data)
	for i, f := range p.Config.Fractions {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("%s: checking the splits: %w", p.Config.file, err)
		}
		if err := p.checkSplit(fmt.Sprintf("fractions[%d]", i), f, minF); err != nil {
			return nil, err
		}
	}
	return sparsityCells{p}, nil
}

// sparsityCells splits the data at each cell's fraction unobserved.
type sparsityCells struct{ p *Plan }

func (s sparsityCells) cellData(c Cell) (cellData, error) {
	p := s.p
	train, test, err := dataset.SplitUnobserved(p.data, c.Fraction, p.coverage, SplitSource(p.Config.Seed, c.Fraction, c.Repeat))
	if err != nil {
		return cellData{}, err
	}
	m, err := bnmf.NewMatrix(p.data.Rows, p.data.Cols, train)
	return cellData{train: m, test: test}, err
}

func (s sparsityCells) describe(m *Manifest) {
	m.Fractions = s.p.Config.Fractions
	m.Coverage = s.p.Config.Coverage
}

// FractionAxis is the Axis of a sparsity study: Cell.Fraction, the fraction
// of the data left unobserved.
type FractionAxis struct{}

// Name returns "fraction".
func (FractionAxis) Name() string { return "fraction" }

// Column returns "fraction".
func (FractionAxis) Column() string { return "fraction" }

// Value returns c.Fraction.
func (FractionAxis) Value(c Cell) float64 { return c.Fraction }

// With returns c with Fraction v.
func (FractionAxis) With(c Cell, v float64) Cell { c.Fraction = v; return c }

// Grid returns m.Fractions.
func (FractionAxis) Grid(m *Manifest) []float64 { return m.Fractions }
