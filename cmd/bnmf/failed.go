package main

import (
	"fmt"
	"strings"

	"github.com/bnmf-lab/bnmf/experiments"
)

// failedCells counts the failed cells of the studies a run completed,
// and the cells that other processes held and had not stored.
type failedCells struct {
	cells, failed, studies int
	held                   []string
}

// add counts the outcome of one study.
func (f *failedCells) add(sum experiments.RunSummary) {
	f.cells += sum.Cells
	if sum.Failed > 0 {
		f.failed += sum.Failed
		f.studies++
	}
	f.held = append(f.held, sum.Held...)
}

// err returns nil when every cell has its numbers stored; else an error
// with the status exitCellsHeld that names the cells other processes
// hold, if any, or else with the status exitCellsFailed that says how
// many cells failed.
func (f *failedCells) err() error {
	if len(f.held) > 0 {
		return &statusError{status: exitCellsHeld, err: fmt.Errorf("run: %d of %d cells are held by other processes and not stored yet: %s; run again once they finish",
			len(f.held), f.cells, listSome(f.held, 5))}
	}
	if f.failed == 0 {
		return nil
	}
	return &statusError{status: exitCellsFailed, err: fmt.Errorf("run: %d of %d cells failed (in %d %s); their records hold the error",
		f.failed, f.cells, f.studies, countNoun(f.studies, "study", "studies"))}
}

// listSome joins the first n of items, saying how many more there are.
func listSome(items []string, n int) string {
	if len(items) <= n {
		return strings.Join(items, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(items[:n], ", "), len(items)-n)
}

// countNoun returns one when n is 1 and many otherwise.
func countNoun(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
