package report

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode"

	"github.com/bnmf-lab/bnmf/experiments"
)

// paperJSON holds the paper's published values; see paper_values.json for
// the citation. A string, so the embedded data cannot be modified.
//
//go:embed paper_values.json
var paperJSON string

// PaperValues are the numbers published in Lu & Ye (2022) that the report
// prints beside ours.
type PaperValues struct {
	// Citation names the paper and the tables the values come from.
	Citation string `json:"citation"`
	// Datasets holds Table 1, one entry per dataset.
	Datasets []PaperDataset `json:"datasets"`
	// Table2 holds Table 2, one entry per fraction unobserved.
	Table2 []PaperMSETable `json:"held_out_mse"`
	// Experiments lists the studies the paper ran, so that the report
	// gives the paper's figure and table names to ours of the same data
	// and grid, and to no other.
	Experiments []PaperExperiment `json:"experiments"`
}

// PaperExperiment is one kind of study the paper ran: on which datasets,
// at which ranks and values of the kind's axis, and the names of the
// figure and table that show it.
type PaperExperiment struct {
	// Kind is the study kind (experiments.KindConvergence, ...).
	Kind string `json:"kind"`
	// Figure and Table name the paper's figure ("Fig. 5") and table
	// ("Table 2", or "" for none) that show it.
	Figure string `json:"figure"`
	Table  string `json:"table,omitempty"`
	// Datasets are names as in Datasets.
	Datasets []string `json:"datasets"`
	// Ranks, Fractions and NoiseRatios are the grid it covers; an axis
	// the kind does not vary is empty.
	Ranks       []int     `json:"ranks"`
	Fractions   []float64 `json:"fractions,omitempty"`
	NoiseRatios []float64 `json:"noise_ratios,omitempty"`
	Source      string    `json:"source"`
}

// PaperDataset is one row of the paper's Table 1: a dataset after cleaning.
type PaperDataset struct {
	Name    string   `json:"name"`
	Aliases []string `json:"aliases"` // dataset names used in our configs
	Rows    int      `json:"rows"`
	Cols    int      `json:"cols"`
	// FractionObserved is as printed, to three decimals.
	FractionObserved float64 `json:"fraction_observed"`
	Observed         int     `json:"observed"`
	Source           string  `json:"source"`
}

// PaperMSETable is one half of the paper's Table 2: held-out mean squared
// error at one fraction unobserved, per rank and model.
type PaperMSETable struct {
	Dataset            string        `json:"dataset"`
	FractionUnobserved float64       `json:"fraction_unobserved"`
	Source             string        `json:"source"`
	Models             []string      `json:"models"`
	Rows               []PaperMSERow `json:"rows"`
}

// PaperMSERow holds one rank's published MSE, one value per model of its
// table, in the table's model order.
type PaperMSERow struct {
	Rank int       `json:"rank"`
	MSE  []float64 `json:"mse"`
}

// Paper returns the paper's published values, parsed from the embedded
// paper_values.json. It panics with a "report: ..." message if the
// embedded file is malformed, which is a programming error caught by the
// package's tests.
func Paper() PaperValues {
	p, err := parsePaperValues([]byte(paperJSON))
	if err != nil {
		panic("report: embedded paper_values.json: " + err.Error())
	}
	return p
}

func parsePaperValues(data []byte) (PaperValues, error) {
	var p PaperValues
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return PaperValues{}, err
	}
	if p.Citation == "" {
		return PaperValues{}, fmt.Errorf("citation is empty")
	}
	for i, e := range p.Experiments {
		if e.Kind == "" || e.Figure == "" || len(e.Datasets) == 0 {
			return PaperValues{}, fmt.Errorf("experiments[%d]: kind, figure and datasets are required", i)
		}
	}
	for i, t := range p.Table2 {
		for j, r := range t.Rows {
			if len(r.MSE) != len(t.Models) {
				return PaperValues{}, fmt.Errorf("held_out_mse[%d].rows[%d]: %d values for %d models", i, j, len(r.MSE), len(t.Models))
			}
		}
	}
	return p, nil
}

// Dataset returns the paper's Table 1 row for a dataset named as in our
// configs ("movielens-100k") or as in the paper ("MovieLens 100K").
func (p PaperValues) Dataset(name string) (PaperDataset, bool) {
	key := datasetKey(name)
	for _, d := range p.Datasets {
		if datasetKey(d.Name) == key {
			return d, true
		}
		for _, a := range d.Aliases {
			if datasetKey(a) == key {
				return d, true
			}
		}
	}
	return PaperDataset{}, false
}

// Experiment returns the paper's experiment that a study repeats: one of
// the same kind on one of its datasets whose ranks, fractions and noise
// ratios include all of the study's. A study on other data, or beyond the
// paper's grid, repeats none, and its report uses no paper names.
func (p PaperValues) Experiment(m experiments.Manifest) (PaperExperiment, bool) {
	d, ok := p.Dataset(m.Dataset)
	if !ok {
		return PaperExperiment{}, false
	}
	for _, e := range p.Experiments {
		if e.Kind != m.Kind || !slices.ContainsFunc(e.Datasets, func(name string) bool { return datasetKey(name) == datasetKey(d.Name) }) {
			continue
		}
		within := func(xs, grid []float64) bool {
			return len(grid) == 0 || !slices.ContainsFunc(xs, func(x float64) bool {
				return !slices.ContainsFunc(grid, func(g float64) bool { return sameFloat(x, g) })
			})
		}
		ranks := !slices.ContainsFunc(m.Ranks, func(k int) bool { return !slices.Contains(e.Ranks, k) })
		if ranks && within(m.Fractions, e.Fractions) && within(m.NoiseRatios, e.NoiseRatios) {
			return e, true
		}
	}
	return PaperExperiment{}, false
}

// HeldOutMSE returns the paper's Table 2 value for a dataset, fraction
// unobserved, model and rank, and whether the paper gives one.
func (p PaperValues) HeldOutMSE(dataset string, fraction float64, model string, rank int) (float64, bool) {
	d, ok := p.Dataset(dataset)
	if !ok {
		return 0, false
	}
	for _, t := range p.Table2 {
		if td, ok := p.Dataset(t.Dataset); !ok || td.Name != d.Name || !sameFloat(t.FractionUnobserved, fraction) {
			continue
		}
		col := -1
		for i, m := range t.Models {
			if strings.EqualFold(m, model) {
				col = i
			}
		}
		if col < 0 {
			return 0, false
		}
		for _, r := range t.Rows {
			if r.Rank == rank {
				return r.MSE[col], true
			}
		}
	}
	return 0, false
}

// hasHeldOutMSE reports whether the paper's Table 2 gives values for a
// dataset at a fraction unobserved.
func (p PaperValues) hasHeldOutMSE(dataset string, fraction float64) bool {
	d, ok := p.Dataset(dataset)
	if !ok {
		return false
	}
	return slices.ContainsFunc(p.Table2, func(t PaperMSETable) bool {
		td, ok := p.Dataset(t.Dataset)
		return ok && td.Name == d.Name && sameFloat(t.FractionUnobserved, fraction)
	})
}

// datasetKey reduces a dataset name to lower-case letters and digits, so
// that "MovieLens 100K", "movielens-100k" and "movielens_100k" match.
func datasetKey(name string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(name) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// sameFloat reports whether two configured values (fractions, ratios) are
// the same up to decimal round-off.
func sameFloat(a, b float64) bool {
	return math.Abs(a-b) <= 1e-9*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}
