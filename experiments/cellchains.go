package experiments

import (
	"fmt"
	"slices"

	"github.com/bnmf-lab/bnmf/bnmf"
)

// CellChains is what the chains of one cell of a prepared study run on,
// exactly as Plan.Run runs them: bnmf.RunChains(ctx, Model, Train,
// Settings, Chains), followed by Rescale(Scale) of its result, gives the
// numbers of the cell's record. A program that needs more of a cell than
// its record keeps (the factors, every draw) reruns it from here.
type CellChains struct {
	// Model is the cell's model.
	Model bnmf.Model
	// Train is the cell's training matrix, divided by Scale when the
	// config standardizes.
	Train *bnmf.Matrix
	// Settings are the chain settings: sweeps, burn-in and thinning,
	// the cell's rank and seed (CellSeed), its test entries and tracked
	// entries, predictive scores, and sweeps: auto when configured. They
	// hold no Recorder and no Draws; set them as needed.
	Settings bnmf.Settings
	// Chains is the number of chains per cell.
	Chains int
	// Scale is what the values were divided by: 1 unless the config
	// standardizes (see bnmf.UnitScale).
	Scale float64
}

// CellChains returns what the chains of cell c run on, with workers
// sampler workers (the numbers do not depend on them): the same training
// and test entries, seed and settings as Plan.Run. Nothing is run or
// written. Errors name the cell.
func (p *Plan) CellChains(c Cell, workers int) (CellChains, error) {
	if !slices.Contains(p.Manifest.Cells, c) {
		return CellChains{}, fmt.Errorf("cell %s: study %s has no such cell (its models, ranks, grid and repeats are in its manifest)", c.Key(), p.Config.Name)
	}
	d, err := p.source.cellData(c)
	if err != nil {
		return CellChains{}, fmt.Errorf("cell %s: preparing the data: %w", c.Key(), err)
	}
	in, err := p.cellChains(c, d, workers)
	if err != nil {
		return CellChains{}, fmt.Errorf("cell %s: %w", c.Key(), err)
	}
	return in, nil
}

// cellChains returns what the chains of cell c run on, given its data d.
func (p *Plan) cellChains(c Cell, d cellData, workers int) (CellChains, error) {
	cfg := p.Config
	settings := p.settings
	settings.Rank = c.Rank
	settings.Workers = workers
	settings.Seed = CellSeed(cfg.Seed, c)
	settings.Test = d.test
	settings.Tracked = trackedIndices(TrackedSource(cfg.Seed, c.Fraction, c.Repeat), len(d.test))
	if len(d.test) > 0 {
		settings.Scores = scoreSettings()
		if d.clean != nil {
			settings.ExtraTargets = [][]float64{d.clean}
		}
	}
	in := CellChains{Model: p.models[c.Model], Train: d.train, Chains: p.chains, Scale: 1}
	if cfg.Standardize {
		var err error
		if in.Train, settings, in.Scale, err = standardized(d, settings); err != nil {
			return CellChains{}, err
		}
	}
	if cfg.AutoSweeps {
		settings.Auto = &bnmf.AutoSweeps{MaxSweeps: cfg.MaxSweeps, Stop: bnmf.AutoRule{TrainVariance: in.Train.Variance()}}
	}
	in.Settings = settings
	return in, nil
}
