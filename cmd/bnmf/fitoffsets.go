package main

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/bnmf-lab/bnmf/bnmf"
	"github.com/bnmf-lab/bnmf/internal/npy"
)

// The offsets mu + b_i + c_j of a fit with --biases: the flag, the
// output files, summary.json's offsets, and the model file's members.

// withBiasesFlag returns the name of the model to fit: name, or with
// --biases name with bnmf.BiasSuffix (whose hyperparameters include the
// offsets', for --set), or an error for a model without a Gaussian
// likelihood. An unknown name is returned as it is, for configureModel
// to report.
func withBiasesFlag(name string, biases bool) (string, error) {
	if !biases || strings.HasSuffix(name, bnmf.BiasSuffix) {
		return name, nil
	}
	spec, ok := bnmf.Lookup(name)
	if !ok {
		return name, nil
	}
	if !bnmf.AcceptsBiases(spec.Zero) {
		return "", fmt.Errorf("--biases: %s has no Gaussian likelihood; the offsets apply only to the Gaussian-likelihood models", name)
	}
	return name + bnmf.BiasSuffix, nil
}

// offsetsSummary is summary.json's offsets: the posterior of mu and the
// precisions' posterior means, pooled over the chains, in the data's
// units, and the rows and columns whose offsets come from the prior.
type offsetsSummary struct {
	MuMean    float64 `json:"mu_mean"`
	MuSD      float64 `json:"mu_sd"`
	TauBMean  float64 `json:"tau_b_mean"`
	TauCMean  float64 `json:"tau_c_mean"`
	EmptyRows int     `json:"rows_from_prior"`
	EmptyCols int     `json:"cols_from_prior"`
}

func summariseOffsets(o *bnmf.OffsetSummary) *offsetsSummary {
	if o == nil {
		return nil
	}
	return &offsetsSummary{MuMean: o.Mu, MuSD: o.MuSD, TauBMean: o.TauB, TauCMean: o.TauC, EmptyRows: o.EmptyRows, EmptyCols: o.EmptyCols}
}

// printOffsets writes the offsets' line of fit's summary.
func printOffsets(w io.Writer, o *offsetsSummary) {
	if o == nil {
		return
	}
	fmt.Fprintf(w, "offsets: mu %.4g (sd %.3g), row offsets' sd 1/sqrt(tau_b) %.3g, column offsets' %.3g; %d rows and %d columns with no training entries take theirs from the prior\n",
		o.MuMean, o.MuSD, 1/math.Sqrt(o.TauBMean), 1/math.Sqrt(o.TauCMean), o.EmptyRows, o.EmptyCols)
}

// offsetFiles lists the offsets' output files, none without offsets.
func (res *fitResult) offsetFiles() []struct {
	name  string
	write func(io.Writer) error
} {
	o := res.chains.Pooled.Offsets
	if o == nil {
		return nil
	}
	r := res.prob.ratings
	return []struct {
		name  string
		write func(io.Writer) error
	}{
		{"b.csv", func(w io.Writer) error { return writeOffsetCSV(w, "row_id", r.RowIDs, o.B, o.BSD) }},
		{"c.csv", func(w io.Writer) error { return writeOffsetCSV(w, "col_id", r.ColIDs, o.C, o.CSD) }},
		{"b_mean.npy", func(w io.Writer) error { return npy.Write(w, []int{len(o.B)}, o.B) }},
		{"b_sd.npy", func(w io.Writer) error { return npy.Write(w, []int{len(o.BSD)}, o.BSD) }},
		{"c_mean.npy", func(w io.Writer) error { return npy.Write(w, []int{len(o.C)}, o.C) }},
		{"c_sd.npy", func(w io.Writer) error { return npy.Write(w, []int{len(o.CSD)}, o.CSD) }},
	}
}

// writeOffsetCSV writes one offset per id: id, posterior mean, sd.
func writeOffsetCSV(w io.Writer, idName string, ids []string, mean, sd []float64) error {
	cw := csv.NewWriter(w)
	if err := cw.Write([]string{idName, "mean", "sd"}); err != nil {
		return err
	}
	for i, id := range ids {
		if err := cw.Write([]string{id, strconv.FormatFloat(mean[i], 'g', -1, 64), strconv.FormatFloat(sd[i], 'g', -1, 64)}); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}
