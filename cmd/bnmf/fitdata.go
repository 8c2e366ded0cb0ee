package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strings"

	"github.com/bnmf-lab/bnmf/bnmf"
	"github.com/bnmf-lab/bnmf/dataset"
	"github.com/bnmf-lab/bnmf/internal/provenance"
	"github.com/bnmf-lab/bnmf/internal/scalecheck"
)

// fitSource is the data of a fit and where it came from.
type fitSource struct {
	ratings *dataset.Ratings
	// path is the file read ("" for synthetic), format its format ("" for
	// a dataset name) and sha256 its content's digest.
	path, format, sha256 string
	dataset              string // the dataset name, "" for a file
}

// loadFitData loads DATA: a dataset name unless --format is given, else a
// file (read once, with its digest: it may be a named pipe).
func loadFitData(arg string, o fitOptions) (*fitSource, error) {
	return loadFitDataContext(context.Background(), arg, o)
}

// loadFitDataContext is loadFitData stopped by ctx, also while it waits
// for a named pipe's writer.
func loadFitDataContext(ctx context.Context, arg string, o fitOptions) (*fitSource, error) {
	// A model with a Poisson likelihood needs counts: refuse anything else
	// with its file and line.
	spec, _ := bnmf.Lookup(o.model)
	opts := dataset.Options{MinRatings: o.minRatings, Counts: spec.Family == bnmf.Poisson}
	src := &fitSource{}
	var err error
	if o.format == "" && slices.Contains(dataset.Names(), arg) {
		src.dataset = arg
		if src.ratings, err = dataset.OpenContext(ctx, arg, o.dataDir, opts); err != nil {
			return nil, err
		}
		if arg != dataset.SyntheticName {
			if src.path, err = dataset.Path(arg, orDataDir(o.dataDir)); err == nil {
				src.sha256, err = provenance.FileSHA256(src.path)
			}
		}
		return src, err
	}
	src.path, src.format = arg, o.format
	if _, err := os.Stat(arg); errors.Is(err, os.ErrNotExist) && o.format == "" {
		return nil, fmt.Errorf("%s: no such file, nor a dataset name (%s)", arg, strings.Join(dataset.Names(), ", "))
	}
	if src.ratings, src.sha256, err = dataset.OpenFileDigest(ctx, arg, src.format, opts); err != nil {
		return nil, err
	}
	// The format read in: the one given, or the one the file's name and
	// first line showed.
	src.format = src.ratings.Format
	return src, nil
}

// orDataDir returns dir, or the default data directory when it is empty.
func orDataDir(dir string) string {
	if dir == "" {
		return dataset.DataDir()
	}
	return dir
}

// Keys of the random streams of a fit, each a PCG seeded with (--seed,
// key), so that the split and the tracked entries do not depend on each
// other or on the chains.
const (
	holdoutStream = 0x686f6c646f7574 // "holdout"
	trackedStream = 0x747261636b6564 // "tracked"
	trackedCount  = 20               // entries whose predictions are diagnosed
)

// fitProblem is the matrix a fit samples from: the training entries
// (divided by scale), the test entries, and the tracked ones.
type fitProblem struct {
	ratings *dataset.Ratings
	train   *bnmf.Matrix
	// test holds the held-out entries with --holdout (heldOut), else a
	// few training entries whose predictions the diagnostics track.
	test    []bnmf.Entry
	tracked []int
	heldOut bool
	// mean and variance are those of the training values in the data's
	// units; scale is what they were divided by (1 without
	// --standardize).
	mean, variance, scale float64
	// valueMin and valueMax are the smallest and the largest training value in
	// the data's units.
	valueMin, valueMax float64
	warning            string
}

