package report

import (
	"bytes"
	"flag"
	"github.com/bnmf-lab/bnmf/internal/golden"
	"path/filepath"
	"testing"

	"github.com/bnmf-lab/bnmf/experiments"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// checkGolden compares got with testdata/name; see golden.Check.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	golden.Check(t, filepath.Join("testdata", name), got, *update)
}

func TestTablesGolden(t *testing.T) {
	conv := convergenceFixture().study(t, "conv", "convergence")
	sparse := troubledSparsity(t, "sparse")
	noise := noiseFixture().study(t, "noise", "noise")
	synth := convergenceFixture().study(t, "synth", "quick")
	synth.Manifest.Dataset, synth.Manifest.Rows, synth.Manifest.Cols, synth.Manifest.Observed = "synthetic", 200, 150, 2400
	// The paper's study with the ColumnMean baseline beside its models.
	withBaseline := func(fx fixture) fixture {
		fx.models = append(fx.models, "ColumnMean")
		return fx
	}
	sparseBase := withBaseline(sparsityFixture()).study(t, "sparse-base", "table2-baseline")
	noiseBase := withBaseline(noiseFixture()).study(t, "noise-base", "noise-baseline")
	sum := Summarise([]*experiments.Study{conv, sparse, noise, synth, sparseBase, noiseBase})
	byName := func(name string) *StudySummary {
		t.Helper()
		for _, s := range sum.Studies {
			if s.Name() == name {
				return s
			}
		}
		t.Fatalf("no study %q", name)
		return nil
	}
	// The data's variance, as Write sets it from the loaded data.
	byName("table2-baseline").Data = &DataStats{N: 99723, Mean: 3.53, Variance: 1.262}
	paper := Paper()
	tests := []struct {
		golden string
		write  func(*bytes.Buffer) error
	}{
		{"table1.md", func(b *bytes.Buffer) error { return WriteDataTable(b, sum, paper) }},
		{"table2-0.97.md", func(b *bytes.Buffer) error { return WriteHeldOutTable(b, byName("table2"), 0.97, paper) }},
		{"table2-0.98.md", func(b *bytes.Buffer) error { return WriteHeldOutTable(b, byName("table2"), 0.98, paper) }},
		{"sparsity.md", func(b *bytes.Buffer) error { return WriteSparsityTable(b, byName("table2")) }},
		{"convergence.md", func(b *bytes.Buffer) error { return WriteConvergenceTable(b, byName("convergence")) }},
		{"timing.md", func(b *bytes.Buffer) error { return WriteTimingTable(b, byName("table2")) }},
		{"noise.md", func(b *bytes.Buffer) error { return WriteNoiseTable(b, byName("noise"), false) }},
		{"noise-clean.md", func(b *bytes.Buffer) error { return WriteNoiseTable(b, byName("noise"), true) }},
		{"table2-baseline-0.98.md", func(b *bytes.Buffer) error { return WriteHeldOutTable(b, byName("table2-baseline"), 0.98, paper) }},
		{"sparsity-baseline.md", func(b *bytes.Buffer) error { return WriteSparsityTable(b, byName("table2-baseline")) }},
		{"noise-baseline.md", func(b *bytes.Buffer) error { return WriteNoiseTable(b, byName("noise-baseline"), false) }},
		{"noise-clean-baseline.md", func(b *bytes.Buffer) error { return WriteNoiseTable(b, byName("noise-baseline"), true) }},
		{"skill-baseline.md", func(b *bytes.Buffer) error {
			s := byName("table2-baseline")
			var rows []skillRow
			for _, f := range s.Grid {
				rows = append(rows, skillRow{[]string{"K = 20", fmtG(f)}, func(m string) Key { return Key{Model: m, Rank: 20, Fraction: f} }})
			}
			return WriteSkillTable(b, s, []string{"K", "Fraction unobserved"}, rows, testMSE())
		}},
		{"warnings.md", func(b *bytes.Buffer) error { return WriteWarnings(b, byName("table2")) }},
		{"warnings-none.md", func(b *bytes.Buffer) error { return WriteWarnings(b, byName("convergence")) }},
	}
	for _, tt := range tests {
		t.Run(tt.golden, func(t *testing.T) {
			var b bytes.Buffer
			if err := tt.write(&b); err != nil {
				t.Fatal(err)
			}
			checkGolden(t, tt.golden, b.Bytes())
		})
	}
}
