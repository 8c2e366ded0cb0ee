package dataset

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/bnmf-lab/bnmf/sparse"
)

// errNilSource is returned when a caller passes no random source.
var errNilSource = errors.New("dataset: a random source is required")

// MinFractionUnobserved returns the data's own fraction unobserved,
// 1 - FractionObserved: the smallest fraction SplitUnobserved accepts
// (0.928 for MovieLens 100K, 0.953 for MovieLens 1M).
func MinFractionUnobserved(r *Ratings) float64 {
	return 1 - r.FractionObserved()
}

// SplitUnobserved splits the observed entries so that the training set has
// round((1-fraction)*Rows*Cols) entries; the rest are the test set. The
// fraction unobserved is a share of the whole Rows x Cols grid, as in the
// paper's sparsity study (Section 5, Fig. 5): the training set leaves that
// share of the grid unobserved.
//
// The training set is drawn at random from src. It first takes a smallest
// set of entries that satisfies cov: for CoverageColumns one entry of each
// column drawn uniformly (likewise for rows); for CoverageBoth a minimum
// edge cover of the rows and columns, built from a maximum matching found
// in a random order of the entries. It then fills up with entries drawn
// uniformly without replacement from the others. With CoverageNone every
// entry is equally likely to be in training.
//
// It is an error if the fraction is outside the allowed range, which the
// error states: below MinFractionUnobserved(r) the training set would need
// more entries than are observed, and close to 1 it would have fewer than
// the coverage needs (or none). A nil src is an error. train and test are
// sorted by row and then column.
func SplitUnobserved(r *Ratings, fraction float64, cov Coverage, src rand.Source) (train, test []sparse.Entry, err error) {
	if src == nil {
		return nil, nil, errNilSource
	}
	if err := checkCoverage(r, cov); err != nil {
		return nil, nil, err
	}
	rng := rand.New(src)
	order := rng.Perm(len(r.Entries))
	cover := minimumCover(r, order, cov)

	grid := float64(r.Rows) * float64(r.Cols)
	need := max(len(cover), 1)
	// The range, rounded inwards to 6 decimals; the slack absorbs rounding
	// errors when a bound is a round number.
	lo := math.Ceil((1-float64(len(r.Entries))/grid)*1e6-1e-6) / 1e6
	hi := math.Floor((1-float64(need)/grid)*1e6+1e-6) / 1e6
	size := math.Round((1 - fraction) * grid)
	if math.IsNaN(fraction) || size > float64(len(r.Entries)) || size < float64(need) {
		return nil, nil, fmt.Errorf("dataset %s: fraction unobserved %v is outside the allowed range [%.6f, %.6f]: "+
			"the %d x %d grid has %d observed entries and coverage %q needs at least %d in training",
			r.Name, fraction, lo, hi, r.Rows, r.Cols, len(r.Entries), cov, need)
	}
	train, test = splitToSize(r, int(size), cover, order)
	return train, test, nil
}

// splitToSize puts the entries cover indexes in training, and then the
// first of the others in order until training holds size entries.
func splitToSize(r *Ratings, size int, cover, order []int) (train, test []sparse.Entry) {
	inTrain := make([]bool, len(r.Entries))
	for _, t := range cover {
		inTrain[t] = true
	}
	left := size - len(cover)
	for _, t := range order {
		if left == 0 {
			break
		}
		if !inTrain[t] {
			inTrain[t] = true
			left--
		}
	}
	train = make([]sparse.Entry, 0, size)
	test = make([]sparse.Entry, 0, len(r.Entries)-size)
	for t, e := range r.Entries {
		if inTrain[t] {
			train = append(train, e)
		} else {
			test = append(test, e)
		}
	}
	return train, test
}