// newFitProblem splits the data for --holdout and scales it for
// --standardize.
func newFitProblem(r *dataset.Ratings, o fitOptions) (*fitProblem, error) {
	p := &fitProblem{ratings: r, scale: 1}
	train := r.Entries
	var test []bnmf.Entry
	if o.holdout > 0 {
		var err error
		train, test, err = dataset.SplitObserved(r, o.holdout, dataset.CoverageBoth, rand.NewPCG(o.seed, holdoutStream))
		if err != nil {
			return nil, fmt.Errorf("--holdout: %w", err)
		}
		p.heldOut = true
	}
	m, err := bnmf.NewMatrix(r.Rows, r.Cols, train)
	if err != nil {
		return nil, err
	}
	p.mean, p.variance = m.Mean(), m.Variance()
	p.valueMin, p.valueMax = valueRange(train)
	if err := checkMoments(p.mean, p.variance, train); err != nil {
		return nil, err
	}
	if o.standardize {
		if !(p.variance > 0) {
			lo, hi := valueRange(train)
			if lo == hi {
				return nil, fmt.Errorf("--standardize: the training values are all equal (%g); there is no spread to divide by", lo)
			}
			return nil, fmt.Errorf("--standardize: the variance of the training values underflows to 0 in float64 (they range from %g to %g, not all equal); multiply them by a power of ten first", lo, hi)
		}
		p.scale = math.Sqrt(p.variance)
		train, test = scaled(train, 1/p.scale), scaled(test, 1/p.scale)
		if m, err = bnmf.NewMatrix(r.Rows, r.Cols, train); err != nil {
			return nil, err
		}
	}
	p.train = m
	p.warning = scalecheck.Warning(p.mean/p.scale, p.variance/(p.scale*p.scale))
	rng := rand.New(rand.NewPCG(o.seed, trackedStream))
	if !p.heldOut {
		// Without held-out entries, the diagnostics track the predictions
		// of training entries drawn at random; they are predicted, not
		// held out.
		idx := rng.Perm(len(train))[:min(trackedCount, len(train))]
		slices.Sort(idx)
		for _, i := range idx {
			test = append(test, train[i])
		}
	}
	p.test = test
	p.tracked = rng.Perm(len(test))[:min(trackedCount, len(test))]
	slices.Sort(p.tracked)
	return p, nil
}

// checkMoments returns an error if the mean or the variance of the
// training values overflowed float64: the values are finite, but the
// models' defaults and sums of squares built on them would not be.
func checkMoments(mean, variance float64, train []bnmf.Entry) error {
	var what string
	switch {
	case math.IsInf(mean, 0) && math.IsInf(variance, 0):
		what = "mean and variance of the training values overflow"
	case math.IsInf(mean, 0):
		what = "mean of the training values overflows"
	case math.IsInf(variance, 0):
		what = "variance of the training values overflows"
	default:
		return nil
	}
	lo, hi := valueRange(train)
	return fmt.Errorf("the %s float64 (mean %.4g, variance %.4g; the values range from %g to %g); divide them by a power of ten first", what, mean, variance, lo, hi)
}

// valueRange returns the smallest and largest values of entries.
func valueRange(entries []bnmf.Entry) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, e := range entries {
		lo, hi = min(lo, e.Value), max(hi, e.Value)
	}
	return lo, hi
}

// scaled returns a copy of entries with their values multiplied by f.
func scaled(entries []bnmf.Entry, f float64) []bnmf.Entry {
	out := slices.Clone(entries)
	for i := range out {
		out[i].Value *= f
	}
	return out
}

// describe prints the data's shape and scale, and the scale warning.
func (p *fitProblem) describe(w io.Writer) {
	r := p.ratings
	fmt.Fprintf(w, "data: %s, %d rows x %d columns, %d observed entries (%.3g of the grid)\n",
		r.Name, r.Rows, r.Cols, len(r.Entries), r.FractionObserved())
	fmt.Fprintf(w, "data: training values have mean %.4g and variance %.4g", p.mean, p.variance)
	if p.scale != 1 {
		fmt.Fprintf(w, "; standardized: divided by %.4g for sampling", p.scale)
	}
	fmt.Fprintln(w)
	if p.heldOut {
		fmt.Fprintf(w, "data: %d entries held out for scoring, %d for training\n", len(p.test), p.train.Len())
	}
	if p.warning != "" {
		fmt.Fprintf(w, "warning: %s (see --standardize)\n", p.warning)
	}
}

// checkOutDir refuses an existing, non-empty output directory unless
// force is set.
func checkOutDir(dir string, force bool) error {
	entries, err := os.ReadDir(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil
	case err != nil:
		fi, serr := os.Stat(dir)
		if serr == nil && !fi.IsDir() {
			return fmt.Errorf("--out %s is a file, not a directory", dir)
		}
		return fmt.Errorf("--out: %w", err)
	case len(entries) > 0 && !force:
		return fmt.Errorf("--out %s exists and is not empty; choose another directory or replace it with --force", dir)
	}
	return nil
}
