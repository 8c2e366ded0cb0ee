package report

import (
	"bytes"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/bnmf-lab/bnmf/experiments"
)

// sparsityCapRatio limits Fig. 5's y axis to this multiple of the smallest
// mean, so that an exploding model (GEE reaches 2e5 in the paper's Table 2)
// does not squeeze the others into a sliver; clipped means are marked.
const sparsityCapRatio = 30

// SparsityFigure builds the paper's Fig. 5 for a sparsity study: held-out
// MSE against fraction unobserved, one panel per rank, each model's mean
// over repeats with error bars of ± one standard error. When the means
// span an order of magnitude or more (an exploding model) every panel uses
// a log y axis, and means beyond sparsityCapRatio times the smallest are
// drawn at the top of the axis as triangles, so the others are not
// flattened. It returns ErrNoData if no
// cell has a held-out MSE.
func SparsityFigure(s *StudySummary, pal Palette) (*Figure, error) {
	if k := s.Kind(); k != experiments.KindSparsity {
		return nil, fmt.Errorf("report: sparsity figure of a %s study", k)
	}
	ys, ok := figureScale(s, func(g *Group) Stat { return g.TestMSE }, sparsityCapRatio)
	if !ok {
		return nil, ErrNoData
	}
	f := &Figure{Title: figureTitle(s, "held-out MSE against sparsity"),
		Cols: min(len(s.Ranks), 4)}
	var cl clips
	for _, k := range s.Ranks {
		var pts []statSeries
		for _, m := range s.Models {
			ss := statSeries{model: m}
			for _, fr := range s.Grid {
				if g := s.Group(Key{Model: m, Rank: k, Fraction: fr}); g != nil {
					ss.add(fr, g, g.TestMSE)
				}
			}
			pts = append(pts, ss)
		}
		p := newPanel(fmt.Sprintf("K = %d%s", k, countLabel(groupsOf(pts), func(g *Group) int { return g.TestMSE.N })),
			"fraction unobserved", "held-out MSE", ys)
		p.X.Tick.Marker = valueTicks(s.Grid, fmtG)
		padX(p, s.Grid)
		panel, c, err := drawStatSeries(p, pts, pal, ys, minGap(s.Grid))
		if err != nil {
			return nil, err
		}
		cl.low, cl.high = cl.low || c.low, cl.high || c.high
		f.Panels = append(f.Panels, panel)
	}
	f.Legend = legendFor(drawnModels(f.Panels, s.Models), pal, false, true)
	f.Note = "Points: mean over repeats; bars: ± one standard error." + cl.note("Bars")
	return f, nil
}

// statSeries is one model's points in a panel: an x per group.
type statSeries struct {
	model  string
	xs     []float64
	groups []*Group
	stats  []Stat
}

func (ss *statSeries) add(x float64, g *Group, s Stat) {
	ss.xs = append(ss.xs, x)
	ss.groups = append(ss.groups, g)
	ss.stats = append(ss.stats, s)
}

// groupsOf returns the groups of every series, for panel counts.
func groupsOf(series []statSeries) []*Group {
	var gs []*Group
	for _, ss := range series {
		gs = append(gs, ss.groups...)
	}
	return gs
}

// figureScale chooses one y scale for all panels of a figure from the
// groups' means (see chooseYScale for capRatio), and reports whether any
// group has a value to draw. With a capRatio, the ceiling is then lowered
// further when one model's means reach so far above the others' that
// theirs would fill less than a quarter of the axis (see unsqueeze).
func figureScale(s *StudySummary, metric func(*Group) Stat, capRatio float64) (yScale, bool) {
	var vals []float64
	byModel := make(map[string][]float64)
	for i := range s.Groups {
		st := metric(&s.Groups[i])
		if st.N > 0 && isFinite(st.Mean) {
			vals = append(vals, st.Mean)
			byModel[s.Groups[i].Model] = append(byModel[s.Groups[i].Model], st.Mean)
		}
	}
	ys := chooseYScale(vals, capRatio)
	if capRatio > 0 {
		ys = unsqueeze(ys, byModel)
	}
	return ys, len(vals) > 0
}

// squeezeShare is the smallest share of the axis height that the other
// models' means may fill below a model that stands far above them; below
// it, their differences would be too small to read.
const squeezeShare = 0.25