// SplitObserved holds out a fraction of the observed entries: the test
// set has round(fraction * observed) entries, drawn at random from src
// as SplitUnobserved draws its split (the training set first takes the
// smallest set of entries that satisfies cov, then entries drawn
// uniformly). fraction must be in (0, 1), and leave at least one test
// entry and enough training entries for cov, or it is an error that
// says why. A nil src is an error. train and test are sorted by row and
// then column.
func SplitObserved(r *Ratings, fraction float64, cov Coverage, src rand.Source) (train, test []sparse.Entry, err error) {
	if src == nil {
		return nil, nil, errNilSource
	}
	if !(fraction > 0 && fraction < 1) {
		return nil, nil, fmt.Errorf("dataset %s: held-out fraction %v must be in (0, 1)", r.Name, fraction)
	}
	if err := checkCoverage(r, cov); err != nil {
		return nil, nil, err
	}
	rng := rand.New(src)
	order := rng.Perm(len(r.Entries))
	cover := minimumCover(r, order, cov)
	n := len(r.Entries)
	held := int(math.Round(fraction * float64(n)))
	switch {
	case held == 0:
		return nil, nil, fmt.Errorf("dataset %s: holding out %v of %d observed entries leaves no test entry", r.Name, fraction, n)
	case n-held < max(len(cover), 1):
		return nil, nil, fmt.Errorf("dataset %s: holding out %v of %d observed entries leaves %d for training; coverage %q needs at least %d",
			r.Name, fraction, n, n-held, cov, max(len(cover), 1))
	}
	train, test = splitToSize(r, n-held, cover, order)
	return train, test, nil
}

// Fold is one fold of a K-fold split: the entries to hold out and the
// entries to train on.
type Fold struct {
	Train, Test []sparse.Entry
}

// KFold splits the observed entries into k folds for cross-validation,
// drawing from src. The entries are shuffled and dealt in turn to the k
// test sets, which are thus disjoint and differ in size by at most one;
// fold f trains on every entry outside its test set.
//
// When a row or column that cov requires has all its entries in one
// fold's test set, the first of them in the shuffled order is moved out of
// that test set into training (under CoverageBoth one such entry may serve
// its row and its column at once), so such entries are never tested. With cleaned MovieLens data and a handful of folds
// this concerns few entries or none.
//
// k must be from 2 to the number of entries; a nil src is an error. Train
// and Test are sorted by row and then column.
func KFold(r *Ratings, k int, cov Coverage, src rand.Source) ([]Fold, error) {
	if src == nil {
		return nil, errNilSource
	}
	if k < 2 || k > len(r.Entries) {
		return nil, fmt.Errorf("dataset %s: %d folds; want from 2 to the %d observed entries", r.Name, k, len(r.Entries))
	}
	if err := checkCoverage(r, cov); err != nil {
		return nil, err
	}
	rng := rand.New(src)
	order := rng.Perm(len(r.Entries))
	fold := make([]int, len(r.Entries))
	for p, t := range order {
		fold[t] = p % k
	}
	rowFold := soleFold(r.Rows, fold, func(t int) int { return r.Entries[t].Row })
	colFold := soleFold(r.Cols, fold, func(t int) int { return r.Entries[t].Col })

	// Move entries out of test sets where coverage needs them.
	rowDone := make([]bool, r.Rows)
	colDone := make([]bool, r.Cols)
	const kept = -1
	for _, t := range order {
		e := r.Entries[t]
		f := fold[t]
		needRow := cov.rows() && !rowDone[e.Row] && rowFold[e.Row] == f
		needCol := cov.cols() && !colDone[e.Col] && colFold[e.Col] == f
		if needRow || needCol {
			fold[t] = kept
		}
		if needRow {
			rowDone[e.Row] = true
		}
		if needCol {
			colDone[e.Col] = true
		}
	}

	folds := make([]Fold, k)
	for f := range folds {
		n := 0
		for _, g := range fold {
			if g == f {
				n++
			}
		}
		folds[f].Train = make([]sparse.Entry, 0, len(r.Entries)-n)
		folds[f].Test = make([]sparse.Entry, 0, n)
	}
	for t, e := range r.Entries {
		for f := range folds {
			if fold[t] == f {
				folds[f].Test = append(folds[f].Test, e)
			} else {
				folds[f].Train = append(folds[f].Train, e)
			}
		}
	}
	return folds, nil
}

// soleFold returns, for each of n lines (rows or columns), the fold that
// holds all its entries, or -1 if they are spread over several folds or
// there are none.
func soleFold(n int, fold []int, line func(t int) int) []int {
	const unset, mixed = -2, -1
	sole := make([]int, n)
	for i := range sole {
		sole[i] = unset
	}
	for t, f := range fold {
		i := line(t)
		switch sole[i] {
		case unset:
			sole[i] = f
		case f, mixed:
		default:
			sole[i] = mixed
		}
	}
	for i, f := range sole {
		if f == unset {
			sole[i] = mixed
		}
	}
	return sole
}
