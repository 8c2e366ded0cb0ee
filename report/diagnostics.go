package report

import (
	"bytes"
	"cmp"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"

	"github.com/bnmf-lab/bnmf/bnmf"
	"github.com/bnmf-lab/bnmf/experiments"
)

// maxTracePanels bounds the panels of the trace figure of flagged
// settings.
const maxTracePanels = 8

// diagRow is the convergence summary of one setting (model, rank and grid
// value) over its repeats with diagnostics.
type diagRow struct {
	key Key
	// chains is the number of chains per cell, repeats the repeats with
	// diagnostics, flagged those with a convergence warning and stuck
	// those with a stuck chain.
	chains, repeats, flagged, stuck int
	// rhat is the largest R-hat over repeats and quantities; bulk and
	// tail the smallest ESS. NaN where no repeat has one.
	rhat, bulk, tail float64
	// first is the first flagged record, for the trace figure.
	first *experiments.Record
}

// diagnosticRows summarises the diagnostics of the study's records by
// setting, in the order of its groups; nil when no record has any.
func diagnosticRows(s *StudySummary) []diagRow {
	byKey := make(map[Key]*diagRow)
	for i := range s.Study.Records {
		r := &s.Study.Records[i]
		d := r.Diagnostics
		if d == nil || r.Error != "" || !s.Study.Manifest.Accepts(r) {
			continue
		}
		k := keyOf(r.Cell)
		row, ok := byKey[k]
		if !ok {
			row = &diagRow{key: k, rhat: math.NaN(), bulk: math.NaN(), tail: math.NaN()}
			byKey[k] = row
		}
		row.chains = max(row.chains, d.Chains)
		row.repeats++
		rd := recordDiagnosticsOf(r)
		row.rhat = nanMax(row.rhat, rd.rhat)
		row.bulk = nanMin(row.bulk, rd.bulk)
		row.tail = nanMin(row.tail, rd.tail)
		flagged, stuck := rd.flagged, rd.stuck
		if flagged {
			row.flagged++
			if row.first == nil {
				row.first = r
			}
		}
		if stuck {
			row.stuck++
		}
	}
	if len(byKey) == 0 {
		return nil
	}
	var rows []diagRow
	for _, g := range s.Groups {
		if row, ok := byKey[g.Key]; ok {
			rows = append(rows, *row)
		}
	}
	return rows
}

// WriteDiagnosticsTable writes, for each setting whose records carry
// convergence diagnostics, the chains per cell, the worst R-hat and the
// smallest bulk- and tail-ESS over its repeats and quantities (train MSE,
// sigma^2, log-likelihood and the tracked predictions), and how many
// repeats were flagged, then the flagged cells with their warnings.
func WriteDiagnosticsTable(w io.Writer, s *StudySummary) error {
	rows := diagnosticRows(s)
	axis, _ := experiments.ManifestAxis(&s.Study.Manifest)
	t := mdTable{header: []string{"Model", "K", "Setting", "Chains", "Repeats", "Worst R-hat", "Min bulk-ESS", "Min tail-ESS", "Flagged", "Stuck"}}
	num := func(x float64, format string) string {
		if math.IsNaN(x) {
			return "—"
		}
		return fmt.Sprintf(format, x)
	}
	for _, r := range rows {
		rhat := num(r.rhat, "%.3f")
		if r.rhat > bnmf.DefaultThresholds().MaxRHat {
			rhat = "**" + rhat + "**"
		}
		t.rows = append(t.rows, []string{r.key.Model, fmt.Sprint(r.key.Rank), settingOf(r.key, axis), fmt.Sprint(r.chains), fmt.Sprint(r.repeats),
			rhat, num(r.bulk, "%.0f"), num(r.tail, "%.0f"), fmt.Sprint(r.flagged), fmt.Sprint(r.stuck)})
	}
	var b bytes.Buffer
	if err := t.render(&b); err != nil {
		return err
	}
	var flagged []string
	for i := range s.Study.Records {
		r := &s.Study.Records[i]
		if r.Diagnostics == nil || !s.Study.Manifest.Accepts(r) {
			continue
		}
		var ws []string
		for _, w := range r.Warnings {
			if after, ok := strings.CutPrefix(w, "convergence: "); ok {
				ws = append(ws, after)
			}
		}
		if len(ws) > 0 {
			flagged = append(flagged, fmt.Sprintf("- %s, repeat %d: %s\n", keyOf(r.Cell), r.Cell.Repeat, strings.Join(ws, "; ")))
		}
	}
	if len(flagged) > 0 {
		fmt.Fprintf(&b, "\nFlagged cells (%d):\n\n%s", len(flagged), strings.Join(flagged, ""))
	} else if len(rows) > 0 {
		b.WriteString("\nNo cell was flagged.\n")
	}
	_, err := w.Write(b.Bytes())
	return err
}

