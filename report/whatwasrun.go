package report

import (
	"fmt"
	"sort"
	"strings"

	"github.com/bnmf-lab/bnmf/bnmf"
	"github.com/bnmf-lab/bnmf/experiments"
)

// whatWasRun says in one paragraph what a study was set up to run, from its
// manifest, and how much of it the records cover.
func whatWasRun(s *StudySummary) string {
	m := s.Study.Manifest
	var b strings.Builder
	fmt.Fprintf(&b, "The %s study `%s` on %s", m.Kind, m.Study, oneLine(m.Label()))
	var about []string
	if m.Label() != m.Dataset {
		about = append(about, m.Dataset)
	}
	if m.Rows > 0 {
		about = append(about, fmt.Sprintf("%s × %s, %s observed entries", fmtInt(m.Rows), fmtInt(m.Cols), fmtInt(m.Observed)))
	}
	if len(about) > 0 {
		fmt.Fprintf(&b, " (%s)", strings.Join(about, ", "))
	}
	var models []string
	for _, model := range s.Models {
		if !isBaseline(model) {
			models = append(models, model)
		}
	}
	fmt.Fprintf(&b, " covers models %s", strings.Join(models, ", "))
	if real := realValuedModels(models); len(real) > 0 {
		fmt.Fprintf(&b, " (%s with real-valued factors, whose predictions and intervals may be negative; the others' factors are nonnegative)", joinAnd(real))
	}
	if bs := s.Baselines(); len(bs) > 0 {
		fmt.Fprintf(&b, " and %s %s", plural(len(bs), "the baseline", "the baselines"), strings.Join(bs, ", "))
	}
	fmt.Fprintf(&b, " at ranks K = %s", fmtInts(s.Ranks))
	if kr := reportOf(s); kr != nil {
		b.WriteString(kr.grid(s))
	}
	if m.MaxSweeps > 0 {
		fmt.Fprintf(&b, "; sweeps: auto, each cell's chains run until they converged or reached %d sweeps, the first half of them burn-in", m.MaxSweeps)
	} else {
		fmt.Fprintf(&b, "; %d sweeps with a burn-in of %d", m.Sweeps, m.BurnIn)
	}
	if m.Thin > 1 {
		fmt.Fprintf(&b, " and thinning %d", m.Thin)
	}
	if set := settingsRun(s.Study.Config); len(set) > 0 {
		fmt.Fprintf(&b, "; %s", strings.Join(set, ", "))
	}
	fmt.Fprintf(&b, "; %d repeats per setting from base seed %d (config hash `%.12s`). ", m.Repeats, m.BaseSeed, m.ConfigHash)
	fmt.Fprintf(&b, "Found %d of %d cells", s.Found, s.Expected)
	if s.Failed > 0 {
		fmt.Fprintf(&b, ", %d of them failed", s.Failed)
	}
	if s.Found > 0 {
		fmt.Fprintf(&b, "; the chains' wall-clock times sum to %s", fmtDuration(s.WallSeconds))
	}
	b.WriteString(".")
	if p := provenance(s.Study.Records); p != "" {
		b.WriteString(" " + p)
	}
	return b.String()
}

// settingsRun names the settings of cfg that the manifest does not hold
// and that are not their defaults: the number of chains per cell and the
// config keys sigma2_start, standardize and float32_factors. cfg may be
// nil (a study without its config.yaml).
func settingsRun(cfg *experiments.Config) []string {
	if cfg == nil {
		return nil
	}
	def := experiments.DefaultConfig()
	var set []string
	if cfg.Chains > 1 {
		set = append(set, fmt.Sprintf("%d chains per cell, pooled", cfg.Chains))
	}
	if cfg.Sigma2Start != def.Sigma2Start {
		set = append(set, fmt.Sprintf("`sigma2_start: %s`", cfg.Sigma2Start))
	}
	if cfg.Standardize {
		set = append(set, "`standardize: true`")
	}
	if cfg.Float32Factors {
		set = append(set, "`float32_factors: true`")
	}
	if cfg.Dataset.Cast != "" {
		set = append(set, fmt.Sprintf("`dataset.cast: %s` (every value truncated toward zero as it is read)", cfg.Dataset.Cast))
	}
	return append(set, choicesSet(cfg)...)
}

// choicesSet names, per model of cfg, the choices among its
// hyperparameters (such as GEG's z_draw) that the config sets to other
// than their defaults: how a sampler draws is part of what was run, and
// the model's name does not say it.
func choicesSet(cfg *experiments.Config) []string {
	var set []string
	for _, m := range cfg.Models {
		spec, ok := bnmf.Lookup(m.Name)
		if !ok {
			continue
		}
		for _, p := range spec.Params {
			v, ok := m.Hyperparameters[p.Key].(string)
			if p.Support != bnmf.Choice || !ok || v == p.Default {
				continue
			}
			set = append(set, fmt.Sprintf("`%s: %s` for %s", p.Key, v, m.Key()))
		}
	}
	return set
}

// provenance names the builds that made recs, a build being a source
// revision (12 digits; "+dirty" marks uncommitted changes; some builds
// record none) with a Go version, each with the number of records it
// made, most first. A study made by several builds is said to be so, for
// the reader to judge (or check with bnmf verify) whether they compute
// the same numbers.
func provenance(recs []experiments.Record) string {
	type build struct {
		rev, goVersion string
		n              int
	}
	var builds []build
	index := make(map[experiments.Versions]int)
	gos := make(map[string]bool)
	for i := range recs {
		v := recs[i].Versions
		key := experiments.Versions{Go: v.Go, Module: v.ShortRevision()}
		j, ok := index[key]
		if !ok {
			j = len(builds)
			index[key] = j
			builds = append(builds, build{rev: key.Module, goVersion: v.Go})
			gos[v.Go] = true
		}
		builds[j].n++
	}
	if len(builds) == 0 {
		return ""
	}
	sort.SliceStable(builds, func(a, b int) bool { return builds[a].n > builds[b].n })
	name := func(bd build) string {
		s := "a build without a recorded revision"
		if bd.rev != "" {
			s = "revision `" + bd.rev + "`"
			if strings.HasSuffix(bd.rev, "+dirty") {
				s += " with uncommitted changes"
			}
		}
		if len(gos) > 1 && bd.goVersion != "" {
			s += " and " + bd.goVersion
		}
		return s
	}
	with := ""
	if len(gos) == 1 && builds[0].goVersion != "" {
		with = ", with " + builds[0].goVersion
	}
	if len(builds) == 1 {
		return fmt.Sprintf("Every record was made by %s%s.", name(builds[0]), with)
	}
	parts := make([]string, len(builds))
	for i, bd := range builds {
		unit := "records"
		if bd.n == 1 {
			unit = "record"
		}
		parts[i] = fmt.Sprintf("%s (%s %s)", name(bd), fmtInt(bd.n), unit)
	}
	return fmt.Sprintf("The records were made by %d builds%s: %s.", len(builds), with, strings.Join(parts, ", "))
}

// realValuedModels returns the models whose factors are real-valued
// (bnmf.Spec.RealValued), in their order.
func realValuedModels(models []string) []string {
	var real []string
	for _, m := range models {
		for _, s := range bnmf.Specs() {
			if strings.EqualFold(s.Name, m) && s.RealValued {
				real = append(real, m)
			}
		}
	}
	return real
}

// joinAnd joins names as "a", "a and b" or "a, b and c".
func joinAnd(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}
