package report

import (
	"bytes"
	"errors"
	"fmt"
	"image/color"
	"io"
	"strings"

	"github.com/bnmf-lab/bnmf/internal/atomicfile"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// ErrNoData is returned by the figure constructors when a study has no
// finished cell to draw. The report then says what is missing instead.
var ErrNoData = errors.New("report: no finished cells to draw")

// FigureDPI is the resolution of the PNG figures, in dots per inch.
const FigureDPI = 96

// Sizes of a figure's parts.
const (
	panelWidth   = 4 * vg.Inch
	panelHeight  = 3 * vg.Inch
	titleHeight  = 0.45 * vg.Inch
	legendHeight = 0.35 * vg.Inch // per row of legend entries
	noteHeight   = 0.22 * vg.Inch // per line of the note, plus noteMargin
	noteMargin   = 0.08 * vg.Inch
	lineWidth    = 1.5 // points
)

// Figure is a grid of panels with a title above and a legend shared by all
// panels below. Its construction is exposed so that callers and tests can
// inspect the panels and series before rendering.
type Figure struct {
	Title string
	// Cols is the number of panels per row; Panels are in row-major order.
	Cols   int
	Panels []Panel
	// Legend has one entry per model drawn, in report order.
	Legend []LegendEntry
	// Note is a line under the legend saying how to read the figure (what
	// the bands or bars mean, what was clipped).
	Note string
}

// Panel is one plot of a figure and the series drawn in it.
type Panel struct {
	Plot   *plot.Plot
	Series []Series
}

// Series is one model's drawing in a panel: its plotters, already added to
// the panel's plot.
type Series struct {
	Model    string
	Plotters []plot.Plotter
}

// LegendEntry is a label and the thumbnails that show its style.
type LegendEntry struct {
	Label  string
	Thumbs []plot.Thumbnailer
}

// Rows returns the number of rows of panels.
func (f *Figure) Rows() int {
	if f.Cols <= 0 {
		return 0
	}
	return (len(f.Panels) + f.Cols - 1) / f.Cols
}

// legendRows returns how many rows the legend takes: up to six entries a
// row, fewer when the figure is narrow.
func (f *Figure) legendRows() int {
	per := max(2, min(6, 2*f.Cols))
	return max(1, (len(f.Legend)+per-1)/per)
}

// Size returns the figure's width and height.
func (f *Figure) Size() (w, h vg.Length) {
	w = vg.Length(max(1, f.Cols)) * panelWidth
	h = titleHeight + vg.Length(f.Rows())*panelHeight + vg.Length(f.legendRows())*legendHeight
	if lines := f.noteLines(w); len(lines) > 0 {
		h += vg.Length(len(lines))*noteHeight + noteMargin
	}
	return w, h
}

// noteLines breaks the note into lines that fit the figure's width.
func (f *Figure) noteLines(width vg.Length) []string {
	sty := figureText(10)
	var lines []string
	line := ""
	for _, word := range strings.Fields(f.Note) {
		if line != "" && sty.Width(line+" "+word) > width-0.4*vg.Inch {
			lines = append(lines, line)
			line = word
			continue
		}
		line = strings.TrimSpace(line + " " + word)
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}

// WritePNG renders the figure as a PNG at FigureDPI.
func (f *Figure) WritePNG(w io.Writer) error {
	if len(f.Panels) == 0 || f.Cols <= 0 {
		return fmt.Errorf("report: figure %q has no panels", f.Title)
	}
	width, height := f.Size()
	img := vgimg.NewWith(vgimg.UseWH(width, height), vgimg.UseDPI(FigureDPI))
	dc := draw.New(img)

	title := figureText(14)
	for title.Font.Size > 9 && title.Width(f.Title) > width-0.4*vg.Inch {
		title.Font.Size -= 0.5 // shrink a long title to fit
	}
	title.XAlign, title.YAlign = draw.XCenter, draw.YCenter
	dc.FillText(title, vg.Point{X: width / 2, Y: height - titleHeight/2}, f.Title)

	bottom := vg.Length(f.legendRows()) * legendHeight
	if lines := f.noteLines(width); len(lines) > 0 {
		bottom += vg.Length(len(lines))*noteHeight + noteMargin
		note := figureText(10)
		note.Color = color.Gray{Y: 0x40}
		note.XAlign, note.YAlign = draw.XCenter, draw.YCenter
		for i, l := range lines {
			y := noteMargin + (vg.Length(len(lines)-1-i)+0.5)*noteHeight
			dc.FillText(note, vg.Point{X: width / 2, Y: y}, l)
		}
	}
	f.drawLegend(draw.Crop(dc, 0, 0, bottom-vg.Length(f.legendRows())*legendHeight, -(height - bottom)))

	rows := f.Rows()
	plots := make([][]*plot.Plot, rows)
	for j := range plots {
		plots[j] = make([]*plot.Plot, f.Cols)
		for i := range plots[j] {
			if k := j*f.Cols + i; k < len(f.Panels) {
				plots[j][i] = f.Panels[k].Plot
			}
		}
	}
	grid := draw.Crop(dc, 0, 0, bottom, -titleHeight)
	tiles := draw.Tiles{Rows: rows, Cols: f.Cols,
		PadX: 0.2 * vg.Inch, PadY: 0.25 * vg.Inch, PadLeft: 0.1 * vg.Inch, PadRight: 0.2 * vg.Inch, PadBottom: 0.05 * vg.Inch}
	canvases := plot.Align(plots, tiles, grid)
	for j := range plots {
		for i, p := range plots[j] {
			if p != nil {
				p.Draw(snugTitle(p, canvases[j][i]))
			}
		}
	}
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(w); err != nil {
		return fmt.Errorf("report: figure %q: %w", f.Title, err)
	}
	return nil
}

// snugTitle lowers the top of a panel's canvas to just above its data
// area. plot.Align evens out the data areas but leaves the spare height
// above them, which would float the title away from its plot.
func snugTitle(p *plot.Plot, c draw.Canvas) draw.Canvas {
	if p.Title.Text == "" {
		return c
	}
	top := p.DataCanvas(c).Max.Y + p.Title.TextStyle.Rectangle(p.Title.Text).Size().Y + p.Title.Padding
	if c.Max.Y > top {
		c.Max.Y = top
	}
	return c
}

// Save renders the figure as a PNG file at path.
func (f *Figure) Save(path string) error {
	var buf bytes.Buffer
	if err := f.WritePNG(&buf); err != nil {
		return err
	}
	return writeFile(path, buf.Bytes())
}

// drawLegend lays the entries out in rows, each row centred in c.
func (f *Figure) drawLegend(c draw.Canvas) {
	sty := figureText(11)
	sty.YAlign = draw.YCenter
	thumbW, gap := 0.35*vg.Inch, 0.3*vg.Inch
	thumbH := vg.Points(10)
	rows := f.legendRows()
	per := (len(f.Legend) + rows - 1) / rows
	for r := range rows {
		entries := f.Legend[r*per : min(len(f.Legend), (r+1)*per)]
		var total vg.Length
		for i, e := range entries {
			total += thumbW + 0.08*vg.Inch + sty.Width(e.Label)
			if i > 0 {
				total += gap
			}
		}
		x := (c.Min.X+c.Max.X)/2 - total/2
		y := c.Max.Y - (vg.Length(r)+0.5)*legendHeight
		for _, e := range entries {
			icon := draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{
				Min: vg.Point{X: x, Y: y - thumbH/2}, Max: vg.Point{X: x + thumbW, Y: y + thumbH/2}}}
			for _, t := range e.Thumbs {
				t.Thumbnail(&icon)
			}
			x += thumbW + 0.08*vg.Inch
			c.FillText(sty, vg.Point{X: x, Y: y}, e.Label)
			x += sty.Width(e.Label) + gap
		}
	}
}

// figureText returns a black text style of the given size in the plot
// package's default font.
func figureText(size vg.Length) text.Style {
	return text.Style{
		Color:   color.Black,
		Font:    font.From(plot.DefaultFont, size),
		Handler: plot.DefaultTextHandler,
	}
}

// writeFile writes data to path atomically (see package atomicfile), so
// a reader never sees half a file, nor a crash leaves one.
func writeFile(path string, data []byte) error {
	if err := atomicfile.WriteFile(path, data); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	return nil
}
