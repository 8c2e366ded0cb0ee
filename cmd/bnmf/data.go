package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/bnmf-lab/bnmf/dataset"
	"github.com/bnmf-lab/bnmf/report"
)

const dataUsage = `Usage: bnmf data <command> [flags] [arguments]

Fetches and describes the datasets of the experiments.

Commands:
  fetch NAME...      download datasets into the data directory
  describe DATASET   print the dataset's row of Table 1 and write its
                     rating distribution (Fig. 3) as Markdown and PNG

Datasets:
  %s

The data directory is $BNMF_DATA_DIR, else ./data; MovieLens files live
under it as movielens/ml-100k/u.data, movielens/ml-1m/ratings.dat, ...,
and the drug-sensitivity matrices as bmf-priors/GDSC/ic50.txt, ...

Run "bnmf data <command> --help" for a command's flags.
`

// runData implements "bnmf data": it dispatches to fetch and describe.
func runData(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSetFunc("data", func(w io.Writer) { fmt.Fprintf(w, dataUsage, strings.Join(dataset.Names(), "\n  ")) }, stdout, stderr)
	// The subcommand's flags follow its name: leave them to it.
	if err := fs.parseHead(args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return fs.fail("no command given")
	}
	switch cmd, rest := fs.Arg(0), fs.Args()[1:]; cmd {
	case "fetch":
		return runDataFetch(ctx, rest, stdout, stderr)
	case "describe":
		return runDataDescribe(ctx, rest, stdout, stderr)
	case "help":
		fs.usage(stdout)
		return flag.ErrHelp
	default:
		return fs.fail("unknown command %q", cmd)
	}
}

const fetchUsage = `Usage: bnmf data fetch [flags] NAME...

Downloads the official GroupLens zip archive of each MovieLens dataset
NAME, checks it, and unpacks its ratings file and README into
DIR/movielens/<ml-name>/. The ratings file must match the pinned SHA-256
digest (MovieLens 100K) or the official counts (MovieLens 1M); the larger
datasets are checked by the CRC-32 of their zip entries. A file already
present that passes the checks is kept. Progress goes to standard error,
the installed paths to standard output. $BNMF_MOVIELENS_MIRROR, if set,
replaces https://files.grouplens.org/datasets/movielens/ with a mirror
that holds the archives under their official names (ml-100k.zip, ...).

The drug-sensitivity datasets of Brouwer & Lio (gdsc-ic50, ccle-ic50,
ccle-ec50) are downloaded file by file (matrix, cell_lines.txt, drugs.txt)
from github.com/ThomasBrouwer/BMF_Priors at its pinned commit into
DIR/bmf-priors/<SET>/, each checked against its SHA-256 digest;
$BNMF_BMF_PRIORS_MIRROR, if set, replaces
https://raw.githubusercontent.com/ThomasBrouwer/BMF_Priors/<commit>/ with
a mirror that holds them under their upstream paths.

MovieLens may not be redistributed, and the drug-sensitivity files come
without a licence: never commit the files.

Datasets:
  %s
`

func runDataFetch(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var names []string
	for _, n := range dataset.Names() {
		if n != dataset.SyntheticName {
			names = append(names, n)
		}
	}
	fs := newFlagSet("data fetch", fmt.Sprintf(fetchUsage, strings.Join(names, "\n  ")), stdout, stderr)
	dir := fs.String("data-dir", dataset.DataDir(), "install under `DIR` ($BNMF_DATA_DIR if set)")
	force := fs.Bool("force", false, "download again even if a verified file is present")
	skip := fs.Bool("skip-checksum", false, "install a ratings file that differs from the official one")
	url := fs.String("url", "", "download from `URL` (a mirror) instead of GroupLens; one NAME only")
	if err := fs.parse(args); err != nil {
		return err
	}
	switch {
	case fs.NArg() == 0:
		return fs.fail("no dataset given")
	case *url != "" && fs.NArg() > 1:
		return errors.New("data fetch: --url takes a single dataset")
	}
	for _, name := range fs.Args() {
		path, err := dataset.Fetch(ctx, name, *dir, dataset.FetchOptions{
			URL:          *url,
			BaseURL:      os.Getenv(dataset.MirrorEnv(name)),
			Progress:     stderr,
			SkipChecksum: *skip,
			Force:        *force,
		})
		if err != nil {
			return fmt.Errorf("data %w", err)
		}
		fmt.Fprintln(stdout, path)
	}
	return nil
}

