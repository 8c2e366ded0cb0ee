package report

import (
	"bytes"
	"fmt"
	"slices"

	"github.com/bnmf-lab/bnmf/experiments"
)

// namedTable is a table document and the file it is written to.
type namedTable struct {
	file string
	doc  tableDoc
}

// studyTables renders the tables of one study kind, with headings and
// captions. A study with no finished cell gets no tables; its warnings say
// what is missing.
func studyTables(s *StudySummary, paper PaperValues) ([]namedTable, error) {
	if s.Found-s.Failed == 0 {
		return nil, nil
	}
	var out []namedTable
	add := func(file, heading, caption string, render func(*bytes.Buffer) error) error {
		var b bytes.Buffer
		if err := render(&b); err != nil {
			return fmt.Errorf("report: %s: %w", file, err)
		}
		out = append(out, namedTable{file, tableDoc{heading, caption, b.Bytes()}})
		return nil
	}
	const stats = "Mean ± standard error over repeats"
	var err error
	switch s.Kind() {
	case experiments.KindConvergence:
		err = add("convergence.md", "Final train MSE",
			stats+"; the lowest per row in bold.",
			func(b *bytes.Buffer) error { return WriteConvergenceTable(b, s) })
	case experiments.KindSparsity:
		for _, f := range Table2Fractions() {
			if !slices.ContainsFunc(s.Fractions, func(x float64) bool { return sameFloat(x, f) }) || err != nil {
				continue
			}
			err = add(fmt.Sprintf("table2-%s.md", fmtG(f)),
				fmt.Sprintf("Table 2: held-out MSE at fraction unobserved %s", fmtG(f)),
				stats+"; the lowest per row in bold. The \"(paper)\" columns are the paper's Table 2; \"—\" where it gives no value (it has no NMF column and covers MovieLens 100K only).",
				func(b *bytes.Buffer) error { return WriteHeldOutTable(b, s, f, paper) })
		}
		if err == nil {
			err = add("sparsity.md", "Held-out MSE at every fraction unobserved (Fig. 5)",
				stats+"; the lowest per row in bold.",
				func(b *bytes.Buffer) error { return WriteSparsityTable(b, s) })
		}
	case experiments.KindNoise:
		err = add("noise.md", "var(data)/MSE against the noisy test values (Fig. 4)",
			stats+"; higher is better, the highest per row in bold.",
			func(b *bytes.Buffer) error { return WriteNoiseTable(b, s, false) })
		if err == nil && s.hasCleanVariant() {
			err = add("noise-clean.md", "var(data)/MSE against the clean test values (Fig. 4)",
				stats+"; higher is better, the highest per row in bold.",
				func(b *bytes.Buffer) error { return WriteNoiseTable(b, s, true) })
		}
	}
	if err == nil {
		err = add("timing.md", "Seconds per sweep",
			stats+", pooled over each model and rank's cells; wall-clock time on the machine that ran them.",
			func(b *bytes.Buffer) error { return WriteTimingTable(b, s) })
	}
	return out, err
}
