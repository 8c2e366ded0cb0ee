package experiments

import (
	"context"
	"fmt"

	"github.com/bnmf-lab/bnmf/bnmf"
)

// KindConvergence names the convergence study: every model trains on all
// observed entries, and the train MSE is followed sweep by sweep (the
// paper's Fig. 2). It varies nothing besides model, rank and repeat.
const KindConvergence = "convergence"

type convergenceKind struct{ allEntries }

func (convergenceKind) Name() string { return KindConvergence }

// allEntries is what the kinds whose every cell trains on all observed
// entries share (convergence and runtime): no axis, no split, no held-out
// entries; the config names the kind in its errors.
type allEntries struct{}

func (allEntries) Axis() Axis    { return NoAxis{} }
func (allEntries) HeldOut() bool { return false }

func (allEntries) validate(c *Config) error {
	if len(c.Fractions) > 0 {
		return c.errorf("fractions", "fractions apply only to sparsity studies")
	}
	if len(c.NoiseRatios) > 0 {
		return c.errorf("noise_ratios", "noise ratios apply only to noise studies")
	}
	if _, set := c.lines["noise_holdout"]; set {
		return c.errorf("noise_holdout", "noise_holdout applies only to noise studies")
	}
	if _, set := c.lines["coverage"]; set {
		return c.errorf("coverage", "a %s study trains on every entry and has no split", c.Kind)
	}
	return nil
}

func (allEntries) hashed(h *hashed) {
	h.NoiseHoldout = 0
	h.Coverage = ""
}

func (allEntries) grid(*Config) []float64 { return nil }

func (allEntries) prepare(_ context.Context, p *Plan) (cellSource, error) {
	full, err := p.data.Matrix()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p.Config.file, err)
	}
	return allEntriesCells{full}, nil
}

// allEntriesCells gives every cell all observed entries to train on.
type allEntriesCells struct{ full *bnmf.Matrix }

func (s allEntriesCells) cellData(Cell) (cellData, error) { return cellData{train: s.full}, nil }

func (allEntriesCells) describe(*Manifest) {}