const describeUsage = `Usage: bnmf data describe [flags] DATASET

Loads DATASET, a dataset name or, with --format, a file of your own;
cleans it as the paper does (MovieLens always, files only with
--min-ratings); prints its row of the paper's Table 1; and writes its
rating distribution (Fig. 3) to DIR/<name>-ratings.md and
DIR/<name>-ratings.png, DIR being --out.

Datasets:
  %s
`

func runDataDescribe(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("data describe", fmt.Sprintf(describeUsage, strings.Join(dataset.Names(), "\n  ")), stdout, stderr)
	dir := fs.String("data-dir", dataset.DataDir(), "read MovieLens files from `DIR` ($BNMF_DATA_DIR if set)")
	format := fs.String("format", "", "read DATASET as a file in `FORMAT` ("+strings.Join(dataset.Formats(), ", ")+"); a file's format is detected without it")
	minRatings := fs.Int("min-ratings", 0, "remove rows and columns with fewer than `N` ratings (0: 3 for MovieLens, none for files)")
	skip := fs.Bool("skip-checksum", false, "accept MovieLens files that differ from the official ones")
	out := fs.String("out", ".", "write the distribution table and chart into `DIR`")
	if err := fs.parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return fs.fail("want one DATASET, got %d arguments", fs.NArg())
	}
	opts := dataset.Options{MinRatings: *minRatings, SkipChecksum: *skip}
	var (
		r   *dataset.Ratings
		err error
	)
	_, statErr := os.Stat(fs.Arg(0))
	if *format != "" || (statErr == nil && !slices.Contains(dataset.Names(), fs.Arg(0))) {
		// A file: in the format given, else the one its name and first
		// line show.
		r, err = dataset.OpenFileContext(ctx, fs.Arg(0), *format, opts)
	} else {
		r, err = dataset.OpenContext(ctx, fs.Arg(0), *dir, opts)
	}
	if err != nil {
		return fmt.Errorf("data describe: %w", err)
	}
	if err := writeTable1Row(stdout, r.Summary()); err != nil {
		return err
	}

	counts := dataset.Distribution(r)
	base := strings.TrimSuffix(r.Name, filepath.Ext(r.Name))
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return fmt.Errorf("data describe: %w", err)
	}
	mdPath := filepath.Join(*out, base+"-ratings.md")
	if err := writeRatingTableFile(mdPath, r.Name, counts); err != nil {
		return err
	}
	pngPath := filepath.Join(*out, base+"-ratings.png")
	if err := report.WriteRatingChart(pngPath, "Rating distribution of "+r.Name, counts); err != nil {
		return fmt.Errorf("data describe: %w", err)
	}
	fmt.Fprintf(stdout, "\nwrote %s\nwrote %s\n", mdPath, pngPath)
	return nil
}

// writeTable1Row prints the dataset's row of Table 1, with the paper's
// row beneath it when the paper has the dataset.
func writeTable1Row(w io.Writer, s dataset.Summary) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "Dataset\tRows\tColumns\tFraction observed\tObserved entries\t")
	fmt.Fprintf(tw, "%s\t%d\t%d\t%.3f\t%d\t\n", s.Name, s.Rows, s.Cols, s.FractionObserved, s.Observed)
	if p, ok := report.Paper().Dataset(s.Name); ok {
		fmt.Fprintf(tw, "%s (paper)\t%d\t%d\t%.3f\t%d\t\n", p.Name, p.Rows, p.Cols, p.FractionObserved, p.Observed)
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("data describe: %w", err)
	}
	return nil
}

// writeRatingTableFile writes the Markdown rating distribution to path.
func writeRatingTableFile(path, name string, counts []dataset.RatingCount) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("data describe: %w", err)
	}
	if err := report.WriteRatingTable(f, name, counts); err != nil {
		f.Close()
		return fmt.Errorf("data describe: %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("data describe: %w", err)
	}
	return nil
}
