package report

import (
	"bytes"
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"

	"github.com/bnmf-lab/bnmf/experiments"
)

// ConvergenceFigure builds the paper's Fig. 2 for a convergence study:
// train MSE against sweep, one panel per rank, each model's mean over
// repeats with a band of ± one standard deviation. When the values span an
// order of magnitude or more (the first sweeps can be thousands of times
// the converged values) the y axis is logarithmic and a second row of
// panels shows the sweeps after burn-in (or the second half of the chain)
// on a linear axis, so converged levels can be compared. It returns
// ErrNoData if no cell has a trace.
func ConvergenceFigure(s *StudySummary, pal Palette) (*Figure, error) {
	if k := s.Kind(); k != experiments.KindConvergence {
		return nil, fmt.Errorf("report: convergence figure of a %s study", k)
	}
	var all []float64
	sweeps := 0
	for _, g := range s.Groups {
		all = append(all, g.Trace.Mean...)
		sweeps = max(sweeps, len(g.Trace.Mean))
	}
	if sweeps == 0 {
		return nil, ErrNoData
	}
	full := chooseYScale(all, 0)
	f := &Figure{Title: figureTitle(s, "convergence"),
		Cols: len(s.Ranks)}
	clipped := false
	for _, k := range s.Ranks {
		p, c, err := convergencePanel(s, pal, k, 1, sweeps, full, "all sweeps")
		if err != nil {
			return nil, err
		}
		clipped = clipped || c
		f.Panels = append(f.Panels, p)
	}
	if full.log {
		from := s.Study.Manifest.BurnIn + 1
		if from <= 1 || from >= sweeps {
			from = sweeps/2 + 1
		}
		var tail []float64
		for _, g := range s.Groups {
			if len(g.Trace.Mean) >= from {
				tail = append(tail, g.Trace.Mean[from-1:]...)
			}
		}
		zoom := chooseYScale(tail, 0)
		for _, k := range s.Ranks {
			p, c, err := convergencePanel(s, pal, k, from, sweeps, zoom, fmt.Sprintf("sweeps %d–%d", from, sweeps))
			if err != nil {
				return nil, err
			}
			clipped = clipped || c
			f.Panels = append(f.Panels, p)
		}
	}
	f.Legend = legendFor(drawnModels(f.Panels, s.Models), pal, true, false)
	f.Note = "Lines: mean over repeats; shaded: ± one standard deviation."
	if clipped {
		f.Note += " Bands reaching below the axis floor are cut at it."
	}
	return f, nil
}

// convergencePanel draws one rank's traces between sweeps from and to
// (1-based, inclusive), and reports whether a band was clipped.
func convergencePanel(s *StudySummary, pal Palette, rank, from, to int, ys yScale, what string) (Panel, bool, error) {
	var groups []*Group
	for _, m := range s.Models {
		if g := s.Group(Key{Model: m, Rank: rank}); g != nil && len(g.Trace.Mean) >= from {
			groups = append(groups, g)
		}
	}
	title := fmt.Sprintf("K = %d, %s%s", rank, what, countLabel(groups, func(g *Group) int { return g.TrainMSE.N }))
	p := newPanel(title, "sweep", "train MSE", ys)
	p.X.Min, p.X.Max = float64(from), float64(to)
	panel := Panel{Plot: p}
	clipped := false
	for _, g := range groups {
		st := pal.Style(g.Model)
		var mean, band []plotter.XY
		var upper []plotter.XY
		for i := from - 1; i < min(to, len(g.Trace.Mean)); i++ {
			m := g.Trace.Mean[i]
			if !isFinite(m) {
				continue
			}
			x := float64(i + 1)
			ym, _ := ys.y(m)
			mean = append(mean, plotter.XY{X: x, Y: ym})
			sd := g.Trace.SD[i]
			if !isFinite(sd) {
				sd = 0
			}
			lo, c := ys.y(m - sd)
			hi, _ := ys.y(m + sd)
			clipped = clipped || c
			band = append(band, plotter.XY{X: x, Y: lo})
			upper = append(upper, plotter.XY{X: x, Y: hi})
		}
		if len(mean) == 0 {
			continue
		}
		for i := len(upper) - 1; i >= 0; i-- {
			band = append(band, upper[i])
		}
		series := Series{Model: g.Model}
		poly, err := plotter.NewPolygon(plotter.XYs(band))
		if err != nil {
			return Panel{}, false, fmt.Errorf("report: %s band: %w", g.Key, err)
		}
		poly.Color = translucent(st.Color)
		poly.LineStyle.Width = 0
		line, err := seriesLine(mean, st)
		if err != nil {
			return Panel{}, false, fmt.Errorf("report: %s line: %w", g.Key, err)
		}
		series.Plotters = []plot.Plotter{poly, line}
		p.Add(series.Plotters...)
		panel.Series = append(panel.Series, series)
	}
	if len(panel.Series) == 0 {
		if err := markEmpty(p, p.X.Min, p.X.Max); err != nil {
			return Panel{}, false, err
		}
	}
	return panel, clipped, nil
}

