package experiments

import (
	"fmt"
	"github.com/bnmf-lab/bnmf/bnmf"
	"math"
	"slices"
	"strings"
	"unicode"

	"github.com/bnmf-lab/bnmf/dataset"
)

// maxCells is the largest number of cells a study may have: ten million,
// far above the paper's largest study (2,400 cells) and small enough that
// listing the cells takes well under a gigabyte.
const maxCells = 10_000_000

// MaxChains is the largest number of chains per cell: bnmf.MaxChains.
const MaxChains = bnmf.MaxChains

// Validate checks everything about c that does not need the data, and
// returns the first problem as a *ConfigError. Prepare checks the rest
// (that the fractions lie within the data's range) once the data is
// loaded.
func (c *Config) Validate() error {
	kind, ok := c.lookupKind()
	switch {
	case c.Kind == "":
		return c.errorf("kind", "a study needs a kind: %s", orList(KindNames()))
	case !ok:
		return c.errorf("kind", "unknown kind %q; want %s", c.Kind, orList(KindNames()))
	}
	if err := c.validateDataset(); err != nil {
		return err
	}
	if len(c.Models) == 0 {
		return c.errorf("models", "list at least one model")
	}
	for i := range c.Models {
		if err := c.validateModel(i); err != nil {
			return err
		}
		for j := range i {
			if c.Models[j].Key() == c.Models[i].Key() {
				return c.errorf(fmt.Sprintf("models[%d].name", i), "model %s is listed twice", c.Models[i].Key())
			}
		}
	}
	if err := c.validateCounts(); err != nil {
		return err
	}
	if len(c.Ranks) == 0 {
		return c.errorf("ranks", "list at least one rank")
	}
	for i, k := range c.Ranks {
		key := fmt.Sprintf("ranks[%d]", i)
		if k <= 0 {
			return c.errorf(key, "rank %d must be positive", k)
		}
		if slices.Contains(c.Ranks[:i], k) {
			return c.errorf(key, "rank %d is listed twice", k)
		}
	}
	if err := kind.validate(c); err != nil {
		return err
	}
	// The settings key belongs to the kinds on a SettingAxis, whatever
	// their number, so no other kind's file needs to refuse it.
	_, onSettings := kind.Axis().(SettingAxis)
	switch {
	case onSettings && len(c.Settings) == 0:
		return c.errorf("settings", "a %s study needs its %s values listed under settings", c.Kind, kind.Axis().Name())
	case !onSettings && len(c.Settings) > 0:
		return c.errorf("settings", "a %s study does not take settings", c.Kind)
	}
	if err := c.validateGrid(); err != nil {
		return err
	}
	return c.validateChain()
}

func (c *Config) validateDataset() error {
	d := &c.Dataset
	switch {
	case d.Name == "" && d.Path == "":
		return c.errorf("dataset", "give a dataset name (one of %v) or a path and format", dataset.Names())
	case d.Name != "" && d.Path != "":
		return c.errorf("dataset.path", "give either a dataset name or a path, not both")
	case d.Name != "" && !slices.Contains(dataset.Names(), d.Name):
		return c.errorf("dataset.name", "unknown dataset %q; the datasets are %v (or give a path and format)", d.Name, dataset.Names())
	case d.Name != "" && d.Format != "":
		return c.errorf("dataset.format", "a format goes only with a path")
	case d.Path != "" && d.Format != "" && !slices.Contains(dataset.Formats(), d.Format):
		return c.errorf("dataset.format", "unknown format %q; the formats are %v", d.Format, dataset.Formats())
	}
	if d.MinRatings < 0 {
		return c.errorf("dataset.min_ratings", "%d must not be negative", d.MinRatings)
	}
	if d.Cast != "" && d.Cast != CastInteger {
		return c.errorf("dataset.cast", "unknown cast %q; the one cast is %q (truncate every value to an integer)", d.Cast, CastInteger)
	}
	if strings.ContainsFunc(d.Label, unicode.IsControl) || (d.Label != "" && strings.TrimSpace(d.Label) == "") {
		return c.errorf("dataset.label", "%q must be one line of visible text", d.Label)
	}
	s := d.Synthetic
	if s != (SyntheticConfig{}) && d.Name != "synthetic" {
		return c.errorf("dataset.synthetic", "synthetic options apply only to the synthetic dataset")
	}
	for _, f := range []struct {
		key string
		v   int
	}{{"rows", s.Rows}, {"cols", s.Cols}, {"rank", s.Rank}} {
		if f.v < 0 {
			return c.errorf("dataset.synthetic."+f.key, "%d must not be negative", f.v)
		}
	}
	if !(s.Density >= 0 && s.Density <= 1) {
		return c.errorf("dataset.synthetic.density", "%v must lie in [0, 1]", s.Density)
	}
	if math.IsNaN(s.NoiseStd) || math.IsInf(s.NoiseStd, 0) {
		return c.errorf("dataset.synthetic.noise_std", "%v must be finite", s.NoiseStd)
	}
	return nil
}

