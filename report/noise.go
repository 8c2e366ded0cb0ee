package report

import (
	"bytes"
	"fmt"
	"math"

	"github.com/bnmf-lab/bnmf/experiments"
)

// NoiseFigure builds the paper's Fig. 4 for a noise study: var(data)/MSE
// (higher is better) against the noise-to-signal ratio, each model's mean
// over repeats with ± one standard error bars. The ratios are placed
// evenly as categories, so ratio 0 is shown beside 0.1 and 10. A panel per
// rank measures against the noisy test values and, when the records carry
// it, a second against the clean ones. It returns ErrNoData if no cell has
// a var(data)/MSE value.
func NoiseFigure(s *StudySummary, pal Palette) (*Figure, error) {
	if k := s.Kind(); k != experiments.KindNoise {
		return nil, fmt.Errorf("report: noise figure of a %s study", k)
	}
	type variant struct {
		name   string
		metric func(*Group) Stat
	}
	variants := []variant{{"against noisy test values", func(g *Group) Stat { return g.VarOverMSE }}}
	if s.hasCleanVariant() {
		variants = append(variants, variant{"against clean test values", func(g *Group) Stat { return g.VarOverMSEClean }})
	}
	var vals []float64
	for i := range s.Groups {
		for _, v := range variants {
			if st := v.metric(&s.Groups[i]); st.N > 0 && isFinite(st.Mean) {
				vals = append(vals, st.Mean)
			}
		}
	}
	if len(vals) == 0 {
		return nil, ErrNoData
	}
	ys := chooseYScale(vals, 0) // one scale for both variants, so they compare
	f := &Figure{Title: figureTitle(s, "var(data)/MSE against noise (higher is better)"),
		Cols: len(variants)}
	positions := make([]float64, len(s.Grid))
	for i := range positions {
		positions[i] = float64(i)
	}
	ratioLabel := func(x float64) string { return fmtG(s.Grid[int(x)]) }
	var cl clips
	for _, k := range s.Ranks {
		for _, v := range variants {
			var pts []statSeries
			for _, m := range s.Models {
				ss := statSeries{model: m}
				for i, r := range s.Grid {
					if g := s.Group(Key{Model: m, Rank: k, NoiseRatio: r}); g != nil {
						ss.add(positions[i], g, v.metric(g))
					}
				}
				pts = append(pts, ss)
			}
			title := fmt.Sprintf("K = %d, %s%s", k, v.name, countLabel(groupsOf(pts), func(g *Group) int { return v.metric(g).N }))
			p := newPanel(title, "noise-to-signal variance ratio", "var(data) / MSE", ys)
			p.X.Tick.Marker = valueTicks(positions, ratioLabel)
			padX(p, positions)
			panel, c, err := drawStatSeries(p, pts, pal, ys, 1)
			if err != nil {
				return nil, err
			}
			cl.low = cl.low || c.low
			f.Panels = append(f.Panels, panel)
		}
	}
	// One y range for all panels, so noisy and clean compare at a glance.
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, p := range f.Panels {
		if len(p.Series) > 0 {
			lo, hi = math.Min(lo, p.Plot.Y.Min), math.Max(hi, p.Plot.Y.Max)
		}
	}
	for _, p := range f.Panels {
		if len(p.Series) > 0 {
			p.Plot.Y.Min, p.Plot.Y.Max = lo, hi
		}
	}
	f.Legend = legendFor(drawnModels(f.Panels, s.Models), pal, false, true)
	f.Note = "Points: mean over repeats; bars: ± one standard error. Ratios are evenly spaced categories." + cl.note("Bars")
	return f, nil
}

// noiseReport is the report of a noise study: Fig. 4 and its tables.
type noiseReport struct{}

func (noiseReport) figure(s *StudySummary, pal Palette) (*Figure, string, error) {
	f, err := NoiseFigure(s, pal)
	return f, figureFile(s, "noise.png"), err
}

func (noiseReport) tables(s *StudySummary, _ PaperValues, add tableAdder) error {
	caption := func(values string, variance func(*Group) Stat) string {
		c := statsCaption + "; higher is better, the highest per row in bold."
		if recordedVariance(s, variance) != nil {
			c += fmt.Sprintf(" \"var(data)\" is the variance of the %s training values, mean over repeats: the numerator of var(data)/MSE.", values)
		}
		return c
	}
	skill := func(file, values string, mse mseMetric) error {
		if len(s.Baselines()) == 0 {
			return nil
		}
		var rows []skillRow
		for _, k := range s.Ranks {
			for _, r := range s.Grid {
				rows = append(rows, skillRow{[]string{fmt.Sprintf("K = %d", k), fmtG(r)}, func(m string) Key { return Key{Model: m, Rank: k, NoiseRatio: r} }})
			}
		}
		return add(file, "Skill against the best baseline, on the "+values+" test values",
			statsCaption+", paired by repeat; the highest per row in bold."+skillCaption(s, fmt.Sprintf("on the MSE against the %s test values", values)),
			func(b *bytes.Buffer) error {
				return WriteSkillTable(b, s, []string{"K", "Noise-to-signal ratio"}, rows, mse)
			})
	}
	err := add("noise.md", "var(data)/MSE against the noisy test values"+paperFigureRef(s),
		caption("noisy", func(g *Group) Stat { return g.DataVariance }),
		func(b *bytes.Buffer) error { return WriteNoiseTable(b, s, false) })
	if err == nil {
		err = skill("noise-skill.md", "noisy", testMSE())
	}
	if err == nil && s.hasCleanVariant() {
		err = add("noise-clean.md", "var(data)/MSE against the clean test values"+paperFigureRef(s),
			caption("clean", func(g *Group) Stat { return g.CleanVariance }),
			func(b *bytes.Buffer) error { return WriteNoiseTable(b, s, true) })
		if err == nil {
			err = skill("noise-clean-skill.md", "clean", cleanMSE())
		}
	}
	if err != nil {
		return err
	}
	return addBrouwerLioNoiseTable(s, add)
}

func (noiseReport) findings(s *StudySummary, _ PaperValues) string { return noiseFindings(s) }

func (noiseReport) grid(s *StudySummary) string {
	return fmt.Sprintf(", noise-to-signal ratios %s", fmtFloats(s.Grid))
}