// unsqueeze lowers the ceiling of ys when the means of the model with the
// highest mean reach so far above those of the other models that these
// would fill less than squeezeShare of the axis (measured on its scale,
// log or linear, up to any ceiling it has). The new ceiling leaves the
// others two thirds of the axis, and that model's means above it are
// drawn at it as triangles, like any clipped mean. It needs at least two
// other means that differ.
func unsqueeze(ys yScale, byModel map[string][]float64) yScale {
	top, hi, lo := "", math.Inf(-1), math.Inf(1)
	for m, xs := range byModel {
		for _, x := range xs {
			lo = math.Min(lo, x)
			if x > hi || (x == hi && m < top) {
				top, hi = m, x
			}
		}
	}
	othersHi, others := math.Inf(-1), 0
	for m, xs := range byModel {
		if m == top {
			continue
		}
		for _, x := range xs {
			othersHi = math.Max(othersHi, x)
			others++
		}
	}
	if others < 2 || !(othersHi > lo) || (ys.log && lo <= 0) {
		return ys
	}
	if ys.ceil > 0 {
		hi = math.Min(hi, ys.ceil)
	}
	t, inv := func(x float64) float64 { return x }, func(y float64) float64 { return y }
	if ys.log {
		t, inv = math.Log10, func(y float64) float64 { return math.Pow(10, y) }
	}
	if (t(othersHi)-t(lo))/(t(hi)-t(lo)) >= squeezeShare {
		return ys
	}
	ys.ceil = inv(t(lo) + 1.5*(t(othersHi)-t(lo)))
	return ys
}

// clips records what a figure had to clip, for its note.
type clips struct {
	low, high bool
}

// note returns the sentences that explain the clipping.
func (c clips) note(what string) string {
	s := ""
	if c.high {
		s += " ▲: mean above the top of the axis, drawn at it (values in the tables)."
	}
	if c.low {
		s += " " + what + " reaching below the bottom of the axis are cut at it."
	}
	return s
}

// drawStatSeries adds each series as a line through its means, a glyph at
// each mean and ± one standard error bars. A mean above the axis ceiling
// is drawn at the ceiling as a filled triangle, nudged sideways by model so
// that several clipped models stay visible.
func drawStatSeries(p *plot.Plot, series []statSeries, pal Palette, ys yScale, gap float64) (Panel, clips, error) {
	panel := Panel{Plot: p}
	var cl clips
	for si, ss := range series {
		st := pal.Style(ss.model)
		var xys, in, over plotter.XYs
		var atCeil []bool
		bars := &errorBars{style: st}
		for i, s := range ss.stats {
			if s.N == 0 || !isFinite(s.Mean) {
				continue
			}
			ym, _ := ys.y(s.Mean)
			xy := plotter.XY{X: ss.xs[i], Y: ym}
			xys = append(xys, xy)
			atCeil = append(atCeil, ys.above(s.Mean))
			if ys.above(s.Mean) {
				cl.high = true
				nudge := (float64(si) - float64(len(series)-1)/2) * gap * 0.06
				over = append(over, plotter.XY{X: xy.X + nudge, Y: ym})
				continue
			}
			in = append(in, xy)
			if isFinite(s.SE) && s.SE > 0 {
				lo, c := ys.y(s.Mean - s.SE)
				hi, _ := ys.y(s.Mean + s.SE)
				cl.low = cl.low || c
				bars.xys = append(bars.xys, xy)
				bars.lo = append(bars.lo, lo)
				bars.hi = append(bars.hi, hi)
			}
		}
		if len(xys) == 0 {
			continue
		}
		series := Series{Model: ss.model}
		// The line runs up to a clipped mean but not along the ceiling
		// between two of them, which would read as a plateau.
		start := 0
		for i := 1; i <= len(xys); i++ {
			if i < len(xys) && !(atCeil[i-1] && atCeil[i]) {
				continue
			}
			if i-start > 1 {
				line, err := seriesLine(xys[start:i], st)
				if err != nil {
					return Panel{}, clips{}, fmt.Errorf("report: %s line: %w", ss.model, err)
				}
				series.Plotters = append(series.Plotters, line)
			}
			start = i
		}
		if len(in) > 0 {
			pts, err := seriesPoints(in, st)
			if err != nil {
				return Panel{}, clips{}, fmt.Errorf("report: %s points: %w", ss.model, err)
			}
			series.Plotters = append(series.Plotters, pts)
		}
		if len(over) > 0 {
			tri, err := seriesPoints(over, SeriesStyle{Color: st.Color, Glyph: draw.PyramidGlyph{}})
			if err != nil {
				return Panel{}, clips{}, fmt.Errorf("report: %s clipped points: %w", ss.model, err)
			}
			tri.GlyphStyle.Radius = vg.Points(5)
			series.Plotters = append(series.Plotters, tri)
		}
		if len(bars.xys) > 0 {
			series.Plotters = append(series.Plotters, bars)
		}
		p.Add(series.Plotters...)
		panel.Series = append(panel.Series, series)
	}
	if cl.high {
		top, _ := ys.y(ys.ceil)
		p.Y.Max = top
	}
	if len(panel.Series) == 0 {
		if err := markEmpty(p, p.X.Min, p.X.Max); err != nil {
			return Panel{}, clips{}, err
		}
	}
	return panel, cl, nil
}

