package report

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/bnmf-lab/bnmf/experiments"
)

// Summary is the report's model of a set of studies: everything the
// renderers draw, computed once from the records.
type Summary struct {
	// Studies are ordered by directory, then name.
	Studies []*StudySummary
	// Palette gives every model found in any study its colour, dash and
	// glyph, so a model looks the same in every figure.
	Palette Palette
}

// StudySummary summarises one study.
type StudySummary struct {
	// Study is the study as collected; its records feed WriteCSV.
	Study *experiments.Study
	// Models, Ranks and Grid are the values the study varies: the
	// manifest's, plus any found only in records. Models are in the
	// paper's order (GEE, GTT, GTTN, GRRN, NMF, then others by name);
	// the rest ascend. Grid holds the values on the study's axis (its
	// kind's experiments.Axis: the fractions unobserved of a sparsity
	// study, the noise ratios of a noise study; empty for none).
	Models []string
	Ranks  []int
	Grid   []float64
	// Groups holds one group per model, rank and fraction or noise ratio,
	// ordered by model, rank, fraction and noise ratio. A group the
	// manifest expects but no record reached is present with zero counts.
	Groups []Group
	// Timing pools seconds per sweep over fractions and noise ratios, one
	// entry per model and rank, in the order of Groups.
	Timing []RankStat
	// Expected counts the cells the manifest lists, Found the records used
	// (finished or failed) and Failed those with an error.
	Expected, Found, Failed int
	// WallSeconds sums the chains' wall-clock times over the records used.
	WallSeconds float64
	// Warnings are about the study as a whole: the manifest's (such as a
	// scale warning), the collector's problems, records that were not used
	// and what Write found in the data.
	Warnings []string
	// DataWarnings are the warnings about the study's data, shown at the
	// head of its section as well as with the others: the manifest's, and
	// a scale warning Write found in data it loaded.
	DataWarnings []string
	// Paper is the paper's experiment that the study repeats (same kind,
	// dataset and grid; see PaperValues.Experiment), or nil: only then do
	// its figures and tables carry the paper's names and values.
	Paper *PaperExperiment
	// Data describes the observed values of the study's data when Write
	// could load them (Options.Ratings), else nil.
	Data *DataStats
}

// DataStats describes the observed values of a study's data.
type DataStats struct {
	// N counts the observed values; Mean and Variance are their mean and
	// population variance (divisor N). Variance is the MSE of predicting
	// every value by their mean.
	N              int
	Mean, Variance float64
}

// Key identifies a group of repeats: a model at a rank and, for sparsity
// and noise studies, a fraction unobserved or a noise-to-signal ratio.
type Key struct {
	Model      string
	Rank       int
	Fraction   float64
	NoiseRatio float64
	// Fold is the inner fold of a nested cross-validation (0 for the
	// cells scored on their outer fold, and in every other kind).
	Fold int
	// Setting is the value on a kind's experiments.SettingAxis (0 in
	// every other kind).
	Setting float64
}

// Group summarises the repeats of one Key.
type Group struct {
	Key
	// Expected counts the repeats the manifest lists, Found the records
	// found for them and Failed the found ones whose cell failed.
	Expected, Found, Failed int
	// Missing lists the repeats the manifest expects but no record has.
	Missing []int
	// Metric statistics over the repeats that did not fail. TestMSE is
	// left empty in convergence studies, which have no test set, and the
	// var(data)/MSE statistics count only records that carry the value.
	TrainMSE, TestMSE, VarOverMSE, VarOverMSEClean, SecondsPerSweep Stat
	// Noise studies only: TestMSEClean is the held-out MSE against the
	// clean test values, DataVariance the variance of the noisy training
	// values and CleanVariance that of the clean ones (the numerators of
	// var(data)/MSE), over the records that carry them.
	TestMSEClean, DataVariance, CleanVariance Stat
	// Trace summarises the per-sweep train MSE.
	Trace TraceStats
	// Predictive summarises the records' scores of their predictive
	// distributions over repeats; nil when no record has them (NMF, the
	// baselines, records made before scores existed).
	Predictive *PredictiveStats
	// Warnings say what affects these numbers: failed repeats, values left
	// out, and the records' own warnings. Missing repeats are in Missing.
	Warnings []string

	// testByRepeat and cleanByRepeat hold the held-out MSEs by repeat.
	testByRepeat, cleanByRepeat map[int]float64
}

// RankStat is a statistic for one model at one rank, pooled over
// fractions or noise ratios.
type RankStat struct {
	Model string
	Rank  int
	// Expected counts the cells the manifest lists for the model and rank.
	Expected int
	Stat
}

