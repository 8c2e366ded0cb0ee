package report

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// Trace is one quantity's value at every sweep of every chain of a fit,
// for TraceFigure.
type Trace struct {
	// Name labels the panel and its y axis, such as "sigma^2".
	Name string
	// Chains holds each chain's values, at index sweep - 1.
	Chains [][]float64
}

// TraceFigure draws every chain's values of each trace against the
// sweep, a colour per chain: a row of panels over all sweeps, and, when
// burnIn is positive, a dashed grey line at its last sweep and a second
// row over the kept sweeps alone, on axes of their own, so a reader sees
// whether the chains had settled and whether they agree where their
// samples count. Non-finite values are left out. It returns ErrNoData
// when no trace has a value.
func TraceFigure(title string, traces []Trace, burnIn int) (*Figure, error) {
	f := &Figure{Title: title}
	chains := 0
	rows := []int{0}
	if burnIn > 0 {
		rows = append(rows, burnIn)
	}
	for _, from := range rows {
		for _, tr := range traces {
			panel, n, err := tracePanel(tr, from, burnIn)
			if err != nil {
				return nil, err
			}
			if len(panel.Series) == 0 {
				continue
			}
			f.Panels = append(f.Panels, panel)
			chains = max(chains, n)
		}
	}
	if len(f.Panels) == 0 {
		return nil, ErrNoData
	}
	f.Cols = min(len(f.Panels), len(traces))
	legend, err := chainLegend(chains)
	if err != nil {
		return nil, err
	}
	f.Legend = legend
	f.Note = "Each line is one chain."
	if burnIn > 0 {
		f.Note += fmt.Sprintf(" Sweeps after the dashed line (burn-in: %d sweeps) are the posterior samples; the lower row shows them alone.", burnIn)
	}
	return f, nil
}

// tracePanel draws the chains' values of tr from sweep from+1 on, with
// the burn-in marked when it falls inside, and returns the panel and the
// number of chains.
func tracePanel(tr Trace, from, burnIn int) (Panel, int, error) {
	var all []float64
	for _, c := range tr.Chains {
		if from < len(c) {
			all = append(all, c[from:]...)
		}
	}
	ys := chooseYScale(all, 0)
	name := tr.Name
	if from > 0 {
		name += ", kept sweeps"
	}
	p := newPanel(name, "sweep", tr.Name, ys)
	panel := Panel{Plot: p}
	lo, hi := math.Inf(1), math.Inf(-1)
	chains := 0
	for c, values := range tr.Chains {
		var xys plotter.XYs
		for i := from; i < len(values); i++ {
			if y, _ := ys.y(values[i]); isFinite(values[i]) {
				xys = append(xys, plotter.XY{X: float64(i + 1), Y: y})
				lo, hi = math.Min(lo, y), math.Max(hi, y)
			}
		}
		if len(xys) == 0 {
			continue
		}
		line, err := seriesLine(xys, SeriesStyle{Color: chainColor(c)})
		if err != nil {
			return panel, 0, fmt.Errorf("report: trace of %s, chain %d: %w", tr.Name, c, err)
		}
		p.Add(line)
		panel.Series = append(panel.Series, Series{Model: fmt.Sprintf("chain %d", c), Plotters: []plot.Plotter{line}})
		chains = c + 1
	}
	if burnIn > from && len(panel.Series) > 0 {
		mark, err := plotter.NewLine(plotter.XYs{{X: float64(burnIn), Y: lo}, {X: float64(burnIn), Y: hi}})
		if err != nil {
			return panel, 0, fmt.Errorf("report: burn-in mark of %s: %w", tr.Name, err)
		}
		mark.LineStyle.Color = color.Gray{Y: 0x80}
		mark.LineStyle.Width = vg.Points(1)
		mark.LineStyle.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		p.Add(mark)
	}
	return panel, chains, nil
}

// chainColor returns the colour of chain c in the trace figures.
func chainColor(c int) color.RGBA {
	colors := []color.RGBA{
		{R: 0x1f, G: 0x77, B: 0xb4, A: 0xff}, {R: 0xff, G: 0x7f, B: 0x0e, A: 0xff},
		{R: 0x2c, G: 0xa0, B: 0x2c, A: 0xff}, {R: 0xd6, G: 0x27, B: 0x28, A: 0xff},
		{R: 0x94, G: 0x67, B: 0xbd, A: 0xff}, {R: 0x8c, G: 0x56, B: 0x4b, A: 0xff},
	}
	return colors[c%len(colors)]
}

// chainLegend returns a legend entry per chain, in chainColor's colours.
func chainLegend(chains int) ([]LegendEntry, error) {
	var legend []LegendEntry
	for c := range chains {
		line, err := seriesLine(plotter.XYs{{X: 0, Y: 0}, {X: 1, Y: 1}}, SeriesStyle{Color: chainColor(c)})
		if err != nil {
			return nil, err
		}
		legend = append(legend, LegendEntry{Label: fmt.Sprintf("chain %d", c), Thumbs: []plot.Thumbnailer{line}})
	}
	return legend, nil
}
