package report

import (
	"bytes"
	"fmt"
	"image/color"
	"io"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/bnmf-lab/bnmf/bnmf"
	"github.com/bnmf-lab/bnmf/experiments"
)

// PredictiveStats summarise the predictive scores of a group's repeats.
type PredictiveStats struct {
	// Levels are the interval levels; Coverage and Width hold, at each,
	// the statistics over repeats of the fraction of held-out values in
	// the central interval and of the interval's mean width.
	Levels          []float64
	Coverage, Width []Stat
	// LogDensity and CRPS are the statistics of the mean log predictive
	// density and the mean CRPS.
	LogDensity, CRPS Stat
	// CleanCoverage, CleanLogDensity and CleanCRPS score against the
	// noise-free values of a noise study; CleanCoverage is nil otherwise.
	CleanCoverage              []Stat
	CleanLogDensity, CleanCRPS Stat
}

// newPredictiveStats summarises scores made at the same levels; nil for
// none.
func newPredictiveStats(scores []*experiments.Predictive) *PredictiveStats {
	if len(scores) == 0 {
		return nil
	}
	levels := scores[0].Levels
	p := &PredictiveStats{Levels: levels}
	col := func(get func(*experiments.Predictive) []float64, l int) Stat {
		var xs []float64
		for _, s := range scores {
			if v := get(s); slices.Equal(s.Levels, levels) && l < len(v) {
				xs = append(xs, v[l])
			}
		}
		return newStat(xs)
	}
	one := func(get func(*experiments.Predictive) (float64, bool)) Stat {
		var xs []float64
		for _, s := range scores {
			if v, ok := get(s); ok {
				xs = append(xs, v)
			}
		}
		return newStat(xs)
	}
	clean := slices.ContainsFunc(scores, func(s *experiments.Predictive) bool { return s.Clean != nil })
	for l := range levels {
		p.Coverage = append(p.Coverage, col(func(s *experiments.Predictive) []float64 { return s.Test.Coverage }, l))
		p.Width = append(p.Width, col(func(s *experiments.Predictive) []float64 { return s.Width }, l))
		if clean {
			p.CleanCoverage = append(p.CleanCoverage, col(func(s *experiments.Predictive) []float64 {
				if s.Clean == nil {
					return nil
				}
				return s.Clean.Coverage
			}, l))
		}
	}
	p.LogDensity = one(func(s *experiments.Predictive) (float64, bool) { return s.Test.LogDensity, true })
	p.CRPS = one(func(s *experiments.Predictive) (float64, bool) { return s.Test.CRPS, true })
	if clean {
		p.CleanLogDensity = one(func(s *experiments.Predictive) (float64, bool) {
			if s.Clean == nil {
				return 0, false
			}
			return s.Clean.LogDensity, true
		})
		p.CleanCRPS = one(func(s *experiments.Predictive) (float64, bool) {
			if s.Clean == nil {
				return 0, false
			}
			return s.Clean.CRPS, true
		})
	}
	return p
}

// level returns the index of level a in p.Levels, or -1.
func (p *PredictiveStats) level(a float64) int {
	return slices.IndexFunc(p.Levels, func(x float64) bool { return sameFloat(x, a) })
}

// hasScores reports whether any group of the study has predictive scores.
func (s *StudySummary) hasScores() bool {
	return slices.ContainsFunc(s.Groups, func(g Group) bool { return g.Predictive != nil })
}

// WriteCalibrationTable writes, for each setting and model with predictive
// scores, the held-out MSE beside the coverage of the central intervals at
// each level, the width of the 90% interval, the mean log predictive
// density and the mean CRPS, each as mean ± standard error over repeats.
// With clean set (noise studies) it scores against the noise-free values.
func WriteCalibrationTable(w io.Writer, s *StudySummary, clean bool) error {
	var levels []float64
	for _, g := range s.Groups {
		if g.Predictive != nil {
			levels = g.Predictive.Levels
			break
		}
	}
	header := []string{"Model", "K", "Setting", "Held-out MSE"}
	for _, a := range levels {
		header = append(header, fmt.Sprintf("Coverage %s%%", fmtG(100*a)))
	}
	header = append(header, "Width 90%", "Log density", "CRPS")
	t := mdTable{header: header}
	axis, _ := experiments.ManifestAxis(&s.Study.Manifest)
	for _, g := range s.Groups {
		p := g.Predictive
		if p == nil || (clean && p.CleanCoverage == nil) {
			continue
		}
		mse, cov, ld, crps := g.TestMSE, p.Coverage, p.LogDensity, p.CRPS
		if clean {
			mse, cov, ld, crps = g.TestMSEClean, p.CleanCoverage, p.CleanLogDensity, p.CleanCRPS
		}
		row := []string{g.Model, fmt.Sprint(g.Rank), settingOf(g.Key, axis), fmtMeanSE(mse)}
		for l := range levels {
			if l < len(cov) {
				row = append(row, fmtMeanSE(cov[l]))
			} else {
				row = append(row, "—")
			}
		}
		width := "—"
		if l := p.level(0.9); l >= 0 {
			width = fmtMeanSE(p.Width[l])
		}
		row = append(row, width, fmtMeanSE(ld), fmtMeanSE(crps))
		t.rows = append(t.rows, row)
	}
	return t.render(w)
}

