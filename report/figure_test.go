package report

import (
	"bytes"
	"errors"
	"flag"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/bnmf-lab/bnmf/experiments"
)

var figDir = flag.String("figdir", "", "also write the test figures to this directory, to look at them")

func TestFigures(t *testing.T) {
	tests := []struct {
		name       string
		fx         fixture
		build      func(*StudySummary, Palette) (*Figure, error)
		cols, rows int
		series     []int // per panel
		width      int   // pixels
		height     int
	}{
		// Sizes at 96 dpi: 4 in per panel column; 0.45 in title, 3 in per
		// panel row, 0.35 in per legend row and 0.3 in for the note.
		// Traces fall from ~3000 to ~0.7: a log row and a zoomed row.
		{"convergence", convergenceFixture(), ConvergenceFigure, 3, 2, []int{5, 5, 5, 5, 5, 5}, 1152, 682},
		// GEE explodes: log axis; four ranks in one row.
		{"sparsity", sparsityFixture(), SparsityFigure, 4, 1, []int{5, 5, 5, 5}, 1536, 394},
		// Noisy and clean variants at one rank; the legend takes two rows.
		{"noise", noiseFixture(), NoiseFigure, 2, 1, []int{5, 5}, 768, 427},
		// Nothing has finished at K = 50: its panel says so.
		{"partial", partialSparsity(), SparsityFigure, 4, 1, []int{5, 5, 5, 0}, 1536, 394},
		// A model outside the paper's gets its own series and legend entry.
		// NMF's means (2.3 to 2.7) would squeeze the others' (1.02 to
		// 1.10) into a twentieth of the axis: they are drawn at its top,
		// and the note takes a second line to say so.
		{"unknown model", fixture{kind: experiments.KindSparsity, models: []string{"GRRN", "BPMF", "NMF"},
			ranks: []int{20}, fractions: []float64{0.97, 0.98}, repeats: 2}, SparsityFigure, 1, 1, []int{3}, 384, 448},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sum := Summarise([]*experiments.Study{tt.fx.study(t, "s", tt.name)})
			f, err := tt.build(sum.Studies[0], sum.Palette)
			if err != nil {
				t.Fatal(err)
			}
			if f.Cols != tt.cols || f.Rows() != tt.rows {
				t.Errorf("layout %dx%d, want %dx%d", f.Rows(), f.Cols, tt.rows, tt.cols)
			}
			if len(f.Panels) != len(tt.series) {
				t.Fatalf("%d panels, want %d", len(f.Panels), len(tt.series))
			}
			for i, p := range f.Panels {
				if len(p.Series) != tt.series[i] {
					t.Errorf("panel %d: %d series, want %d", i, len(p.Series), tt.series[i])
				}
			}
			if len(f.Legend) != len(tt.fx.models) {
				t.Errorf("legend has %d entries, want %d", len(f.Legend), len(tt.fx.models))
			}
			checkPNG(t, f, tt.width, tt.height)
		})
	}
}

// partialSparsity is the sparsity fixture with no record at K = 50.
func partialSparsity() fixture {
	fx := sparsityFixture()
	for _, c := range fx.cells() {
		if c.Rank == 50 {
			fx.drop = append(fx.drop, c)
		}
	}
	return fx
}

// checkPNG renders f, decodes it and checks its size in pixels.
func checkPNG(t *testing.T, f *Figure, width, height int) {
	t.Helper()
	var buf bytes.Buffer
	if err := f.WritePNG(&buf); err != nil {
		t.Fatal(err)
	}
	if *figDir != "" {
		if err := os.WriteFile(filepath.Join(*figDir, filepath.Base(t.Name())+".png"), buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	img, err := png.Decode(&buf)
	if err != nil {
		t.Fatalf("not a PNG: %v", err)
	}
	if b := img.Bounds(); b.Dx() != width || b.Dy() != height {
		t.Errorf("image is %dx%d, want %dx%d", b.Dx(), b.Dy(), width, height)
	}
}

func TestFiguresWithoutData(t *testing.T) {
	tests := []struct {
		name  string
		fx    fixture
		build func(*StudySummary, Palette) (*Figure, error)
	}{
		{"convergence", convergenceFixture(), ConvergenceFigure},
		{"sparsity", sparsityFixture(), SparsityFigure},
		{"noise", noiseFixture(), NoiseFigure},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := tt.fx.study(t, "s", tt.name)
			st.Records = nil
			sum := Summarise([]*experiments.Study{st})
			if _, err := tt.build(sum.Studies[0], sum.Palette); !errors.Is(err, ErrNoData) {
				t.Errorf("err = %v, want ErrNoData", err)
			}
		})
	}
}
