package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"

	"github.com/bnmf-lab/bnmf/dataset"
	"github.com/bnmf-lab/bnmf/experiments"
	"github.com/bnmf-lab/bnmf/report"
)

const reportUsage = `Usage: bnmf report [flags] RESULTS_DIR

Renders the figures (Fig. 2, 4, 5), tables (Table 1, Table 2, held-out MSE
per fraction, var(data)/MSE per noise ratio against noisy and clean values,
final training MSE, timing) and a tidy CSV of every study under RESULTS_DIR
from its stored records, into each study's figures/ and tables/
directories, and writes RESULTS_DIR/README.md embedding them. RESULTS_DIR
may be one study directory or a root holding several. Fig. 3, the rating
distribution of each MovieLens dataset, is drawn into RESULTS_DIR/figures
when the dataset's file is found. No sampler is run.
`

// runReport implements "bnmf report RESULTS_DIR": it finds every study
// under RESULTS_DIR (a study directory or a root holding several), loads
// their stored records and writes the figures, tables and CSV into each
// study's directory and RESULTS_DIR/README.md. It never runs a sampler.
func runReport(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("report", reportUsage, stdout, stderr)
	quiet := fs.Bool("quiet", false, "print only the README's path, not every file written")
	dataDir := fs.String("data-dir", dataset.DataDir(), "read the MovieLens files for Fig. 3 from `DIR` ($BNMF_DATA_DIR if set)")
	if err := fs.parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return fs.fail("want one RESULTS_DIR, got %d arguments", fs.NArg())
	}
	root := fs.Arg(0)
	dirs, err := experiments.FindStudies(root)
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	if len(dirs) == 0 {
		return fmt.Errorf("report: no study under %s (a study directory holds %s)", root, experiments.ManifestFile)
	}
	studies := make([]*experiments.Study, 0, len(dirs))
	for _, dir := range dirs {
		if err := ctx.Err(); err != nil {
			return err
		}
		st, err := experiments.LoadStudy(dir)
		if err != nil {
			return fmt.Errorf("report: %w", err)
		}
		studies = append(studies, st)
	}
	// Fig. 3 needs the ratings themselves. The README gets a short reason
	// when they cannot be loaded; the details, which name local paths, go
	// to stderr.
	ratings := func(name string) ([]dataset.RatingCount, error) {
		if name == dataset.SyntheticName || !slices.Contains(dataset.Names(), name) {
			return nil, errors.New("it is drawn for the MovieLens datasets only")
		}
		r, err := dataset.Open(name, *dataDir, dataset.Options{})
		if err != nil {
			fmt.Fprintf(stderr, "report: Fig. 3 for %s: %v\n", name, err)
			return nil, fmt.Errorf("its ratings file could not be loaded (bnmf data fetch %s gets it)", name)
		}
		return dataset.Distribution(r), nil
	}
	written, err := report.Write(root, studies, report.Options{Ratings: ratings})
	if err != nil {
		return err
	}
	if !*quiet {
		for _, path := range written {
			fmt.Fprintln(stdout, "wrote", path)
		}
	}
	noun := "studies"
	if len(studies) == 1 {
		noun = "study"
	}
	fmt.Fprintf(stdout, "report of %d %s: %s\n", len(studies), noun, filepath.Join(root, "README.md"))
	return nil
}