// minGap returns the smallest spacing of the ascending values xs, or 1.
func minGap(xs []float64) float64 {
	gap := math.Inf(1)
	for i := 1; i < len(xs); i++ {
		gap = min(gap, xs[i]-xs[i-1])
	}
	if math.IsInf(gap, 1) || gap <= 0 {
		return 1
	}
	return gap
}

// valueTicks labels exactly the given x values.
func valueTicks(xs []float64, label func(float64) string) plot.ConstantTicks {
	ticks := make(plot.ConstantTicks, len(xs))
	for i, x := range xs {
		ticks[i] = plot.Tick{Value: x, Label: label(x)}
	}
	return ticks
}

// padX widens the x axis by a fifth of the smallest spacing of xs on each
// side, so glyphs and bars at the ends are not cut by the axes.
func padX(p *plot.Plot, xs []float64) {
	if len(xs) == 0 {
		return
	}
	gap := minGap(xs)
	p.X.Min, p.X.Max = xs[0]-gap/5, xs[len(xs)-1]+gap/5
}

// drawnModels returns the models, in report order, that have a series in
// some panel.
func drawnModels(panels []Panel, models []string) []string {
	drawn := make(map[string]bool)
	for _, p := range panels {
		for _, s := range p.Series {
			drawn[s.Model] = true
		}
	}
	var out []string
	for _, m := range models {
		if drawn[m] {
			out = append(out, m)
		}
	}
	return out
}

// sparsityReport is the report of a sparsity study: Fig. 5, Table 2 and
// the held-out MSE at every fraction.
type sparsityReport struct{}

func (sparsityReport) figure(s *StudySummary, pal Palette) (*Figure, string, error) {
	f, err := SparsityFigure(s, pal)
	return f, figureFile(s, "sparsity.png"), err
}

// tables writes, in a study that repeats the paper's, its Table 2 at
// each of the paper's fractions the study has, then the held-out MSE at
// every fraction.
func (sparsityReport) tables(s *StudySummary, paper PaperValues, add tableAdder) error {
	extra := heldOutCaption(s)
	for _, f := range Table2Fractions() {
		if s.Paper == nil || s.Paper.Table == "" || !slices.ContainsFunc(s.Grid, func(x float64) bool { return sameFloat(x, f) }) {
			continue
		}
		table := s.Paper.Table
		source := " The paper's " + table + " gives values for MovieLens 100K only, so there are no \"(paper)\" columns."
		if paper.hasHeldOutMSE(s.Study.Manifest.Dataset, f) {
			source = " The \"(paper)\" columns are the paper's " + table + "; \"—\" where it gives no value (it has no NMF column and covers MovieLens 100K only)."
		}
		err := add(fmt.Sprintf("%s-%s.md", paperFileKey(table), fmtG(f)),
			fmt.Sprintf("%s: held-out MSE at fraction unobserved %s", table, fmtG(f)),
			statsCaption+"; the lowest per row in bold."+source+extra,
			func(b *bytes.Buffer) error { return WriteHeldOutTable(b, s, f, paper) })
		if err != nil {
			return err
		}
	}
	err := add("sparsity.md", "Held-out MSE at every fraction unobserved"+paperFigureRef(s),
		statsCaption+"; the lowest per row in bold."+extra,
		func(b *bytes.Buffer) error { return WriteSparsityTable(b, s) })
	if err != nil {
		return err
	}
	if len(s.Baselines()) > 0 {
		var rows []skillRow
		for _, k := range s.Ranks {
			for _, f := range s.Grid {
				rows = append(rows, skillRow{[]string{fmt.Sprintf("K = %d", k), fmtG(f)}, func(m string) Key { return Key{Model: m, Rank: k, Fraction: f} }})
			}
		}
		err = add("skill.md", "Skill against the best baseline at every fraction unobserved",
			statsCaption+", paired by repeat; the highest per row in bold."+skillCaption(s, "on the held-out MSE"),
			func(b *bytes.Buffer) error {
				return WriteSkillTable(b, s, []string{"K", "Fraction unobserved"}, rows, testMSE())
			})
		if err != nil {
			return err
		}
	}
	return addBrouwerLioSparsityTable(s, add)
}

func (sparsityReport) findings(s *StudySummary, paper PaperValues) string {
	return sparsityFindings(s, paper)
}

func (sparsityReport) grid(s *StudySummary) string {
	return fmt.Sprintf(", fractions unobserved %s", fmtFloats(s.Grid))
}
