package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/bnmf-lab/bnmf/bnmf"
)

// The checks of fit's flags and the model they configure.

// validate checks the flags that need no data.
func (o *fitOptions) validate() error {
	if o.autoSweeps {
		if err := o.validateAuto(); err != nil {
			return err
		}
	}
	switch {
	case o.rank < 1:
		return fmt.Errorf("--rank %d must be positive", o.rank)
	case !o.autoSweeps && (o.sweeps < 1 || o.sweeps > bnmf.MaxSweeps):
		return fmt.Errorf("--sweeps %d must be between 1 and %d (every sweep's statistics are kept in memory)", o.sweeps, bnmf.MaxSweeps)
	case !o.autoSweeps && o.burnIn < -1:
		return fmt.Errorf("--burn-in %d must not be negative (-1 means four fifths of --sweeps)", o.burnIn)
	case !o.autoSweeps && o.burnIn >= o.sweeps:
		return fmt.Errorf("--burn-in %d must be less than --sweeps %d", o.burnIn, o.sweeps)
	case o.thin < 1:
		return fmt.Errorf("--thin %d must be positive", o.thin)
	case o.chains < 1 || o.chains > bnmf.MaxChains:
		return fmt.Errorf("--chains %d must be between 1 and %d", o.chains, bnmf.MaxChains)
	case o.workers < 0:
		return fmt.Errorf("--workers %d must not be negative", o.workers)
	case o.samples < o.chains:
		return fmt.Errorf("--samples %d must be at least --chains %d (one sample per chain)", o.samples, o.chains)
	case !(o.holdout >= 0 && o.holdout < 1):
		return fmt.Errorf("--holdout %v must be in [0, 1)", o.holdout)
	case o.minRatings < 0:
		return fmt.Errorf("--min-ratings %d must not be negative", o.minRatings)
	case o.progress <= 0:
		return fmt.Errorf("--progress %v must be positive", o.progress)
	}
	if o.sigma2Start != "auto" && o.sigma2Start != "" {
		if _, err := bnmf.ParseSigma2Start(o.sigma2Start); err != nil {
			return fmt.Errorf("--sigma2-start: %w (or auto)", err)
		}
	}
	if s := o.chainSettings(); !o.autoSweeps && s.KeptSweeps() == 0 {
		return fmt.Errorf("--thin %d keeps none of the %d sweeps after burn-in", o.thin, o.sweeps-s.BurnInSweeps())
	}
	return nil
}

// chainSettings returns the sweeps, burn-in and thinning that the flags
// ask for. A --burn-in of -1 (the default) becomes bnmf's 0, four fifths
// of the sweeps (or, with --sweeps auto, what Settings.Auto needs), and
// one of 0 bnmf.NoBurnIn.
func (o *fitOptions) chainSettings() bnmf.Settings {
	s := bnmf.Settings{Sweeps: o.sweeps, BurnIn: o.burnIn, Thin: o.thin}
	switch {
	case o.burnIn < 0:
		s.BurnIn = 0
	case o.burnIn == 0:
		s.BurnIn = bnmf.NoBurnIn
	}
	return s
}

// sigma2StartFor returns the start of sigma^2 that --sigma2-start asks
// for with model (validated): auto (or unset) is the data's variance for
// a model with offsets (bnmf.Biased) and the paper's conditional draw
// otherwise.
func (o *fitOptions) sigma2StartFor(model bnmf.Model) bnmf.Sigma2Start {
	if o.sigma2Start == "auto" || o.sigma2Start == "" {
		if _, biased := model.(bnmf.Biased); biased {
			return bnmf.Sigma2AtDataVariance
		}
		return bnmf.Sigma2FromConditional
	}
	s, err := bnmf.ParseSigma2Start(o.sigma2Start)
	if err != nil {
		panic("bnmf fit: --sigma2-start not validated: " + err.Error())
	}
	return s
}

// bayesianModels lists the registered models that have a posterior.
func bayesianModels() []string {
	var names []string
	for _, s := range bnmf.Specs() {
		if !s.PointEstimate {
			names = append(names, s.Name)
		}
	}
	return names
}

// configureModel returns the model called name with the hyperparameters
// that sets (key=value each) give, and those values by key.
func configureModel(name string, sets []string) (bnmf.Model, map[string]any, error) {
	spec, ok := bnmf.Lookup(name)
	if !ok {
		return nil, nil, fmt.Errorf("--model %s: unknown model; the models are %s", name, strings.Join(bayesianModels(), ", "))
	}
	if spec.PointEstimate {
		return nil, nil, fmt.Errorf("--model %s is a point estimate with no posterior to sample; use one of %s", name, strings.Join(bayesianModels(), ", "))
	}
	keys := make([]string, len(spec.Params))
	for i, p := range spec.Params {
		keys[i] = p.Key
	}
	values := make(map[string]any)
	for _, kv := range sets {
		key, raw, _ := strings.Cut(kv, "=")
		key = strings.TrimSpace(key)
		p, ok := spec.Param(key)
		if !ok {
			return nil, nil, fmt.Errorf("--set %s: %s has no hyperparameter %q; its hyperparameters are %s", kv, spec.Name, key, strings.Join(keys, ", "))
		}
		if _, dup := values[key]; dup {
			return nil, nil, fmt.Errorf("--set %s: %s is set twice", kv, key)
		}
		raw = strings.TrimSpace(raw)
		if p.Support == bnmf.Choice {
			values[key] = raw
			continue
		}
		x, err := strconv.ParseFloat(raw, 64)
		if err != nil {
			return nil, nil, fmt.Errorf("--set %s: %q is not a number", kv, raw)
		}
		values[key] = x
	}
	m, err := spec.Configure(values)
	if err != nil {
		return nil, nil, fmt.Errorf("--set %w", err)
	}
	return m, values, nil
}
