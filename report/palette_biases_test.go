package report

import (
	"image/color"
	"slices"
	"testing"
)

// TestBiasedModelsInReports checks that a model with offsets follows its
// model in the report's order and shares its colour and glyph, with a
// line of its own.
func TestBiasedModelsInReports(t *testing.T) {
	got := sortModels([]string{"Bias", "GRRN+b", "Zeta", "GEE", "GRRN", "GEE+b", "Unknown+b"})
	want := []string{"GEE", "GEE+b", "GRRN", "GRRN+b", "Bias", "Unknown+b", "Zeta"}
	if !slices.Equal(got, want) {
		t.Errorf("order %v, want %v", got, want)
	}
	p := NewPalette(got)
	plain, biased := p.Style("GRRN"), p.Style("GRRN+b")
	if plain.Color != biased.Color || plain.Glyph != biased.Glyph || slices.Equal(plain.Dashes, biased.Dashes) {
		t.Errorf("GRRN %+v and GRRN+b %+v: want the same colour and glyph, other dashes", plain, biased)
	}
	if u := p.Style("Unknown+b"); u.Color == (color.RGBA{A: 0xff}) {
		t.Errorf("an unregistered name ending in +b has no style of its own: %+v", u)
	}
}
