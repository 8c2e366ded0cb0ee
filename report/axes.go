package report

import (
	"fmt"
	"image/color"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// logAxisRatio is the ratio of the largest to the smallest value from
// which a y axis is drawn on a log scale: at one order of magnitude a
// linear axis starts to flatten the smaller curves.
const logAxisRatio = 10

// yScale is a figure's choice of y axis, shared by its panels so they read
// alike. A log axis is drawn by plotting log10 of the values on a linear
// axis with ticks labelled in the original units (logTicks): gonum's
// LogScale centres the axis label on the arithmetic midpoint of the range,
// which pushes it off the top of a panel spanning decades.
type yScale struct {
	log bool
	// floor is the lowest value drawn on a log axis: bands and error bars
	// reaching below it (or below zero) are clipped to it.
	floor float64
	// ceil, if positive, is the top of the axis: larger values are drawn
	// at it and marked as clipped.
	ceil float64
}

// chooseYScale picks a log axis when the finite positive values span at
// least logAxisRatio and none is zero or negative; the floor is half the
// smallest value. If capRatio is positive and the values reach beyond
// capRatio times the smallest, the axis stops there (ceil).
func chooseYScale(values []float64, capRatio float64) yScale {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range values {
		if !isFinite(v) {
			continue
		}
		if v <= 0 {
			return yScale{}
		}
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	if hi < lo || hi/lo < logAxisRatio {
		return yScale{}
	}
	s := yScale{log: true, floor: lo / 2}
	if capRatio > 0 && hi > capRatio*lo {
		s.ceil = capRatio * lo
	}
	return s
}

// y maps a value to the plotted coordinate (log10 of it on a log axis),
// holding it within the floor and the ceiling; clipped reports whether it
// had to be held.
func (s yScale) y(v float64) (y float64, clipped bool) {
	if s.ceil > 0 && v > s.ceil {
		v, clipped = s.ceil, true
	}
	if !s.log {
		return v, clipped
	}
	if !(v >= s.floor) {
		return math.Log10(s.floor), true
	}
	return math.Log10(v), clipped
}

// above reports whether v is drawn at the ceiling, clipped.
func (s yScale) above(v float64) bool { return s.ceil > 0 && v > s.ceil }

// label returns an axis label, marked when the axis is logarithmic.
func (s yScale) label(l string) string {
	if s.log {
		return l + " (log scale)"
	}
	return l
}

// newPanel returns a plot with a title, axis labels, a light grid and the
// y scale applied. Styles are set on this plot and its grid only.
func newPanel(title, xLabel, yLabel string, ys yScale) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font.Size = vg.Points(12)
	p.X.Label.Text = xLabel
	p.Y.Label.Text = ys.label(yLabel)
	p.X.Label.TextStyle.Font.Size = vg.Points(11)
	p.Y.Label.TextStyle.Font.Size = vg.Points(11)
	if ys.log {
		p.Y.Tick.Marker = logTicks{}
	} else {
		p.Y.Tick.Marker = distinctTicks{}
	}
	g := plotter.NewGrid()
	g.Vertical.Color = color.Gray{Y: 0xe4}
	g.Horizontal.Color = color.Gray{Y: 0xe4}
	g.Vertical.Width = vg.Points(0.5)
	g.Horizontal.Width = vg.Points(0.5)
	p.Add(g)
	return p
}

// logTicks marks a y axis that plots log10 of the values (see yScale):
// labelled powers of ten with minor ticks between them, and 2 and 5 times
// the powers labelled too when the axis spans less than two decades. On an
// axis shorter than half a decade it places the linear ticks of the
// original values, which still read correctly.
type logTicks struct{}

// Ticks implements plot.Ticker; lo and hi are log10 of the range.
func (logTicks) Ticks(lo, hi float64) []plot.Tick {
	linear := func() []plot.Tick {
		ticks := plot.DefaultTicks{}.Ticks(math.Pow(10, lo), math.Pow(10, hi))
		out := ticks[:0]
		for _, t := range ticks {
			if t.Value > 0 {
				t.Value = math.Log10(t.Value)
				out = append(out, t)
			}
		}
		return out
	}
	span := hi - lo
	if !(span >= 0.5) {
		return linear()
	}
	labelled := map[int]bool{1: true}
	if span < 2 {
		labelled[2], labelled[5] = true, true
	}
	step := 1 // label every step-th decade on very long axes
	if span > 8 {
		step = 2
	}
	var ticks []plot.Tick
	nLabels := 0
	for e := int(math.Floor(lo)); e <= int(math.Ceil(hi)); e++ {
		for m := 1; m <= 9; m++ {
			v := math.Log10(float64(m)) + float64(e)
			if v < lo-1e-9 || v > hi+1e-9 {
				continue
			}
			t := plot.Tick{Value: v}
			if labelled[m] && (m != 1 || e%step == 0) {
				t.Label = fmtTick(float64(m) * math.Pow(10, float64(e)))
				nLabels++
			}
			ticks = append(ticks, t)
		}
	}
	if nLabels < 2 {
		return linear()
	}
	return ticks
}

// distinctTicks are gonum's default ticks, relabelled with the fewest
// decimals that tell them apart when two labels would read the same
// (gonum labels 1.02 and 1.08 both "1.1" on a short axis).
type distinctTicks struct{}

// Ticks implements plot.Ticker.
func (distinctTicks) Ticks(lo, hi float64) []plot.Tick {
	ticks := plot.DefaultTicks{}.Ticks(lo, hi)
	distinct := func(label func(float64) string) bool {
		seen := make(map[string]bool)
		for _, t := range ticks {
			if t.Label == "" {
				continue
			}
			l := label(t.Value)
			if seen[l] {
				return false
			}
			seen[l] = true
		}
		return true
	}
	byGonum := make(map[float64]string)
	for _, t := range ticks {
		byGonum[t.Value] = t.Label
	}
	if distinct(func(v float64) string { return byGonum[v] }) {
		return ticks
	}
	for d := 0; d <= 12; d++ {
		label := func(v float64) string { return strconv.FormatFloat(v, 'f', d, 64) }
		if distinct(label) {
			for i := range ticks {
				if ticks[i].Label != "" {
					ticks[i].Label = label(ticks[i].Value)
				}
			}
			break
		}
	}
	return ticks
}

// fmtTick formats a tick value briefly: 0.5, 20, 1e5.
func fmtTick(v float64) string {
	if math.Abs(v) >= 1e5 {
		e := math.Floor(math.Log10(math.Abs(v)))
		m := v / math.Pow(10, e)
		return strconv.FormatFloat(m, 'g', 3, 64) + "e" + strconv.Itoa(int(e))
	}
	return strconv.FormatFloat(v, 'g', 6, 64)
}

// seriesLine returns a line through xys in a model's style.
func seriesLine(xys plotter.XYs, st SeriesStyle) (*plotter.Line, error) {
	l, err := plotter.NewLine(xys)
	if err != nil {
		return nil, err
	}
	l.LineStyle = st.Line(vg.Points(lineWidth))
	return l, nil
}

// seriesPoints returns a model's glyphs at xys.
func seriesPoints(xys plotter.XYs, st SeriesStyle) (*plotter.Scatter, error) {
	s, err := plotter.NewScatter(xys)
	if err != nil {
		return nil, err
	}
	s.GlyphStyle.Color = st.Color
	s.GlyphStyle.Shape = st.Glyph
	s.GlyphStyle.Radius = vg.Points(3)
	return s, nil
}

// errorBars draws vertical bars from lo[i] to hi[i] at xys[i] in a model's
// colour.
type errorBars struct {
	xys    plotter.XYs
	lo, hi []float64
	style  SeriesStyle
}

// Plot implements plot.Plotter.
func (e *errorBars) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	ls := draw.LineStyle{Color: e.style.Color, Width: vg.Points(1)}
	capW := vg.Points(3)
	for i, xy := range e.xys {
		x := trX(xy.X)
		y0, y1 := trY(e.lo[i]), trY(e.hi[i])
		c.StrokeLine2(ls, x, y0, x, y1)
		c.StrokeLine2(ls, x-capW, y0, x+capW, y0)
		c.StrokeLine2(ls, x-capW, y1, x+capW, y1)
	}
}

