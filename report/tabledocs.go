package report

import (
	"bytes"
	"fmt"
	"github.com/bnmf-lab/bnmf/bnmf"
)

// diagnosticsHeading heads the table of convergence diagnostics.
const diagnosticsHeading = "Convergence diagnostics"

// statsCaption opens the caption of a table of means over repeats.
const statsCaption = "Mean ± standard error over repeats"

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
	var err error
	if kr := reportOf(s); kr != nil {
		err = kr.tables(s, paper, add)
	}
	if err == nil {
		err = calibrationTables(s, add)
	}
	if err == nil && s.hasDiagnostics() {
		th := bnmf.DefaultThresholds()
		err = add("diagnostics.md", diagnosticsHeading,
			fmt.Sprintf("Over each setting's repeats and its quantities (train MSE, sigma^2, training log-likelihood, and the worst of 20 tracked held-out predictions): the largest rank-normalised split-R-hat and the smallest bulk- and tail-ESS (Vehtari et al. 2021); R-hat above %v in bold. A repeat is flagged when R-hat exceeds %v, bulk-ESS falls below %d per chain, or a chain is stuck (its mean sigma^2 above %v times the training values' variance). NMF and the baselines have no posterior and no diagnostics.",
				th.MaxRHat, th.MaxRHat, th.MinESSPerChain, th.MaxSigma2OverVariance),
			func(b *bytes.Buffer) error { return WriteDiagnosticsTable(b, s) })
	}
	if err == nil && s.hasAutoSweeps() {
		err = add("auto-sweeps.md", autoSweepsHeading, fmt.Sprintf(autoSweepsCaption, s.Study.Manifest.MaxSweeps),
			func(b *bytes.Buffer) error { return WriteAutoSweepsTable(b, s) })
	}
	if err == nil && s.hasHyper() {
		err = add("hyperparameters.md", hyperHeading, hyperCaption,
			func(b *bytes.Buffer) error { return WriteHyperTable(b, s) })
	}
	if err == nil {
		err = add("timing.md", "Seconds per sweep",
			statsCaption+", pooled over each model and rank's cells; wall-clock time on the machine that ran them.",
			func(b *bytes.Buffer) error { return WriteTimingTable(b, s) })
	}
	return out, err
}
