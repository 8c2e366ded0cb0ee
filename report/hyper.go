package report

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/bnmf-lab/bnmf/experiments"
)

// hyperHeading heads the table of shared hyperparameters.
const hyperHeading = "Shared hyperparameters"

// hyperCaption explains the table of shared hyperparameters.
const hyperCaption = "Posterior mean of each latent dimension's shared hyperparameter over the kept sweeps of chain 0 of each cell, in ascending order, in the units the model was fitted in. For GEEA's rates lambda_k (w_mk, z_kn ~ Exp(lambda_k)), a small rate leaves its dimension's factors free and a rate many times the smallest pulls them towards zero: the dimensions with small rates are the ones the model kept."

// hasHyper reports whether any accepted record of the study carries
// shared hyperparameters.
func (s *StudySummary) hasHyper() bool {
	return slices.ContainsFunc(s.Study.Records, func(r experiments.Record) bool {
		return len(r.Hyper) > 0 && s.Study.Manifest.Accepts(&r)
	})
}

// WriteHyperTable writes, for every cell whose model has shared
// hyperparameters, their posterior means per dimension in ascending
// order, one row per cell and hyperparameter.
func WriteHyperTable(w io.Writer, s *StudySummary) error {
	axis, _ := experiments.ManifestAxis(&s.Study.Manifest)
	t := mdTable{header: []string{"Model", "K", "Setting", "Repeat", "Name", "Posterior means, ascending"}}
	for i := range s.Study.Records {
		r := &s.Study.Records[i]
		if len(r.Hyper) == 0 || !s.Study.Manifest.Accepts(r) {
			continue
		}
		key := keyOf(r.Cell)
		for _, h := range r.Hyper {
			means := slices.Clone(h.Mean)
			slices.Sort(means)
			strs := make([]string, len(means))
			for k, v := range means {
				strs[k] = fmt.Sprintf("%.3g", v)
			}
			t.rows = append(t.rows, []string{key.Model, fmt.Sprint(key.Rank), settingOf(key, axis), fmt.Sprint(r.Cell.Repeat), h.Name, strings.Join(strs, ", ")})
		}
	}
	var b bytes.Buffer
	if err := t.render(&b); err != nil {
		return err
	}
	_, err := w.Write(b.Bytes())
	return err
}
