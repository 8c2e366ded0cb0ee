package report

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"unicode"
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
