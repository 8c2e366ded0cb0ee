package report

import (
	"bytes"
	"errors"
	"image/png"
	"math"
	"testing"
)

func TestTraceFigure(t *testing.T) {
	traces := []Trace{
		{Name: "train MSE", Chains: [][]float64{{9, 3, 1, 0.9, 0.8}, {8, 2, 1, 0.85, math.NaN()}}},
		{Name: "sigma^2", Chains: [][]float64{{1, 0.9, 0.8, 0.8, 0.8}, {1, 0.95, 0.8, 0.81, 0.79}}},
		{Name: "log-likelihood", Chains: [][]float64{{-50, -30, -20, -20, -19}, {-52, -31, -21, -20, -20}}},
	}
	f, err := TraceFigure("Traces", traces, 2)
	if err != nil {
		t.Fatal(err)
	}
	// A row over all sweeps and a row over the kept sweeps.
	if len(f.Panels) != 6 || f.Cols != 3 || f.Rows() != 2 || len(f.Legend) != 2 {
		t.Fatalf("%d panels in %d columns, %d legend entries; want 6, 3, 2", len(f.Panels), f.Cols, len(f.Legend))
	}
	if got := f.Panels[3].Plot.Title.Text; got != "train MSE, kept sweeps" {
		t.Errorf("the first kept-sweeps panel is titled %q", got)
	}
	for i, p := range f.Panels {
		if len(p.Series) != 2 {
			t.Errorf("panel %d has %d chains, want 2", i, len(p.Series))
		}
	}
	var b bytes.Buffer
	if err := f.WritePNG(&b); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&b)
	if err != nil {
		t.Fatal(err)
	}
	if w, h := img.Bounds().Dx(), img.Bounds().Dy(); w != 3*4*FigureDPI || h < 2*3*FigureDPI {
		t.Errorf("PNG of %d x %d pixels, want 2 rows of 3 panels of 4 x 3 inches at %d DPI", w, h, FigureDPI)
	}
	if f, err := TraceFigure("no burn-in", traces, 0); err != nil || len(f.Panels) != 3 {
		t.Errorf("without burn-in: %v panels, %v; want one row of 3", len(f.Panels), err)
	}
	if _, err := TraceFigure("none", []Trace{{Name: "x", Chains: [][]float64{{math.NaN()}}}}, 0); !errors.Is(err, ErrNoData) {
		t.Errorf("a figure without values: %v, want ErrNoData", err)
	}
}
