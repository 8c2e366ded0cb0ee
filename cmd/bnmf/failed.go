package main

import (
	"fmt"

	"github.com/bnmf-lab/bnmf/experiments"
)

// failedCells counts the failed cells of the studies a run completed.
type failedCells struct {
	cells, failed, studies int
}

// add counts the outcome of one study.
func (f *failedCells) add(sum experiments.Summary) {
	f.cells += sum.Cells
	if sum.Failed > 0 {
		f.failed += sum.Failed
		f.studies++
	}
}

// err returns nil when no cell failed, and otherwise an error with the
// status exitCellsFailed that says how many did.
func (f *failedCells) err() error {
	if f.failed == 0 {
		return nil
	}
	return &statusError{status: exitCellsFailed, err: fmt.Errorf("run: %d of %d cells failed (in %d %s); their records hold the error",
		f.failed, f.cells, f.studies, countNoun(f.studies, "study", "studies"))}
}

// countNoun returns one when n is 1 and many otherwise.
func countNoun(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
