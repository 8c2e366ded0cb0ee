package report

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bnmf-lab/bnmf/experiments"
)

// TestDiagnosticsReport runs a short three-chain study whose 60 sweeps are
// too few for the chains to settle (their train MSE still falls after the
// burn-in of 30), and checks that the diagnostics table flags every
// Bayesian setting, lists the flagged cells, leaves NMF out, and that the
// trace figure draws each flagged setting's three chains.
func TestDiagnosticsReport(t *testing.T) {
	src := `kind: sparsity
dataset:
  name: synthetic
  synthetic: {rows: 40, cols: 50, rank: 3, density: 0.3, seed: 4}
models: [{name: GRRN}, {name: NMF}]
ranks: [3]
fractions: [0.8]
repeats: 2
sweeps: 60
burn_in: 30
chains: 3
seed: 2
`
	s := runStudy(t, src).Studies[0]
	var b bytes.Buffer
	if err := WriteDiagnosticsTable(&b, s); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"| GRRN  |", "| fraction 0.8 |", "|      3 |       2 |", "Flagged cells (2)", "R-hat above 1.01 across 3 chains of 30 kept sweeps"} {
		if !strings.Contains(out, want) {
			t.Errorf("the diagnostics table lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "NMF") {
		t.Errorf("NMF has diagnostics:\n%s", out)
	}
	f, err := DiagnosticsTraceFigure(s)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Panels) != 1 || len(f.Panels[0].Series) != 3 || len(f.Legend) != 3 {
		t.Errorf("trace figure: %d panels, %d series, %d legend entries; want 1, 3 and 3", len(f.Panels), len(f.Panels[0].Series), len(f.Legend))
	}
	if want := "Train MSE of every chain of the first flagged repeat, in the flagged setting — " + s.Name(); f.Title != want {
		t.Errorf("trace figure title %q, want %q", f.Title, want)
	}
}

// TestTraceTitle checks that the trace figure's title says how many of
// the flagged settings it draws.
func TestTraceTitle(t *testing.T) {
	for _, tc := range []struct {
		drawn, flagged int
		want           string
	}{
		{1, 1, "Train MSE of every chain of the first flagged repeat, in the flagged setting — s"},
		{3, 3, "Train MSE of every chain of the first flagged repeat, in each of the 3 flagged settings — s"},
		{8, 16, "Train MSE of every chain of the first flagged repeat, in 8 of the 16 flagged settings (those with a stuck chain first, then the largest R-hat) — s"},
	} {
		if got := traceTitle("s", tc.drawn, tc.flagged); got != tc.want {
			t.Errorf("%d of %d: %q, want %q", tc.drawn, tc.flagged, got, tc.want)
		}
	}
}

// runStudy runs the study that the config src describes into a
// temporary directory and summarises its records.
func runStudy(t *testing.T, src string) *Summary {
	t.Helper()
	cfg, err := experiments.ParseConfig("study.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	p, err := experiments.Prepare(cfg, experiments.PrepareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "study")
	if _, err := p.Run(context.Background(), experiments.RunOptions{Workers: 2, Output: dir}); err != nil {
		t.Fatal(err)
	}
	st, err := experiments.LoadStudy(dir)
	if err != nil {
		t.Fatal(err)
	}
	return Summarise([]*experiments.Study{st})
}
