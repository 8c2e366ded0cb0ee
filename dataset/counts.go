package dataset

import (
	"errors"
	"fmt"
	"math"
)

// ErrNotCount means a value is not a nonnegative integer, which a model
// with a Poisson likelihood needs (Options.Counts).
var ErrNotCount = errors.New("not a count (a nonnegative integer)")

// prepareValues applies what opts asks of r's values as read: the cast to
// integers (Options.Truncate), then the counts check (Options.Counts).
func (r *raw) prepareValues(opts Options) error {
	if opts.Truncate {
		for i := range r.cells {
			r.cells[i].value = math.Trunc(r.cells[i].value)
		}
	}
	if opts.Counts {
		return r.checkCounts()
	}
	return nil
}

// checkCounts returns a ParseError for the value of r that is not a count
// on the earliest line of its file, or nil when every value is a count.
func (r *raw) checkCounts() error {
	bad := -1
	for i, c := range r.cells {
		if !isCount(c.value) && (bad < 0 || c.line < r.cells[bad].line) {
			bad = i
		}
	}
	if bad < 0 {
		return nil
	}
	c := r.cells[bad]
	return &ParseError{File: r.file, Line: int(c.line), Field: "value", Err: fmt.Errorf("%w: %v", ErrNotCount, c.value)}
}

// checkCountEntries returns an error naming the first entry of r, in row
// and column order, that is not a count: for data that have no file
// lines, the synthetic dataset.
func checkCountEntries(r *Ratings) error {
	for _, e := range r.Entries {
		if !isCount(e.Value) {
			return fmt.Errorf("dataset %s: entry (%d, %d) is %v: %w", r.Name, e.Row, e.Col, e.Value, ErrNotCount)
		}
	}
	return nil
}

// isCount reports whether v is a nonnegative integer that a float64 holds
// exactly.
func isCount(v float64) bool { return v >= 0 && v <= 1<<53 && v == math.Trunc(v) }
