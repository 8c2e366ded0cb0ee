package report

import (
	"errors"
	"fmt"
	"image/color"
	"io"
	"math"
	"os"
	"strconv"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/bnmf-lab/bnmf/dataset"
)

// Layout of the rating chart.
const (
	ratingChartWidth  = 5 * vg.Inch
	ratingChartHeight = 3.5 * vg.Inch
	// ratingMaxBars is the most distinct values drawn as one bar each;
	// beyond it the values are grouped into ratingHistBins bins.
	ratingMaxBars  = 24
	ratingHistBins = 20
	// ratingMaxLabels is the most bars whose counts fit above them, and
	// ratingMaxFullLabels the most whose counts fit in full ("34,101"
	// rather than "34k").
	ratingMaxLabels     = 12
	ratingMaxFullLabels = 6
)

// ratingBarColor returns the colour of the bars.
func ratingBarColor() color.RGBA { return color.RGBA{R: 0x3b, G: 0x6e, B: 0xa8, A: 0xff} }

// checkRatingCounts rejects an empty distribution and impossible counts.
func checkRatingCounts(counts []dataset.RatingCount) (total int, err error) {
	if len(counts) == 0 {
		return 0, errors.New("report: no ratings to show")
	}
	for i, c := range counts {
		if c.Count < 0 || math.IsNaN(c.Value) || math.IsInf(c.Value, 0) {
			return 0, fmt.Errorf("report: rating count %d (%v: %d) is invalid", i, c.Value, c.Count)
		}
		if i > 0 && c.Value <= counts[i-1].Value {
			return 0, fmt.Errorf("report: rating values %v and %v are not increasing", counts[i-1].Value, c.Value)
		}
		total += c.Count
	}
	if total == 0 {
		return 0, errors.New("report: no ratings to show")
	}
	return total, nil
}

// WriteRatingChart draws the rating distribution of a dataset, the paper's
// Fig. 3, as a PNG bar chart at path: one bar per rating value, its height
// the share of all ratings in percent and, for up to 12 bars, its count
// printed above it.
// When there are more than 24 distinct values, as with real-valued data,
// it draws a histogram of 20 bins instead. counts must be in increasing
// order of value, as dataset.Distribution returns them.
func WriteRatingChart(path, title string, counts []dataset.RatingCount) error {
	return writeValueChart(path, title, ratingNouns(), counts)
}

// valueNouns name what a distribution counts: ratings, or values.
type valueNouns struct {
	one, many string // "rating", "ratings"
}

func ratingNouns() valueNouns  { return valueNouns{"rating", "ratings"} }
func valueNounsOf() valueNouns { return valueNouns{"value", "values"} }