// settingOf names the value of a key on a study's axis, or "—".
func settingOf(k Key, axis experiments.Axis) string {
	if axis.Name() == "" {
		return "—"
	}
	return axis.Name() + " " + fmtG(axis.Value(cellOf(k)))
}

// hasDiagnostics reports whether any record of the study carries
// convergence diagnostics.
func (s *StudySummary) hasDiagnostics() bool {
	return slices.ContainsFunc(s.Study.Records, func(r experiments.Record) bool { return r.Diagnostics != nil })
}

// DiagnosticsTraceFigure draws, for each flagged setting (at most
// maxTracePanels: those with a stuck chain first, then those with the
// largest R-hat), the train MSE of every chain of its first flagged
// repeat against sweep on a log axis, so a reader sees whether the chains
// disagree or sit at their start. It returns ErrNoData when no setting
// was flagged.
func DiagnosticsTraceFigure(s *StudySummary) (*Figure, error) {
	var flagged []diagRow
	for _, r := range diagnosticRows(s) {
		if r.first != nil {
			flagged = append(flagged, r)
		}
	}
	// The stuck settings first, then the worst R-hats, so that the panels
	// show the worst cases of every model.
	slices.SortStableFunc(flagged, func(a, b diagRow) int {
		if (a.stuck > 0) != (b.stuck > 0) {
			if a.stuck > 0 {
				return -1
			}
			return 1
		}
		return cmp.Compare(b.rhat, a.rhat)
	})
	all := len(flagged)
	flagged = flagged[:min(len(flagged), maxTracePanels)]
	if len(flagged) == 0 {
		return nil, ErrNoData
	}
	f := &Figure{Title: traceTitle(s.Name(), len(flagged), all), Cols: min(len(flagged), 4)}
	chains := 0
	for _, row := range flagged {
		r := row.first
		traces := append([]experiments.Trace{r.Trace}, r.ChainTraces...)
		chains = max(chains, len(traces))
		var all []float64
		for _, tr := range traces {
			all = append(all, tr.TrainMSE...)
		}
		ys := chooseYScale(all, 0)
		p := newPanel(fmt.Sprintf("%s, repeat %d", row.key, r.Cell.Repeat), "sweep", "train MSE", ys)
		panel := Panel{Plot: p}
		for c, tr := range traces {
			var xys plotter.XYs
			for i, v := range tr.TrainMSE {
				if y, _ := ys.y(v); isFinite(v) {
					xys = append(xys, plotter.XY{X: float64(i + 1), Y: y})
				}
			}
			if len(xys) == 0 {
				continue
			}
			line, err := seriesLine(xys, SeriesStyle{Color: chainColor(c)})
			if err != nil {
				return nil, fmt.Errorf("report: trace of %s chain %d: %w", row.key, c, err)
			}
			p.Add(line)
			panel.Series = append(panel.Series, Series{Model: fmt.Sprintf("chain %d", c), Plotters: []plot.Plotter{line}})
		}
		f.Panels = append(f.Panels, panel)
	}
	legend, err := chainLegend(chains)
	if err != nil {
		return nil, err
	}
	f.Legend = legend
	f.Note = "Each line is one chain of the first flagged repeat of the setting."
	return f, nil
}

// traceTitle says what DiagnosticsTraceFigure draws: every chain of one
// repeat in drawn of the flagged settings, and which ones when it is not
// all of them.
func traceTitle(study string, drawn, flagged int) string {
	if drawn == flagged {
		return fmt.Sprintf("Train MSE of every chain of the first flagged repeat, in %s — %s",
			plural(flagged, "the flagged setting", fmt.Sprintf("each of the %d flagged settings", flagged)), study)
	}
	return fmt.Sprintf("Train MSE of every chain of the first flagged repeat, in %d of the %d flagged settings (those with a stuck chain first, then the largest R-hat) — %s",
		drawn, flagged, study)
}
