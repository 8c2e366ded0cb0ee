package experiments

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/bnmf-lab/bnmf/bnmf"
	"github.com/bnmf-lab/bnmf/dataset"
	"github.com/bnmf-lab/bnmf/sparse"
)

// KindModelSelection names the model-selection study of Brouwer & Lio
// (2017): held-out MSE over a grid of ranks K, by cross-validation. The
// study's repeats are its folds: the observed entries are split once into
// `repeats` folds (unstratified, every fold's training part keeping an
// entry in every row and column; see dataset.CrossValidationFolds), and
// repeat r trains on every fold but r and is scored on fold r. The
// partition depends on the base seed only, so every model and rank sees
// the same folds.
//
// Upstream draws a fresh partition for each K (model_selection_experiment.py);
// one partition for all K makes the comparison between ranks paired, so
// the choice of K is not blurred by the folds' own variation.
const KindModelSelection = "model-selection"

// foldAttempts is the number of partitions a model-selection study draws
// before it gives up on one whose training parts cover every row and
// column, as upstream's compute_folds_attempts.
const foldAttempts = 100

type modelSelectionKind struct{}

func (modelSelectionKind) Name() string  { return KindModelSelection }
func (modelSelectionKind) Axis() Axis    { return NoAxis{} }
func (modelSelectionKind) HeldOut() bool { return true }

func (modelSelectionKind) validate(c *Config) error { return validateFolds(c) }

func (modelSelectionKind) hashed(h *hashed) {
	h.NoiseHoldout = 0
	h.Coverage = ""
}

func (modelSelectionKind) grid(*Config) []float64 { return nil }

func (modelSelectionKind) prepare(ctx context.Context, p *Plan) (cellSource, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("%s: drawing the folds: %w", p.Config.file, err)
	}
	fold, err := dataset.CrossValidationFolds(p.data.Rows, p.data.Cols, p.data.Entries, p.Config.Repeats,
		dataset.StratifyNone, foldAttempts, FoldSource(p.Config.Seed, dataset.StratifyNone, -1))
	if err != nil {
		return nil, p.Config.errorf("repeats", "%d folds of %s: %v", p.Config.Repeats, p.data.Name, err)
	}
	return foldCells{rows: p.data.Rows, cols: p.data.Cols, entries: p.data.Entries, fold: fold}, nil
}

// foldCells gives cell repeat r fold r of one partition to be scored on,
// and the other folds to train on.
type foldCells struct {
	rows, cols int
	entries    []sparse.Entry
	fold       []int // each entry's fold
}

func (s foldCells) cellData(c Cell) (cellData, error) {
	train, test := splitFold(s.entries, s.fold, c.Repeat)
	m, err := bnmf.NewMatrix(s.rows, s.cols, train)
	return cellData{train: m, test: test}, err
}

func (foldCells) describe(*Manifest) {}

// splitFold returns the entries outside fold f and those in it.
func splitFold(entries []sparse.Entry, fold []int, f int) (train, test []sparse.Entry) {
	for t, e := range entries {
		if fold[t] == f {
			test = append(test, e)
		} else {
			train = append(train, e)
		}
	}
	return train, test
}

// validateFolds checks the settings of a cross-validation study (model
// selection, nested cross-validation): at least two folds, and none of
// the settings of sparsity and noise studies. The folds keep a training
// entry in every row and column by construction, so coverage does not
// apply either.
func validateFolds(c *Config) error {
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
		return c.errorf("coverage", "a %s study's folds keep a training entry in every row and column; coverage does not apply", c.Kind)
	}
	if c.Repeats < 2 {
		return c.errorf("repeats", "a %s study's repeats are its folds: want at least 2, got %d", c.Kind, c.Repeats)
	}
	return nil
}

// FoldSource returns the random source of a cross-validation partition:
// a ChaCha8 stream keyed by the SHA-256 digest of
//
//	"bnmf/folds/v1 base=<base> stratify=<none|columns>"
//
// for the partition of all observed entries, and with " outer=<o>"
// appended (o >= 0) for the inner partition of outer fold o's training
// entries in a nested cross-validation.
func FoldSource(base uint64, strat dataset.Stratify, outer int) rand.Source {
	s := fmt.Sprintf("bnmf/folds/v1 base=%d stratify=%v", base, strat)
	if outer >= 0 {
		s += fmt.Sprintf(" outer=%d", outer)
	}
	return rand.NewChaCha8(digest(s))
}