// writeValueChart draws a distribution as WriteRatingChart does, naming
// what it counts by nouns.
func writeValueChart(path, title string, nouns valueNouns, counts []dataset.RatingCount) error {
	total, err := checkRatingCounts(counts)
	if err != nil {
		return err
	}
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font.Size = vg.Points(12)
	p.Title.Padding = vg.Points(6)
	p.Y.Label.Text = "share of " + nouns.many + " (%)"
	p.Y.Label.TextStyle.Font.Size = vg.Points(11)
	p.X.Label.TextStyle.Font.Size = vg.Points(11)
	p.Y.Min = 0
	grid := plotter.NewGrid()
	grid.Vertical.Width = 0
	grid.Horizontal.Color = color.Gray{Y: 0xe0}
	grid.Horizontal.Width = vg.Points(0.5)
	p.Add(grid)

	var top float64
	if len(counts) <= ratingMaxBars {
		top, err = addRatingBars(p, counts, total)
		p.X.Label.Text = nouns.one
	} else {
		top, err = addRatingHistogram(p, counts, total)
	}
	if err != nil {
		return err
	}
	// Room above the tallest bar for its label.
	p.Y.Max = top * 1.15

	img := vgimg.NewWith(vgimg.UseWH(ratingChartWidth, ratingChartHeight), vgimg.UseDPI(FigureDPI))
	p.Draw(draw.New(img))
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(f); err != nil {
		f.Close()
		return fmt.Errorf("report: write %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("report: write %s: %w", path, err)
	}
	return nil
}

// addRatingBars adds one bar per value, labelled with its count when
// there are at most ratingMaxLabels bars, and returns the tallest.
func addRatingBars(p *plot.Plot, counts []dataset.RatingCount, total int) (float64, error) {
	shares := make(plotter.Values, len(counts))
	names := make([]string, len(counts))
	labels := plotter.XYLabels{XYs: make(plotter.XYs, len(counts)), Labels: make([]string, len(counts))}
	var top float64
	for i, c := range counts {
		shares[i] = 100 * float64(c.Count) / float64(total)
		top = math.Max(top, shares[i])
		names[i] = strconv.FormatFloat(c.Value, 'f', -1, 64)
		labels.XYs[i] = plotter.XY{X: float64(i), Y: shares[i]}
		labels.Labels[i] = ratingThousands(c.Count)
		if len(counts) > ratingMaxFullLabels {
			labels.Labels[i] = ratingCompact(c.Count)
		}
	}
	bars, err := plotter.NewBarChart(shares, barWidth(len(counts)))
	if err != nil {
		return 0, fmt.Errorf("report: rating chart: %w", err)
	}
	bars.Color = ratingBarColor()
	bars.LineStyle.Width = 0
	p.Add(bars)
	p.NominalX(names...)
	// Half a bar's slot of space left of the first bar and right of the last.
	p.X.Min, p.X.Max = -0.5, float64(len(counts))-0.5
	if len(counts) > ratingMaxLabels {
		return top, nil // too many bars for readable counts: the table has them
	}

	l, err := plotter.NewLabels(labels)
	if err != nil {
		return 0, fmt.Errorf("report: rating chart: %w", err)
	}
	for i := range l.TextStyle {
		l.TextStyle[i].Font.Size = vg.Points(8)
		l.TextStyle[i].XAlign = draw.XCenter
		l.TextStyle[i].Color = color.Gray{Y: 0x30}
	}
	l.Offset = vg.Point{Y: vg.Points(3)}
	p.Add(l)
	return top, nil
}

// barWidth makes the bars fill about two thirds of the plot's width.
func barWidth(n int) vg.Length {
	w := (ratingChartWidth - vg.Inch) / vg.Length(n) * 2 / 3
	return min(w, vg.Points(40))
}

// ratingHistogram returns a histogram of ratingHistBins equal bins from
// the smallest value to the largest, each weighed by its values' counts
// (share false) or their share of all values in percent (share true).
func ratingHistogram(counts []dataset.RatingCount, total int, share bool) (*plotter.Histogram, error) {
	xys := make(plotter.XYs, len(counts))
	for i, c := range counts {
		y := float64(c.Count)
		if share {
			y = 100 * y / float64(total)
		}
		xys[i] = plotter.XY{X: c.Value, Y: y}
	}
	h, err := plotter.NewHistogram(xys, ratingHistBins)
	if err != nil {
		return nil, fmt.Errorf("report: rating histogram: %w", err)
	}
	return h, nil
}

// addRatingHistogram adds a histogram of the values weighted by their
// share and returns the tallest bin.
func addRatingHistogram(p *plot.Plot, counts []dataset.RatingCount, total int) (float64, error) {
	h, err := ratingHistogram(counts, total, true)
	if err != nil {
		return 0, err
	}
	h.FillColor = ratingBarColor()
	h.LineStyle.Width = vg.Points(0.5)
	h.LineStyle.Color = color.White
	p.Add(h)
	p.X.Label.Text = "value"
	var top float64
	for _, b := range h.Bins {
		top = math.Max(top, b.Weight)
	}
	return top, nil
}

// WriteRatingTable writes the rating distribution of the dataset called
// name as Markdown: a caption with the number of ratings, then a table of
// each value's count and share in percent; with more than 24 distinct
// values, the counts of the 20 bins that WriteRatingChart draws instead.
// counts must be in increasing order of value, as dataset.Distribution
// returns them.
func WriteRatingTable(w io.Writer, name string, counts []dataset.RatingCount) error {
	return writeValueTable(w, "Rating distribution of "+name, ratingNouns(), counts)
}

// writeValueTable writes a distribution as WriteRatingTable does, under
// the caption title and naming what it counts by nouns.
func writeValueTable(w io.Writer, title string, nouns valueNouns, counts []dataset.RatingCount) error {
	total, err := checkRatingCounts(counts)
	if err != nil {
		return err
	}
	if _, err := fmt.Fprintf(w, "%s (%s %s)\n\n", title, ratingThousands(total), nouns.many); err != nil {
		return fmt.Errorf("report: rating table: %w", err)
	}
	header := []string{upperFirst(nouns.one), "Count", "Share (%)"}
	var rows [][]string
	share := func(n float64) string { return strconv.FormatFloat(100*n/float64(total), 'f', 1, 64) }
	if len(counts) <= ratingMaxBars {
		for _, c := range counts {
			rows = append(rows, []string{strconv.FormatFloat(c.Value, 'f', -1, 64), ratingThousands(c.Count), share(float64(c.Count))})
		}
	} else {
		h, err := ratingHistogram(counts, total, false)
		if err != nil {
			return err
		}
		header = []string{"From", "To", "Count", "Share (%)"}
		for _, b := range h.Bins {
			n := int(math.Round(b.Weight))
			rows = append(rows, []string{fmtSig(b.Min, 4), fmtSig(b.Max, 4), ratingThousands(n), share(b.Weight)})
		}
	}
	align := make(tw.Alignment, len(header))
	for i := range align {
		align[i] = tw.AlignRight
	}
	tbl := tablewriter.NewTable(w,
		tablewriter.WithRenderer(renderer.NewMarkdown()),
		tablewriter.WithHeaderAutoFormat(tw.Off),
		tablewriter.WithHeaderAutoWrap(tw.WrapNone),
		tablewriter.WithRowAutoWrap(tw.WrapNone),
		tablewriter.WithAlignment(align),
	)
	tbl.Header(header)
	for _, row := range rows {
		if err := tbl.Append(row); err != nil {
			return fmt.Errorf("report: rating table: %w", err)
		}
	}
	if err := tbl.Render(); err != nil {
		return fmt.Errorf("report: rating table: %w", err)
	}
	return nil
}

// momentsOf returns the number, mean and population variance of the
// values a distribution counts, or nil for no values.
func momentsOf(counts []dataset.RatingCount) *DataStats {
	var n int
	var sum float64
	for _, c := range counts {
		n += c.Count
		sum += float64(c.Count) * c.Value
	}
	if n == 0 {
		return nil
	}
	mean := sum / float64(n)
	var ss float64
	for _, c := range counts {
		d := c.Value - mean
		ss += float64(c.Count) * d * d
	}
	return &DataStats{N: n, Mean: mean, Variance: ss / float64(n)}
}

// ratingThousands formats a nonnegative count with thousands separators:
// 99723 as "99,723".
func ratingThousands(n int) string {
	s := strconv.Itoa(n)
	out := make([]byte, 0, len(s)+len(s)/3)
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	return string(out)
}

// ratingCompact formats a nonnegative count in at most four characters
// plus a suffix: 6083 as "6,083", 34101 as "34k", 3600000 as "3.6M".
func ratingCompact(n int) string {
	switch {
	case n < 10_000:
		return ratingThousands(n)
	case n < 1_000_000:
		return strconv.Itoa((n+500)/1000) + "k"
	}
	return strconv.FormatFloat(float64(n)/1e6, 'f', 1, 64) + "M"
}