// CalibrationFigure draws, for each rank and grid value of the study (one
// panel each, ranks down, grid values across), the empirical coverage of
// each Bayesian model's central predictive intervals against their
// nominal level, mean over repeats with ± one standard error bars, and
// the diagonal on which calibrated intervals lie. It returns ErrNoData
// when no group has predictive scores.
func CalibrationFigure(s *StudySummary, pal Palette) (*Figure, error) {
	if !s.hasScores() {
		return nil, ErrNoData
	}
	axis, _ := experiments.ManifestAxis(&s.Study.Manifest)
	grid := s.Grid
	if len(grid) == 0 {
		grid = []float64{0}
	}
	f := &Figure{Title: fmt.Sprintf("Coverage of the central predictive intervals — %s", s.Name()), Cols: len(grid)}
	var drawn []string
	for _, k := range s.Ranks {
		for _, v := range grid {
			key := func(m string) Key { return keyOf(axis.With(experiments.Cell{Model: m, Rank: k}, v)) }
			title := fmt.Sprintf("K = %d", k)
			if axis.Name() != "" {
				title += ", " + settingOf(key(""), axis)
			}
			p := newPanel(title, "nominal level", "coverage", yScale{})
			p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = 0.4, 1, 0.4, 1
			diag, err := plotter.NewLine(plotter.XYs{{X: 0.4, Y: 0.4}, {X: 1, Y: 1}})
			if err != nil {
				return nil, err
			}
			diag.LineStyle = draw.LineStyle{Color: color.Gray{Y: 0x99}, Width: vg.Points(1), Dashes: []vg.Length{vg.Points(3), vg.Points(3)}}
			p.Add(diag)
			panel := Panel{Plot: p}
			for _, m := range s.Models {
				g := s.Group(key(m))
				if g == nil || g.Predictive == nil {
					continue
				}
				st := pal.Style(m)
				var xys plotter.XYs
				bars := &errorBars{style: st}
				for l, a := range g.Predictive.Levels {
					c := g.Predictive.Coverage[l]
					if c.N == 0 || !isFinite(c.Mean) {
						continue
					}
					xys = append(xys, plotter.XY{X: a, Y: c.Mean})
					if isFinite(c.SE) {
						bars.xys = append(bars.xys, plotter.XY{X: a, Y: c.Mean})
						bars.lo = append(bars.lo, c.Mean-c.SE)
						bars.hi = append(bars.hi, c.Mean+c.SE)
					}
				}
				if len(xys) == 0 {
					continue
				}
				line, err := seriesLine(xys, st)
				if err != nil {
					return nil, err
				}
				series := Series{Model: m, Plotters: []plot.Plotter{line}}
				if len(bars.xys) > 0 {
					series.Plotters = append(series.Plotters, bars)
				}
				p.Add(series.Plotters...)
				panel.Series = append(panel.Series, series)
				if !slices.Contains(drawn, m) {
					drawn = append(drawn, m)
				}
			}
			f.Panels = append(f.Panels, panel)
		}
	}
	f.Legend = legendFor(sortModels(drawn), pal, false, false)
	f.Note = "Mean coverage over repeats with ± one standard error; dashed: the diagonal of calibrated intervals. NMF and the baselines have no predictive distribution."
	return f, nil
}

// calibrationHeading heads the calibration table.
const calibrationHeading = "Predictive calibration"

// calibrationTables adds the calibration tables of a study with scores.
func calibrationTables(s *StudySummary, add tableAdder) error {
	if !s.hasScores() {
		return nil
	}
	caption := statsCaption + " of each cell's coverage of the held-out values by its central posterior predictive intervals (quantiles of the mixture over kept sweeps of N(w·z, σ²)), the mean width of its 90% interval, its mean log predictive density (higher is better) and mean CRPS (lower is better). Calibrated intervals cover at their nominal level. NMF and the baselines have no predictive distribution."
	if slices.ContainsFunc(s.Groups, func(g Group) bool {
		spec, _ := bnmf.Lookup(g.Model)
		return spec.Family == bnmf.Poisson
	}) {
		caption += " The models with a Poisson likelihood (PGG, PGGG) predict by the mixture of Poi(w·z) instead: their log density is a log probability mass, and their intervals, from counts to counts, hold at least their level, so that their coverage of counts exceeds it."
	}
	err := add("calibration.md", calibrationHeading, caption,
		func(b *bytes.Buffer) error { return WriteCalibrationTable(b, s, false) })
	if err == nil && slices.ContainsFunc(s.Groups, func(g Group) bool { return g.Predictive != nil && g.Predictive.CleanCoverage != nil }) {
		err = add("calibration-clean.md", "Predictive calibration against the clean values", caption+" Scored against the noise-free values.",
			func(b *bytes.Buffer) error { return WriteCalibrationTable(b, s, true) })
	}
	return err
}
