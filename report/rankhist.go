package report

import (
	"errors"
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/gonum/stat/distuv"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// rankBand is the probability that a bin's count lies in the grey band of
// a rank histogram when the ranks are uniform.
const rankBand = 0.99

// RankHistogramFigure draws the rank histograms of a simulation-based
// calibration (Talts, Betancourt, Simpson, Vehtari and Gelman 2018) of one
// model: a panel per quantity, in the order given, counting the replicates
// whose true value had each rank among the draws posterior draws.
// ranks[q][r] is quantity q's rank in replicate r, in [0, draws]; every
// quantity must have the same replicates. The draws + 1 possible ranks are
// grouped into the largest number of equal bins, at most 20, that leaves
// at least 5 replicates expected in each. Over the bars, a grey band
// shows the central 99% range of one bin's count when the ranks are
// uniform (binomial), and a line the expected count: with uniform ranks
// about one bin in a hundred lies outside the band. Each panel's y axis
// reaches just above its tallest bar or the band, whichever is higher, so
// that one quantity far from uniform does not flatten the others. Mismatched or out-of-range input is an error.
func RankHistogramFigure(model string, quantities []string, ranks [][]int, draws int) (*Figure, error) {
	if len(quantities) == 0 {
		return nil, errors.New("report: rank histograms need at least one quantity")
	}
	if len(ranks) != len(quantities) {
		return nil, fmt.Errorf("report: %d quantities but ranks for %d", len(quantities), len(ranks))
	}
	if draws < 1 {
		return nil, fmt.Errorf("report: rank histograms need at least one draw; got %d", draws)
	}
	reps := len(ranks[0])
	if reps == 0 {
		return nil, errors.New("report: rank histograms need at least one replicate")
	}
	for q, rs := range ranks {
		if len(rs) != reps {
			return nil, fmt.Errorf("report: quantity %q has %d ranks; %q has %d", quantities[q], len(rs), quantities[0], reps)
		}
		for r, v := range rs {
			if v < 0 || v > draws {
				return nil, fmt.Errorf("report: quantity %q, replicate %d: rank %d is outside [0, %d]", quantities[q], r, v, draws)
			}
		}
	}
	bins := rankBins(draws+1, reps)
	width := float64(draws+1) / float64(bins)
	expected := float64(reps) / float64(bins)
	lo, hi := binomialRange(reps, 1/float64(bins), rankBand)

	counts := make([][]float64, len(ranks))
	tops := make([]float64, len(ranks))
	for q, rs := range ranks {
		counts[q] = make([]float64, bins)
		for _, v := range rs {
			counts[q][v*bins/(draws+1)]++
		}
		tops[q] = float64(hi)
		for _, c := range counts[q] {
			tops[q] = math.Max(tops[q], c)
		}
	}

	style := NewPalette([]string{model}).Style(model)
	// The band is drawn over the bars, translucent, so that its lower edge
	// shows across them.
	band := color.NRGBA{R: 0x60, G: 0x60, B: 0x60, A: 0x60}
	f := &Figure{
		Title: fmt.Sprintf("%s: SBC rank histograms (%d replicates, ranks among %d draws)", model, reps, draws),
		Cols:  min(4, len(quantities)),
		Note: fmt.Sprintf("Bars: replicates whose true value has a rank in the bin (%d bins of %s ranks). "+
			"Grey band: the central %s%% range of a bin's count when ranks are uniform; line: the expected count, %s.",
			bins, fmtTick(width), fmtTick(100*rankBand), fmtTick(expected)),
	}
	var legend []LegendEntry
	for q, name := range quantities {
		p := newPanel(name, "rank of the true value", "replicates", yScale{})
		p.X.Min, p.X.Max = 0, float64(draws+1)
		p.Y.Min, p.Y.Max = 0, tops[q]*1.08

		poly, err := plotter.NewPolygon(plotter.XYs{
			{X: 0, Y: float64(lo)}, {X: float64(draws + 1), Y: float64(lo)},
			{X: float64(draws + 1), Y: float64(hi)}, {X: 0, Y: float64(hi)},
		})
		if err != nil {
			return nil, fmt.Errorf("report: rank histogram of %q: %w", name, err)
		}
		poly.Color = band
		poly.LineStyle.Width = 0

		h := &plotter.Histogram{Width: width, FillColor: style.Color}
		h.LineStyle.Color = color.White
		h.LineStyle.Width = vg.Points(0.5)
		for b, c := range counts[q] {
			h.Bins = append(h.Bins, plotter.HistogramBin{Min: float64(b) * width, Max: float64(b+1) * width, Weight: c})
		}

		line, err := plotter.NewLine(plotter.XYs{{X: 0, Y: expected}, {X: float64(draws + 1), Y: expected}})
		if err != nil {
			return nil, fmt.Errorf("report: rank histogram of %q: %w", name, err)
		}
		line.LineStyle.Color = color.Gray{Y: 0x40}
		line.LineStyle.Width = vg.Points(1)
		line.LineStyle.Dashes = []vg.Length{vg.Points(4), vg.Points(2)}

		p.Add(h, poly, line)
		f.Panels = append(f.Panels, Panel{Plot: p, Series: []Series{{Model: model, Plotters: []plot.Plotter{h, poly, line}}}})
		if legend == nil {
			legend = []LegendEntry{
				{Label: model + " ranks", Thumbs: []plot.Thumbnailer{h}},
				{Label: fmt.Sprintf("%s%% range under uniform ranks", fmtTick(100*rankBand)), Thumbs: []plot.Thumbnailer{poly}},
				{Label: "expected count", Thumbs: []plot.Thumbnailer{line}},
			}
		}
	}
	f.Legend = legend
	return f, nil
}

// rankBins returns the number of bins for n possible ranks and reps
// replicates: the largest divisor of n that is at most 20 and leaves at
// least 5 replicates expected per bin, or 1.
func rankBins(n, reps int) int {
	best := 1
	for b := 2; b <= min(20, n); b++ {
		if n%b == 0 && reps >= 5*b {
			best = b
		}
	}
	return best
}

// binomialRange returns the central range [lo, hi] holding probability at
// least mass of a Binomial(n, p) count: lo is its (1-mass)/2-quantile and
// hi its (1+mass)/2-quantile.
func binomialRange(n int, p, mass float64) (lo, hi int) {
	d := distuv.Binomial{N: float64(n), P: p}
	quantile := func(u float64) int {
		for k := 0; k < n; k++ {
			if d.CDF(float64(k)) >= u {
				return k
			}
		}
		return n
	}
	return quantile((1 - mass) / 2), quantile((1 + mass) / 2)
}
