package report

import (
	"image/color"
	"slices"
	"strings"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/bnmf-lab/bnmf/bnmf"
)

// SeriesStyle is how one model is drawn.
type SeriesStyle struct {
	Color  color.RGBA
	Dashes []vg.Length // nil for a solid line
	Glyph  draw.GlyphDrawer
}

// Line returns the style's line at the given width.
func (s SeriesStyle) Line(width vg.Length) draw.LineStyle {
	return draw.LineStyle{Color: s.Color, Width: width, Dashes: slices.Clone(s.Dashes)}
}

// Palette assigns every model a SeriesStyle. The paper's models have fixed
// styles (NMF grey, as in the paper); the other registered models
// (bnmf.Names) get further distinct colours in the registry's order, and
// models the registry does not know get the colours after those, in the
// order of their names. The zero Palette knows only the registered models.
type Palette struct {
	others []string // models the registry does not know, sorted
}

// NewPalette returns the palette for a set of model names (duplicates and
// order do not matter).
func NewPalette(models []string) Palette {
	var others []string
	for _, m := range models {
		if modelIndex(m) < 0 && biasedIndex(m) < 0 {
			others = append(others, m)
		}
	}
	slices.Sort(others)
	return Palette{others: slices.Compact(others)}
}

// Style returns the style of a model. A model the palette was not built
// with is drawn in black. A registered model with offsets ("GRRN+b",
// bnmf.BiasSuffix) is drawn in its model's colour and glyph with a
// dash-dot line.
func (p Palette) Style(model string) SeriesStyle {
	if base, ok := strings.CutSuffix(model, bnmf.BiasSuffix); ok && modelIndex(base) >= 0 {
		s := p.Style(base)
		s.Dashes = []vg.Length{vg.Points(8), vg.Points(2), vg.Points(1), vg.Points(2)}
		return s
	}
	type fixed struct {
		c      color.RGBA
		dashes []vg.Length
		glyph  draw.GlyphDrawer
	}
	known := [...]fixed{
		{color.RGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0xff}, []vg.Length{vg.Points(6), vg.Points(3)}, draw.RingGlyph{}},                                 // GEE: blue
		{color.RGBA{R: 0xff, G: 0x7f, B: 0x0e, A: 0xff}, []vg.Length{vg.Points(2), vg.Points(2)}, draw.SquareGlyph{}},                               // GTT: orange
		{color.RGBA{R: 0x2c, G: 0xa0, B: 0x2c, A: 0xff}, []vg.Length{vg.Points(6), vg.Points(2), vg.Points(2), vg.Points(2)}, draw.TriangleGlyph{}}, // GTTN: green
		{color.RGBA{R: 0xd6, G: 0x27, B: 0x28, A: 0xff}, nil, draw.CircleGlyph{}},                                                                   // GRRN: red
		{color.RGBA{R: 0x7f, G: 0x7f, B: 0x7f, A: 0xff}, nil, draw.CrossGlyph{}},                                                                    // NMF: grey
	}
	i := modelIndex(model)
	if i >= 0 && i < len(known) {
		k := known[i]
		return SeriesStyle{Color: k.c, Dashes: k.dashes, Glyph: k.glyph}
	}
	extra := [...]color.RGBA{
		{R: 0x94, G: 0x67, B: 0xbd, A: 0xff}, // purple
		{R: 0x8c, G: 0x56, B: 0x4b, A: 0xff}, // brown
		{R: 0xe3, G: 0x77, B: 0xc2, A: 0xff}, // pink
		{R: 0x17, G: 0xbe, B: 0xcf, A: 0xff}, // cyan
		{R: 0xbc, G: 0xbd, B: 0x22, A: 0xff}, // olive
	}
	glyphs := [...]draw.GlyphDrawer{draw.PlusGlyph{}, draw.BoxGlyph{}, draw.PyramidGlyph{}}
	if i < 0 {
		j, ok := slices.BinarySearch(p.others, model)
		if !ok {
			return SeriesStyle{Color: color.RGBA{A: 0xff}, Glyph: draw.CircleGlyph{}}
		}
		i = len(bnmf.Names()) + j
	}
	i -= len(known) // the position among the models without a fixed style
	s := SeriesStyle{Color: extra[i%len(extra)], Glyph: glyphs[i%len(glyphs)]}
	if i >= len(extra) { // colours repeat: tell the series apart by dashes
		s.Dashes = []vg.Length{vg.Points(1 + float64(i/len(extra))), vg.Points(3)}
	}
	return s
}

// modelIndex returns the position of model in the model registry
// (bnmf.Names, ignoring case), or -1.
func modelIndex(model string) int {
	for i, m := range bnmf.Names() {
		if strings.EqualFold(m, model) {
			return i
		}
	}
	return -1
}

// biasedIndex returns the position in the registry of the model whose
// name with offsets model is ("GRRN+b": GRRN's), or -1.
func biasedIndex(model string) int {
	if base, ok := strings.CutSuffix(model, bnmf.BiasSuffix); ok {
		return modelIndex(base)
	}
	return -1
}

// compareModels orders the registered models first, in the registry's
// order (the paper's models as the paper presents them, then the
// baselines), each followed by itself with offsets ("GRRN+b"), then the
// others by name.
func compareModels(a, b string) int {
	ia, ib := modelIndex(a), modelIndex(b)
	// With offsets: just after the model, 2i+1 against its 2i.
	ia, ib = 2*ia, 2*ib
	if ia < 0 {
		ia = 2*biasedIndex(a) + 1
	}
	if ib < 0 {
		ib = 2*biasedIndex(b) + 1
	}
	switch {
	case ia >= 0 && ib >= 0:
		return ia - ib
	case ia >= 0:
		return -1
	case ib >= 0:
		return 1
	}
	return strings.Compare(a, b)
}

// sortModels returns the distinct models in report order.
func sortModels(models []string) []string {
	out := slices.Clone(models)
	slices.SortFunc(out, func(a, b string) int {
		if c := compareModels(a, b); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	return slices.Compact(out)
}
