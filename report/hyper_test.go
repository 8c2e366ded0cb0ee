package report

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// TestHyperTable runs a small study with GEEA and GRRN and checks that the
// table of shared hyperparameters lists GEEA's K rates per cell, in
// ascending order, and nothing for GRRN.
func TestHyperTable(t *testing.T) {
	src := `kind: sparsity
dataset:
  name: synthetic
  synthetic: {rows: 40, cols: 50, rank: 3, density: 0.3, seed: 4}
models: [{name: GEEA}, {name: GRRN}]
ranks: [4]
fractions: [0.8]
repeats: 2
sweeps: 40
burn_in: 20
seed: 2
`
	s := runStudy(t, src).Studies[0]
	if !s.hasHyper() {
		t.Fatal("the study has no shared hyperparameters")
	}
	var b bytes.Buffer
	if err := WriteHyperTable(&b, s); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	rows := 0
	for line := range strings.SplitSeq(out, "\n") {
		if !strings.HasPrefix(line, "| GEEA") {
			continue
		}
		rows++
		cells := strings.Split(line, "|")
		means := strings.Split(strings.TrimSpace(cells[len(cells)-2]), ", ")
		if len(means) != 4 || !strings.Contains(line, "lambda") || !strings.Contains(line, "fraction 0.8") {
			t.Errorf("row %q: want 4 rates of lambda at fraction 0.8", line)
		}
		for k := 1; k < len(means); k++ {
			var a, c float64
			if _, err := fmt.Sscan(means[k-1], &a); err != nil {
				t.Fatal(err)
			}
			if _, err := fmt.Sscan(means[k], &c); err != nil {
				t.Fatal(err)
			}
			if !(a <= c && a > 0) {
				t.Errorf("row %q: rates not positive and ascending", line)
			}
		}
	}
	if rows != 2 || strings.Contains(out, "GRRN") {
		t.Errorf("want one row per GEEA repeat (2) and none for GRRN:\n%s", out)
	}
}
