package experiments

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/bnmf-lab/bnmf/bnmf"
	"github.com/bnmf-lab/bnmf/dataset"
	"github.com/bnmf-lab/bnmf/sparse"
)

// KindNestedCV names the nested cross-validation of Brouwer & Lio (2017),
// their nested_matrix_cross_validation: the observed entries are split
// into F outer folds (F = the config's repeats), stratified by column;
// within each outer fold's training part, F inner folds choose K from the
// config's ranks by the lowest mean held-out MSE; the chosen K is fitted
// to the whole outer training part and scored on the outer fold.
//
// Its cells are those of every model, rank, outer fold (Cell.Repeat, from
// 0) and inner fold (Cell.Fold, from 1 to F); the cell of inner fold 0 of
// a rank trains on the outer training part and is scored on the outer
// fold. Cells at every rank are scored on the outer fold, not only at the
// chosen one, so that no cell depends on another's result; NestedChoices
// reads the choice and its score from the records afterwards. This costs
// F+1 chains per rank and outer fold where upstream runs F, plus one for
// the chosen rank.
//
// Both partitions are stratified by column and redrawn until every
// training part keeps an entry in every row and column
// (dataset.CrossValidationFolds, up to 1000 draws as upstream). The
// outer partition depends on the base seed only and the inner one of
// outer fold o on (base seed, o), so every model and rank sees the same
// folds; upstream draws a fresh inner partition for each K. An outer
// fold whose training part admits no inner partition (a row or column
// with too few entries left) keeps its cells: the inner ones fail with
// that error, the manifest warns, and NestedChoices falls back to the
// first listed rank, as upstream does when its inner loop cannot draw
// folds (12 of its 25 outer folds on CCLE EC50).
const KindNestedCV = "nested-cv"

// nestedFoldAttempts is the number of partitions a nested cross-validation
// draws before giving up, as upstream's attempts_generate_M.
const nestedFoldAttempts = 1000

type nestedCVKind struct{}

func (nestedCVKind) Name() string  { return KindNestedCV }
func (nestedCVKind) Axis() Axis    { return InnerFoldAxis{} }
func (nestedCVKind) HeldOut() bool { return true }

func (nestedCVKind) validate(c *Config) error { return validateFolds(c) }

func (nestedCVKind) hashed(h *hashed) {
	h.NoiseHoldout = 0
	h.Coverage = ""
}

func (nestedCVKind) grid(c *Config) []float64 { return innerFoldGrid(c.Repeats) }

// innerFoldGrid returns 0 (the outer fold) and the inner folds 1 to f.
func innerFoldGrid(f int) []float64 {
	grid := make([]float64, f+1)
	for i := range grid {
		grid[i] = float64(i)
	}
	return grid
}

func (nestedCVKind) prepare(ctx context.Context, p *Plan) (cellSource, error) {
	cfg := p.Config
	d := p.data
	k := cfg.Repeats
	outer, err := dataset.CrossValidationFolds(d.Rows, d.Cols, d.Entries, k, dataset.StratifyColumns,
		nestedFoldAttempts, FoldSource(cfg.Seed, dataset.StratifyColumns, -1))
	if err != nil {
		return nil, cfg.errorf("repeats", "%d outer folds of %s: %v", k, d.Name, err)
	}
	s := nestedCells{rows: d.Rows, cols: d.Cols, entries: d.Entries, outer: outer, inner: make([][]int, k), innerErr: make([]error, k)}
	for o := range k {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("%s: drawing the folds: %w", cfg.file, err)
		}
		train, _ := splitFold(d.Entries, outer, o)
		s.inner[o], err = dataset.CrossValidationFolds(d.Rows, d.Cols, train, k, dataset.StratifyColumns,
			nestedFoldAttempts, FoldSource(cfg.Seed, dataset.StratifyColumns, o))
		if err != nil {
			s.innerErr[o] = fmt.Errorf("outer fold %d has no inner partition: %w", o, err)
		}
	}
	return s, nil
}

// nestedCells makes the data of a nested cross-validation's cells.
type nestedCells struct {
	rows, cols int
	entries    []sparse.Entry
	// outer holds each entry's outer fold; inner[o] the inner fold of
	// each entry of outer fold o's training part, in the order of
	// entries.
	outer []int
	inner [][]int
	// innerErr[o] says why outer fold o has no inner partition, or is
	// nil.
	innerErr []error
}

func (s nestedCells) cellData(c Cell) (cellData, error) {
	if c.Repeat < 0 || c.Repeat >= len(s.inner) || c.Fold < 0 || c.Fold > len(s.inner) {
		return cellData{}, fmt.Errorf("cell %s: no outer fold %d or inner fold %d of %d", c, c.Repeat, c.Fold, len(s.inner))
	}
	train, test := splitFold(s.entries, s.outer, c.Repeat)
	if c.Fold > 0 && s.innerErr[c.Repeat] != nil {
		return cellData{}, s.innerErr[c.Repeat]
	}
	if c.Fold > 0 {
		train, test = splitFold(train, s.inner[c.Repeat], c.Fold-1)
	}
	m, err := bnmf.NewMatrix(s.rows, s.cols, train)
	return cellData{train: m, test: test}, err
}