// DataRange implements plot.DataRanger.
func (e *errorBars) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, xmax = plotter.Range(plotter.XValues{XYer: e.xys})
	ymin, ymax = math.Inf(1), math.Inf(-1)
	for i := range e.lo {
		ymin, ymax = math.Min(ymin, e.lo[i]), math.Max(ymax, e.hi[i])
	}
	return xmin, xmax, ymin, ymax
}

// markEmpty turns a panel with no series into a plain notice: no y axis,
// and a line of text in the middle saying nothing has finished, so an
// unfinished setting does not look like a real axis with no data.
func markEmpty(p *plot.Plot, xMin, xMax float64) error {
	p.HideY()
	p.Y.Label.Text = ""
	p.Y.Min, p.Y.Max = 0, 1
	l, err := plotter.NewLabels(plotter.XYLabels{
		XYs:    plotter.XYs{{X: (xMin + xMax) / 2, Y: 0.5}},
		Labels: []string{"no finished cells yet"},
	})
	if err != nil {
		return fmt.Errorf("report: empty panel: %w", err)
	}
	l.TextStyle[0] = figureText(11)
	l.TextStyle[0].Color = color.Gray{Y: 0x60}
	l.TextStyle[0].XAlign, l.TextStyle[0].YAlign = draw.XCenter, draw.YCenter
	p.Add(l)
	return nil
}
