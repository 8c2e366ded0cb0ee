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

// writeOffsets writes the model file's offset members, if m has offsets.
func writeOffsets(member func(string, func(io.Writer) error) error, m *fittedModel) error {
	if !m.Offsets {
		return nil
	}
	s := len(m.Mu)
	return joinErrs(
		member("mu.npy", func(w io.Writer) error { return npy.Write(w, []int{s}, m.Mu) }),
		member("b.npy", func(w io.Writer) error { return writeSamples(w, []int{s, m.Rows}, m.B, nil) }),
		member("c.npy", func(w io.Writer) error { return writeSamples(w, []int{s, m.Cols}, m.C, nil) }),
	)
}

func joinErrs(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// readOffsets reads the offsets of a model file whose model.json says it
// has them; files without offsets (all written before they existed)
// read as before.
func readOffsets(zm modelMembers, m *fittedModel) error {
	if !m.Offsets {
		return nil
	}
	h := m.modelHeader
	s := h.Samples
	var err error
	if m.Mu, err = readArray[float64](zm, "mu.npy", []int{s}); err != nil {
		return err
	}
	if err := allFinite("mu.npy", m.Mu, 1); err != nil {
		return fmt.Errorf("%w: %v", errDamaged, err)
	}
	for _, a := range []struct {
		name  string
		lines int
		out   *[][]float64
	}{{"b.npy", h.Rows, &m.B}, {"c.npy", h.Cols, &m.C}} {
		x, err := readArray[float64](zm, a.name, []int{s, a.lines})
		if err != nil {
			return err
		}
		if err := allFinite(a.name, x, a.lines); err != nil {
			return fmt.Errorf("%w: %v", errDamaged, err)
		}
		for i := range s {
			*a.out = append(*a.out, x[i*a.lines:(i+1)*a.lines])
		}
	}
	return nil
}

// offset returns sample s's mu + b_row + c_col, 0 without offsets.
func (m *fittedModel) offset(s, row, col int) float64 {
	if m.B == nil {
		return 0
	}
	return m.Mu[s] + m.B[s][row] + m.C[s][col]
}