// describe warns of each outer fold without an inner partition.
func (s nestedCells) describe(m *Manifest) {
	for _, err := range s.innerErr {
		if err != nil {
			m.Warnings = append(m.Warnings, fmt.Sprintf("nested cross-validation: %v; its inner cells fail, "+
				"and it is scored at the first listed rank, as upstream does", err))
		}
	}
}

// InnerFoldAxis is the Axis of a nested cross-validation: Cell.Fold, the
// inner fold (0 for the outer fold's own test).
type InnerFoldAxis struct{}

// Name returns "inner fold".
func (InnerFoldAxis) Name() string { return "inner fold" }

// Column returns "inner_fold".
func (InnerFoldAxis) Column() string { return "inner_fold" }

// Value returns c.Fold.
func (InnerFoldAxis) Value(c Cell) float64 { return float64(c.Fold) }

// With returns c with Fold v.
func (InnerFoldAxis) With(c Cell, v float64) Cell { c.Fold = int(v); return c }

// Grid returns 0 to m.Repeats: the outer fold's test and each inner fold.
func (InnerFoldAxis) Grid(m *Manifest) []float64 { return innerFoldGrid(m.Repeats) }

// NestedChoice is what a nested cross-validation chose for one model in
// one outer fold.
type NestedChoice struct {
	Model string
	// Outer is the outer fold, from 0 (the cells' Repeat).
	Outer int
	// Ranks are the study's ranks, ascending; InnerMSE[i] is the mean
	// held-out MSE over the inner folds at Ranks[i], NaN where an inner
	// fold's record is missing or failed (that rank is then not a
	// candidate).
	Ranks    []int
	InnerMSE []float64
	// Rank is the chosen rank: the candidate with the lowest InnerMSE,
	// the smaller rank on a tie. When no rank is a candidate and some
	// inner cell failed, it is the first listed rank, as upstream falls
	// back to its first parameters, and Fallback is set; when no rank is
	// a candidate and no inner cell failed (the inner folds have not all
	// run yet), it is 0.
	Rank     int
	Fallback bool
	// TestMSE is the held-out MSE on the outer fold of the cell that
	// fitted Rank to the outer training part, NaN when its record is
	// missing or failed.
	TestMSE float64
}

// NestedChoices returns, for every model and outer fold of a nested
// cross-validation with manifest m, the rank its inner folds choose and
// that rank's score on the outer fold, read from records (those of the
// study, each cell at most once; records of other cells are ignored). The
// choices are ordered by model, in the manifest's order, then outer fold.
// The score is each cell's held-out MSE of the posterior predictive mean,
// E[WZ] (Metrics.TestMSE); NestedChoicesBy takes another.
func NestedChoices(m Manifest, records []Record) []NestedChoice {
	return NestedChoicesBy(m, records, func(x *Metrics) float64 { return x.TestMSE })
}

// NestedChoicesBy is NestedChoices with each cell scored by score, for
// both the inner folds' choice and the outer fold's score: for instance
// Metrics.TestMSEOfMeans, the held-out MSE of the product of the
// factors' posterior means, E[W] E[Z], the estimator Brouwer & Lio's code
// predicts with.
func NestedChoicesBy(m Manifest, records []Record, score func(*Metrics) float64) []NestedChoice {
	ranks := slices.Sorted(slices.Values(m.Ranks))
	type at struct {
		model             string
		rank, outer, fold int
	}
	mse := make(map[at]float64)
	type outerOf struct {
		model string
		outer int
	}
	failed := make(map[outerOf]bool)
	for _, r := range records {
		if r.Error != "" {
			if r.Cell.Fold > 0 {
				failed[outerOf{r.Cell.Model, r.Cell.Repeat}] = true
			}
			continue
		}
		mse[at{r.Cell.Model, r.Cell.Rank, r.Cell.Repeat, r.Cell.Fold}] = score(&r.Metrics)
	}
	var out []NestedChoice
	for _, model := range m.Models {
		for o := range m.Repeats {
			ch := NestedChoice{Model: model, Outer: o, Ranks: ranks, InnerMSE: make([]float64, len(ranks)), TestMSE: math.NaN()}
			best := math.Inf(1)
			for i, k := range ranks {
				sum, ok := 0.0, true
				for f := 1; f <= m.Repeats && ok; f++ {
					v, found := mse[at{model, k, o, f}]
					ok = found
					sum += v
				}
				ch.InnerMSE[i] = math.NaN()
				if !ok {
					continue
				}
				ch.InnerMSE[i] = sum / float64(m.Repeats)
				if ch.InnerMSE[i] < best {
					best, ch.Rank = ch.InnerMSE[i], k
				}
			}
			if math.IsInf(best, 1) && len(ranks) > 0 && failed[outerOf{model, o}] {
				ch.Rank, ch.Fallback = m.Ranks[0], true
			}
			if v, ok := mse[at{model, ch.Rank, o, 0}]; ok {
				ch.TestMSE = v
			}
			out = append(out, ch)
		}
	}
	return out
}
