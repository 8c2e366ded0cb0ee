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

Renders the figures, tables and a tidy CSV of every study under
RESULTS_DIR from its stored records, into each study's figures/ and
tables/ directories, and writes RESULTS_DIR/README.md embedding them.
RESULTS_DIR may be one study directory or a root holding several. No
sampler is run.

A study that repeats one of the paper's (its MovieLens dataset, kind and
grid) gets the paper's names (Fig. 2, 4, 5, Tables 1 and 2) and values
beside ours; any other is titled by the study and names its data by the
config's dataset label. Held-out tables give the MSEs (the data's
variance in their caption) and, when a study has baseline models, a
table of its own gives every model's skill against the best baseline
(1 - MSE/MSE of the baseline, paired by repeat). Each kind of warning is
stated once, under the study's Warnings, with the settings it affects;
the tables mark those settings with its number.

Each study's data is loaded again, as its config.yaml names it (MovieLens
from the data directory, a file of your own from its path relative to the
working directory, as the run read it), for the chart of its values
(Fig. 3 for MovieLens) drawn into RESULTS_DIR/figures, its variance, and a
warning when its scale is far from the ratings of 1 to 5 that the default
hyperparameters suit. Data that cannot be loaded is said so in the README.
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
	// The charts of the data's values, its variance and its scale check
	// need the data itself. The README gets a short reason when it cannot
	// be loaded; the details, which name local paths, go to stderr.
	ratings := func(st *experiments.Study) ([]dataset.RatingCount, error) {
		r, err := loadStudyData(st, *dataDir)
		if err != nil {
			fmt.Fprintf(stderr, "report: data of %s: %v\n", st.Dir, err)
			if name := st.Manifest.Dataset; slices.Contains(dataset.Names(), name) && name != dataset.SyntheticName {
				return nil, fmt.Errorf("its ratings file could not be loaded (bnmf data fetch %s gets it)", name)
			}
			return nil, errors.New("its data could not be loaded (the report's standard error says why)")
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

// loadStudyData loads the data of a stored study as its config.yaml
// names it, reading MovieLens from dataDir.
func loadStudyData(st *experiments.Study, dataDir string) (*dataset.Ratings, error) {
	cfg, err := experiments.LoadConfig(filepath.Join(st.Dir, experiments.ConfigFile))
	if err != nil {
		return nil, err
	}
	return experiments.OpenData(cfg, dataDir)
}
