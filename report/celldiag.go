package report

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/bnmf-lab/bnmf/experiments"
)

// recordDiagnostics are one record's convergence diagnostics, summarised:
// the largest R-hat and the smallest bulk- and tail-ESS over its
// quantities (NaN where none has one), and whether it carries a
// convergence warning (flagged) and a stuck chain.
type recordDiagnostics struct {
	rhat, bulk, tail float64
	flagged, stuck   bool
}

// recordDiagnosticsOf summarises r.Diagnostics and r.Warnings; r must
// have diagnostics.
func recordDiagnosticsOf(r *experiments.Record) recordDiagnostics {
	out := recordDiagnostics{rhat: math.NaN(), bulk: math.NaN(), tail: math.NaN()}
	d := r.Diagnostics
	for _, c := range d.Quantities("") {
		if c.RHat != nil {
			out.rhat = nanMax(out.rhat, *c.RHat)
		}
		if c.ESSBulk != nil {
			out.bulk = nanMin(out.bulk, *c.ESSBulk)
		}
		if c.ESSTail != nil {
			out.tail = nanMin(out.tail, *c.ESSTail)
		}
	}
	for _, w := range r.Warnings {
		if strings.HasPrefix(w, "convergence:") {
			out.flagged = true
			out.stuck = out.stuck || strings.Contains(w, "stuck chain")
		}
	}
	return out
}

// nanMax returns the larger of a and b, NaN standing for "none yet".
func nanMax(a, b float64) float64 {
	if math.IsNaN(a) || b > a {
		return b
	}
	return a
}

// nanMin returns the smaller of a and b, NaN standing for "none yet".
func nanMin(a, b float64) float64 {
	if math.IsNaN(a) || b < a {
		return b
	}
	return a
}

// diagnosticColumns returns WriteCSV's worst_rhat, min_ess_bulk,
// min_ess_tail and stuck columns for r, empty without diagnostics.
func diagnosticColumns(r *experiments.Record) []string {
	if r.Diagnostics == nil || r.Error != "" {
		return make([]string, 4)
	}
	d := recordDiagnosticsOf(r)
	return []string{optNum(d.rhat), optNum(d.bulk), optNum(d.tail), strconv.FormatBool(d.stuck)}
}

// predictiveColumns returns WriteCSV's coverage_90, width_90,
// log_density and crps columns for r, empty without scores (and the
// coverage and width when the record has no 90% interval).
func predictiveColumns(r *experiments.Record) []string {
	out := make([]string, 4)
	p := r.Predictive
	if p == nil || r.Error != "" {
		return out
	}
	if l := slices.Index(p.Levels, csvLevel); l >= 0 {
		out[0], out[1] = fmtFloat(p.Test.Coverage[l]), fmtFloat(p.Width[l])
	}
	out[2], out[3] = fmtFloat(p.Test.LogDensity), fmtFloat(p.Test.CRPS)
	return out
}

// optNum formats x, "" for NaN.
func optNum(x float64) string {
	if math.IsNaN(x) {
		return ""
	}
	return fmtFloat(x)
}