// translucent returns c at a fifth of its opacity, for bands.
func translucent(c color.RGBA) color.NRGBA {
	return color.NRGBA{R: c.R, G: c.G, B: c.B, A: 0x38}
}

// countLabel returns ", n = 10" when every group has the same number of
// values, ", n = 3–10 of 10" when some have fewer than expected, and "" for
// no groups.
func countLabel(groups []*Group, n func(*Group) int) string {
	if len(groups) == 0 {
		return ""
	}
	lo, hi, exp := math.MaxInt, 0, 0
	for _, g := range groups {
		lo, hi, exp = min(lo, n(g)), max(hi, n(g)), max(exp, g.Expected)
	}
	switch {
	case lo >= exp && lo == hi:
		return fmt.Sprintf(", n = %d", lo)
	case lo == hi:
		return fmt.Sprintf(", n = %d of %d", lo, exp)
	}
	return fmt.Sprintf(", n = %d–%d of %d", lo, hi, exp)
}

// legendFor returns a legend entry per model: a line, with a band swatch
// if band and a glyph if points.
func legendFor(models []string, pal Palette, band, points bool) []LegendEntry {
	var out []LegendEntry
	for _, m := range models {
		st := pal.Style(m)
		e := LegendEntry{Label: m}
		if band { // a thumbnail needs only the fill colour
			e.Thumbs = append(e.Thumbs, &plotter.Polygon{Color: translucent(st.Color)})
		}
		e.Thumbs = append(e.Thumbs, &plotter.Line{LineStyle: st.Line(lineWidth)})
		if points {
			sc := &plotter.Scatter{}
			sc.GlyphStyle.Color, sc.GlyphStyle.Shape, sc.GlyphStyle.Radius = st.Color, st.Glyph, 3
			e.Thumbs = append(e.Thumbs, sc)
		}
		out = append(out, e)
	}
	return out
}

// convergenceReport is the report of a convergence study: Fig. 2 and the
// final train MSE.
type convergenceReport struct{}

func (convergenceReport) figure(s *StudySummary, pal Palette) (*Figure, string, error) {
	f, err := ConvergenceFigure(s, pal)
	return f, figureFile(s, "convergence.png"), err
}

func (convergenceReport) tables(s *StudySummary, _ PaperValues, add tableAdder) error {
	err := add("convergence.md", "Final train MSE",
		statsCaption+"; the lowest per row in bold.",
		func(b *bytes.Buffer) error { return WriteConvergenceTable(b, s) })
	if err != nil {
		return err
	}
	return addBrouwerLioConvergenceTable(s, add)
}

func (convergenceReport) findings(s *StudySummary, _ PaperValues) string {
	return convergenceFindings(s)
}

func (convergenceReport) grid(*StudySummary) string { return "" }