// String names the key in words, leaving out what it does not vary.
func (k Key) String() string {
	s := fmt.Sprintf("%s, K = %d", k.Model, k.Rank)
	if k.Fraction != 0 {
		s += ", fraction unobserved " + fmtG(k.Fraction)
	}
	if k.NoiseRatio != 0 {
		s += ", noise ratio " + fmtG(k.NoiseRatio)
	}
	if k.Fold != 0 {
		s += fmt.Sprintf(", inner fold %d", k.Fold)
	}
	if k.Setting != 0 {
		s += ", setting " + fmtG(k.Setting)
	}
	return s
}

// keyLabel names k in words as Key.String does, its value on a
// SettingAxis named as the study's kind names it.
func (s *StudySummary) keyLabel(k Key) string {
	if k.Setting == 0 {
		return k.String()
	}
	axis, _ := experiments.ManifestAxis(&s.Study.Manifest)
	plain := k
	plain.Setting = 0
	return plain.String() + ", " + settingOf(k, axis)
}

// Used returns the number of records that did not fail.
func (g *Group) Used() int { return g.Found - g.Failed }

// Group returns the group of k, or nil if the study has none.
func (s *StudySummary) Group(k Key) *Group {
	for i := range s.Groups {
		if s.Groups[i].Key == k {
			return &s.Groups[i]
		}
	}
	return nil
}

// Name returns the study's name.
func (s *StudySummary) Name() string { return s.Study.Manifest.Study }

// Kind returns the study's kind (experiments.KindConvergence, ...).
func (s *StudySummary) Kind() string { return s.Study.Manifest.Kind }

// Label returns the name of the study's data in the report: its config's
// dataset label, or the dataset's name.
func (s *StudySummary) Label() string { return s.Study.Manifest.Label() }

// Baselines returns the study's baseline models (bnmf.Spec.Baseline), in
// report order.
func (s *StudySummary) Baselines() []string {
	var out []string
	for _, m := range s.Models {
		if isBaseline(m) {
			out = append(out, m)
		}
	}
	return out
}

// Summarise reduces studies to a Summary. It never fails: what is missing
// or wrong in a study becomes a warning. It panics with a "report: ..."
// message if a study is nil.
func Summarise(studies []*experiments.Study) *Summary {
	sum := &Summary{}
	var models []string
	for _, st := range studies {
		if st == nil {
			panic("report: Summarise: nil study")
		}
		ss := summariseStudy(st)
		sum.Studies = append(sum.Studies, ss)
		models = append(models, ss.Models...)
	}
	slices.SortStableFunc(sum.Studies, func(a, b *StudySummary) int {
		return cmp.Or(strings.Compare(a.Study.Dir, b.Study.Dir), strings.Compare(a.Name(), b.Name()))
	})
	sum.Palette = NewPalette(models)
	return sum
}

// expectedCells returns the cells the manifest expects: its cell list, or
// when that is empty, the product of its models, ranks, fractions or noise
// ratios, and repeats.
func expectedCells(m experiments.Manifest) []experiments.Cell {
	if len(m.Cells) > 0 {
		return m.Cells
	}
	axis, _ := experiments.ManifestAxis(&m)
	var cells []experiments.Cell
	for _, model := range m.Models {
		for _, k := range m.Ranks {
			add := func(c experiments.Cell) {
				for r := range m.Repeats {
					c.Repeat = r
					cells = append(cells, c)
				}
			}
			grid := axis.Grid(&m)
			if len(grid) == 0 {
				add(experiments.Cell{Model: model, Rank: k})
			}
			for _, v := range grid {
				add(axis.With(experiments.Cell{Model: model, Rank: k}, v))
			}
		}
	}
	return cells
}

func keyOf(c experiments.Cell) Key {
	return Key{Model: c.Model, Rank: c.Rank, Fraction: c.Fraction, NoiseRatio: c.NoiseRatio, Fold: c.Fold, Setting: c.Setting}
}

// cellOf returns the cell of repeat 0 that k names.
func cellOf(k Key) experiments.Cell {
	return experiments.Cell{Model: k.Model, Rank: k.Rank, Fraction: k.Fraction, NoiseRatio: k.NoiseRatio, Fold: k.Fold, Setting: k.Setting}
}