// validateGrid checks the values of the fractions, noise ratios, holdout
// and coverage; the kind has checked which of them the study may set.
func (c *Config) validateGrid() error {
	for i, f := range c.Fractions {
		key := fmt.Sprintf("fractions[%d]", i)
		if !(f > 0 && f < 1) {
			return c.errorf(key, "fraction unobserved %v must lie strictly between 0 and 1", f)
		}
		if slices.Contains(c.Fractions[:i], f) {
			return c.errorf(key, "fraction %v is listed twice", f)
		}
	}
	for i, r := range c.NoiseRatios {
		key := fmt.Sprintf("noise_ratios[%d]", i)
		if !(r >= 0) || math.IsInf(r, 0) {
			return c.errorf(key, "noise ratio %v must be finite and not negative", r)
		}
		if slices.Contains(c.NoiseRatios[:i], r) {
			return c.errorf(key, "noise ratio %v is listed twice", r)
		}
	}
	for i, v := range c.Settings {
		key := fmt.Sprintf("settings[%d]", i)
		if math.IsNaN(v) || math.IsInf(v, 0) || v == 0 {
			return c.errorf(key, "%v must be finite and not 0", v)
		}
		if slices.Contains(c.Settings[:i], v) {
			return c.errorf(key, "%v is listed twice", v)
		}
	}
	if !(c.NoiseHoldout > 0 && c.NoiseHoldout < 1) {
		return c.errorf("noise_holdout", "%v must lie strictly between 0 and 1", c.NoiseHoldout)
	}
	if _, err := dataset.ParseCoverage(c.Coverage); err != nil {
		return c.errorf("coverage", "%v", err)
	}
	return nil
}

// validateChain checks repeats, sweeps, burn-in, thinning, the number of
// cells (at most maxCells) and the output.
func (c *Config) validateChain() error {
	if c.Repeats <= 0 {
		return c.errorf("repeats", "%d must be positive", c.Repeats)
	}
	if c.Chains < 1 || c.Chains > MaxChains {
		return c.errorf("chains", "%d must be between 1 and %d", c.Chains, MaxChains)
	}
	if _, err := bnmf.ParseSigma2Start(c.Sigma2Start); err != nil {
		return c.errorf("sigma2_start", "%v", err)
	}
	if err := c.validateAutoSweeps(); err != nil {
		return err
	}
	if !c.AutoSweeps && (c.Sweeps <= 0 || c.Sweeps > bnmf.MaxSweeps) {
		return c.errorf("sweeps", "%d must be between 1 and %d (every sweep's statistics are kept in memory)", c.Sweeps, bnmf.MaxSweeps)
	}
	if c.BurnIn < 0 {
		return c.errorf("burn_in", "%d must not be negative", c.BurnIn)
	}
	if c.BurnIn >= c.Sweeps && !c.AutoSweeps {
		key := "burn_in"
		if _, set := c.lines[key]; !set {
			key = "sweeps" // the burn-in is the default: point at what changed
		}
		return c.errorf(key, "burn_in %d must be less than sweeps %d", c.BurnIn, c.Sweeps)
	}
	if c.Thin <= 0 {
		return c.errorf("thin", "%d must be positive", c.Thin)
	}
	if !c.AutoSweeps && c.chainSettings().KeptSweeps() == 0 {
		kept := c.Sweeps - c.BurnIn
		return c.errorf("thin", "%d keeps none of the %d sweeps after burn-in; it must be at most sweeps - burn_in = %d", c.Thin, kept, kept)
	}
	// Cells() lists every cell, so the grid's size bounds the memory a
	// study takes before its first chain runs.
	perRepeat := len(c.Ranks) * len(c.Models) * max(1, len(c.kind().grid(c)))
	if c.Repeats > maxCells/perRepeat {
		return c.errorf("repeats", "%d repeats of %d cells each make more than the %d cells a study may have", c.Repeats, perRepeat, maxCells)
	}
	if c.Output == "" {
		return c.errorf("output", "the output directory must not be empty")
	}
	return nil
}

// orList joins names as "a, b or c".
func orList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}
