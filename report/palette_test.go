package report

import (
	"image/color"
	"testing"
)

func TestPalette(t *testing.T) {
	p := NewPalette([]string{"NMF", "GRRN", "MyModel", "GEE", "GTT", "GTTN", "Another", "MyModel"})
	grey := color.RGBA{R: 0x7f, G: 0x7f, B: 0x7f, A: 0xff}
	if got := p.Style("NMF").Color; got != grey {
		t.Errorf("NMF is %v, want grey %v", got, grey)
	}
	seen := make(map[color.RGBA]string)
	for _, m := range []string{"GEE", "GTT", "GTTN", "GRRN", "NMF", "Another", "MyModel"} {
		c := p.Style(m).Color
		if other, ok := seen[c]; ok {
			t.Errorf("%s and %s share colour %v", m, other, c)
		}
		seen[c] = m
	}
	// The paper's models look the same whatever else is in the palette, and
	// a model's style does not depend on the order of the names.
	q := NewPalette([]string{"MyModel", "Another"})
	for _, m := range []string{"GRRN", "MyModel", "Another"} {
		if p.Style(m).Color != q.Style(m).Color {
			t.Errorf("%s changes colour with the palette's other models", m)
		}
	}
	if got := p.Style("grrn").Color; got != p.Style("GRRN").Color {
		t.Errorf("model names are case-sensitive for colour: %v", got)
	}
}

func TestSortModels(t *testing.T) {
	got := sortModels([]string{"Zeta", "NMF", "GRRN", "Alpha", "GEE", "GRRN", "GTTN", "GTT"})
	want := []string{"GEE", "GTT", "GTTN", "GRRN", "NMF", "Alpha", "Zeta"}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("got %v, want %v", got, want)
		}
	}
}