// acceptRecords returns the records of st that belong to its manifest, one
// per cell, and a warning for each one left out.
func acceptRecords(st *experiments.Study, expected map[experiments.Cell]bool) ([]experiments.Record, []string) {
	m := st.Manifest
	var used []experiments.Record
	var warns []string
	seen := make(map[experiments.Cell]bool)
	for _, r := range st.Records {
		why := ""
		switch {
		case r.Version > experiments.RecordVersion:
			why = fmt.Sprintf("record version %d is newer than %d", r.Version, experiments.RecordVersion)
		case m.ConfigHash != "" && !m.Accepts(&r):
			why = fmt.Sprintf("config hash %s differs from the manifest's %s", r.ConfigHash, m.ConfigHash)
		case m.Kind != "" && r.Kind != "" && r.Kind != m.Kind:
			why = fmt.Sprintf("kind %q differs from the manifest's %q", r.Kind, m.Kind)
		case len(expected) > 0 && !expected[r.Cell]:
			why = "the manifest does not list this cell"
		case seen[r.Cell]:
			why = "a second record for the same cell"
		}
		if why != "" {
			warns = append(warns, fmt.Sprintf("record for %s, repeat %d not used: %s", keyOf(r.Cell), r.Cell.Repeat, why))
			continue
		}
		seen[r.Cell] = true
		used = append(used, r)
	}
	return used, warns
}

func summariseStudy(st *experiments.Study) *StudySummary {
	m := st.Manifest
	ss := &StudySummary{Study: st, Warnings: append(slices.Clone(m.Warnings), st.Problems...), DataWarnings: slices.Clone(m.Warnings)}
	if e, ok := Paper().Experiment(m); ok {
		ss.Paper = &e
	}
	cells := expectedCells(m)
	expected := make(map[experiments.Cell]bool, len(cells))
	for _, c := range cells {
		expected[c] = true
	}
	ss.Expected = len(expected)
	records, warns := acceptRecords(st, expected)
	ss.Warnings = append(ss.Warnings, warns...)

	axis, heldOut := experiments.ManifestAxis(&m)
	byKey := make(map[Key]*groupBuilder)
	get := func(k Key) *groupBuilder {
		b, ok := byKey[k]
		if !ok {
			b = &groupBuilder{key: k, found: make(map[int]bool)}
			byKey[k] = b
		}
		return b
	}
	for _, c := range cells {
		b := get(keyOf(c))
		b.expected = append(b.expected, c.Repeat)
	}
	for _, r := range records {
		get(keyOf(r.Cell)).add(r, heldOut)
		ss.Found++
		ss.WallSeconds += r.WallSeconds
		if r.Error != "" {
			ss.Failed++
		}
	}

	ss.Models = append(ss.Models, m.Models...)
	ss.Ranks = append(ss.Ranks, m.Ranks...)
	ss.Grid = append(ss.Grid, axis.Grid(&m)...)
	type modelRank struct {
		model string
		rank  int
	}
	timing := make(map[modelRank][]float64)
	timingExpected := make(map[modelRank]int)
	for k, b := range byKey {
		ss.Models = append(ss.Models, k.Model)
		ss.Ranks = append(ss.Ranks, k.Rank)
		// A value found only in records joins the lists; a cell holds
		// a value only on its kind's axis.
		if v := axis.Value(cellOf(k)); v != 0 {
			ss.Grid = append(ss.Grid, v)
		}
		ss.Groups = append(ss.Groups, b.build())
		mr := modelRank{k.Model, k.Rank}
		timing[mr] = append(timing[mr], b.seconds...)
		timingExpected[mr] += len(b.expected)
	}
	ss.Models = sortModels(ss.Models)
	ss.Ranks = sortedUnique(ss.Ranks)
	ss.Grid = sortedUnique(ss.Grid)
	slices.SortFunc(ss.Groups, func(a, b Group) int { return compareKeys(a.Key, b.Key) })
	for mr, xs := range timing {
		ss.Timing = append(ss.Timing, RankStat{Model: mr.model, Rank: mr.rank, Expected: timingExpected[mr], Stat: newStat(xs)})
	}
	slices.SortFunc(ss.Timing, func(a, b RankStat) int {
		return compareKeys(Key{Model: a.Model, Rank: a.Rank}, Key{Model: b.Model, Rank: b.Rank})
	})
	return ss
}

func compareKeys(a, b Key) int {
	return cmp.Or(compareModels(a.Model, b.Model), cmp.Compare(a.Rank, b.Rank),
		cmp.Compare(a.Fraction, b.Fraction), cmp.Compare(a.NoiseRatio, b.NoiseRatio), cmp.Compare(a.Fold, b.Fold),
		cmp.Compare(a.Setting, b.Setting))
}

func sortedUnique[T cmp.Ordered](xs []T) []T {
	slices.Sort(xs)
	return slices.Compact(xs)
}
