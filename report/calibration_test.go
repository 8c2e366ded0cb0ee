package report

import (
	"bytes"
	"strings"
	"testing"
)

// TestCalibrationReport runs a small two-repeat study and checks that the
// calibration table scores GRRN at each level and leaves NMF out, and
// that the figure has a panel per rank and fraction with GRRN drawn.
func TestCalibrationReport(t *testing.T) {
	src := `kind: sparsity
dataset:
  name: synthetic
  synthetic: {rows: 40, cols: 50, rank: 3, density: 0.3, seed: 4}
models: [{name: GRRN}, {name: NMF}]
ranks: [2, 3]
fractions: [0.8]
repeats: 2
sweeps: 80
burn_in: 40
seed: 2
`
	sum := runStudy(t, src)
	s := sum.Studies[0]
	var b bytes.Buffer
	if err := WriteCalibrationTable(&b, s, false); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"Coverage 50%", "Coverage 95%", "Width 90%", "| GRRN  | 2 | fraction 0.8 |", "| GRRN  | 3 | fraction 0.8 |"} {
		if !strings.Contains(out, want) {
			t.Errorf("the calibration table lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "NMF") {
		t.Errorf("NMF is scored:\n%s", out)
	}
	g := s.Group(Key{Model: "GRRN", Rank: 3, Fraction: 0.8})
	if g == nil || g.Predictive == nil || g.Predictive.Coverage[2].N != 2 {
		t.Fatalf("GRRN's group has predictive stats %+v, want two repeats", g)
	}
	f, err := CalibrationFigure(s, sum.Palette)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Panels) != 2 || len(f.Panels[0].Series) != 1 || f.Panels[0].Series[0].Model != "GRRN" {
		t.Errorf("calibration figure: %d panels, first with %d series", len(f.Panels), len(f.Panels[0].Series))
	}
}
