package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"golang.org/x/term"

	"github.com/bnmf-lab/bnmf/experiments"
)

const runUsage = `Usage: bnmf run [flags] CONFIG...

Runs the studies that the YAML configs describe (see configs/), one after
another, writing each cell's record to the study's output directory as soon
as its chain finishes. Every config is checked, and its data loaded, before
any chain starts. Running a config again resumes it: cells that have a
record are skipped, including cells whose record holds an error unless
--retry-failed is given. A config whose output directory holds results of a
different config is refused (see --force).

Named datasets (MovieLens, and the drug-sensitivity matrices gdsc-ic50,
ccle-ic50, ccle-ec50) are read from the data directory (--data-dir, else
$BNMF_DATA_DIR, else ./data); with --fetch, a dataset that is not there is
downloaded first and checked as "bnmf data fetch" checks it (from the
mirror in $BNMF_MOVIELENS_MIRROR or $BNMF_BMF_PRIORS_MIRROR, if set).

Progress goes to standard error, as do warnings found when a config is
checked (such as data far from the scale of ratings 1 to 5, which the
default hyperparameters suit); the output directory of each study run is
printed on standard output. With --repeats R, only repeats 0 to R-1 of
every setting run; running again without it completes the study with the
same numbers a single full run gives. Ctrl-C stops within a sweep and keeps
every finished cell, as does SIGTERM; a signal during loading stops it
too, and nothing is run.

Several runs may share an output directory (the shards of a job array, or
processes pulling cells from it): each cell runs once, in the process
that claims it first. Each run holds the directory for its whole life,
so --force is refused while another run of it is alive.

Exit status: 0 when every cell of the run has its numbers stored; 4 when
the run finished but cells that other live processes hold (running them,
or hung) had no record when it ended (they are named; run again once
those processes finish); 3 when the run finished but some cells failed
(their records hold the error, and their number is printed; the report
shows them); 130 after Ctrl-C (SIGINT) and 143 after SIGTERM; 1 for any
other error.

To run a study on a matrix of your own, give its file and format in the
config's dataset section in place of a dataset name (the formats are
triplets: "row,column,value" lines, CSV or TSV, header optional; and
matrix-market: a MatrixMarket coordinate file). For example:

` + ownDataExample + `
The path is relative to the working directory. Each fraction unobserved
must be at least 1 minus the file's fraction observed, which "bnmf data
describe --format triplets FILE" prints. The study's hash covers the
file's content, so results of a changed file never mix with old ones.
`

// ownDataExample is the config in runUsage that runs a study on a file of
// the user's own; a test checks that it is a valid config.
const ownDataExample = `  name: mine
  kind: sparsity
  dataset:
    path: data/mine.csv    # or .tsv; row and column identifiers may be any strings
    format: triplets       # or matrix-market
    min_ratings: 3         # optional: remove rows and columns with fewer entries
  models: [{name: GRRN}, {name: NMF}]
  ranks: [10, 20]
  fractions: [0.95, 0.98]
  repeats: 3
`

func runRun(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("run", runUsage, stdout, stderr)
	var (
		workers  = fs.Int("workers", 0, "cores to use `N`; 0 means all")
		shardArg = fs.String("shard", "", "run only shard `I/N` of the cells (default: from JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID)")
		shards   = fs.Int("shards", 0, "the number of shards `N` when the index comes from the environment")
		force    = fs.Bool("force", false, "discard results of a different config in the output directory and start over (refused while another run of that directory is alive)")
		out      = fs.String("out", "", "write to `DIR` instead of the config's output directory (one config only)")
		dataDir  = fs.String("data-dir", "", "read named datasets from `DIR` (default $BNMF_DATA_DIR, else ./data)")
		every    = fs.Duration("progress", 30*time.Second, "time between progress lines, after one at the start, when standard error is not a terminal")
		repeats  = fs.Int("repeats", 0, "run only the first `R` repeats of every setting and leave the rest for a later run; 0 means all")
		retry    = fs.Bool("retry-failed", false, "run again the cells whose stored record holds an error")
		fetch    = fs.Bool("fetch", false, "download a named dataset a config needs when it is not in the data directory (as bnmf data fetch; ./run.sh sets it)")
	)
	if err := fs.parse(args); err != nil {
		return err
	}
	files := fs.Args()
	switch {
	case len(files) == 0:
		return fs.fail("no config given")
	case *out != "" && len(files) > 1:
		return errors.New("run: --out takes a single config")
	case *workers < 0:
		return fmt.Errorf("run: --workers %d must not be negative", *workers)
	case *repeats < 0:
		return fmt.Errorf("run: --repeats %d must not be negative", *repeats)
	case *every <= 0:
		return fmt.Errorf("run: --progress %v must be positive", *every)
	}
	shard, err := pickShard(*shardArg, *shards, stderr)
	if err != nil {
		return fmt.Errorf("run: %w", err)
	}

	plans := make([]*experiments.Plan, 0, len(files))
	for _, file := range files {
		cfg, err := experiments.LoadConfig(file)
		if err != nil {
			return err
		}
		if *fetch {
			fetchMissing(ctx, cfg, *dataDir, stderr)
		}
		p, err := experiments.PrepareContext(ctx, cfg, experiments.PrepareOptions{DataDir: *dataDir, Revision: buildRevision})
		if ctx.Err() != nil {
			fmt.Fprintf(stderr, "Interrupted while loading the data of %s; nothing was run.\n", file)
			return fmt.Errorf("run: interrupted: %w", context.Cause(ctx))
		}
		if err != nil {
			return err
		}
		for _, w := range p.Manifest.Warnings {
			fmt.Fprintf(stderr, "warning: %s: %s\n", file, w)
		}
		plans = append(plans, p)
	}

	progress := &experiments.Progress{W: stderr, Terminal: isTerminal(stderr), Interval: *every}
	var failed failedCells
	for _, p := range plans {
		sum, err := p.Run(ctx, experiments.RunOptions{
			Workers: *workers, Shard: shard, Force: *force, Output: *out, Progress: progress, Repeats: *repeats,
			RetryFailed: *retry,
		})
		if errors.Is(err, context.Canceled) {
			fmt.Fprintf(stderr, "Interrupted: %d of %d cells of %s are stored in %s.\nTo resume, run the same command again (or ./run.sh with the same configs):\n  bnmf run %s\n",
				sum.Stored+sum.Ran, sum.Cells, p.Config.Name, sum.Dir, quoteArgs(args))
			return fmt.Errorf("run: interrupted: %w", context.Cause(ctx))
		}
		for _, prob := range sum.Problems {
			fmt.Fprintf(stderr, "warning: %s: %s\n", sum.Dir, prob)
		}
		if err != nil {
			return fmt.Errorf("run: %w", err)
		}
		fmt.Fprintf(stderr, "%s: ran %d cells in %s; %d of %d stored in %s\n",
			p.Config.Name, sum.Ran, sum.Elapsed.Round(time.Second), sum.Stored+sum.Ran, sum.Cells, sum.Dir)
		if sum.Deferred > 0 {
			fmt.Fprintf(stderr, "%s: %d cells of repeats %d and above are left for a later run (run again without --repeats)\n",
				p.Config.Name, sum.Deferred, *repeats)
		}
		if sum.Failed > 0 {
			fmt.Fprintf(stderr, "%s: %d of %d cells failed; their records in %s hold the error (run again with --retry-failed to retry them)\n",
				p.Config.Name, sum.Failed, sum.Cells, sum.Dir)
		}
		if len(sum.Held) > 0 {
			fmt.Fprintf(stderr, "%s: %d of %d cells are held by other processes and had no record when this run ended: %s\n",
				p.Config.Name, len(sum.Held), sum.Cells, strings.Join(sum.Held, ", "))
		}
		failed.add(sum)
		fmt.Fprintln(stdout, sum.Dir)
	}
	return failed.err()
}

// pickShard returns the shard given by --shard, else by the environment of
// a Kubernetes indexed Job or a Slurm job array, else all cells.
func pickShard(arg string, count int, stderr io.Writer) (experiments.Shard, error) {
	if count < 0 {
		return experiments.Shard{}, fmt.Errorf("--shards %d must not be negative", count)
	}
	if arg != "" {
		sh, err := experiments.ParseShard(arg)
		if err == nil && count != 0 && count != sh.Count {
			err = fmt.Errorf("--shard %s and --shards %d disagree", arg, count)
		}
		return sh, err
	}
	sh, source, err := experiments.ShardFromEnv(os.Getenv, count)
	if err != nil {
		return sh, err
	}
	if source != "" {
		fmt.Fprintf(stderr, "running shard %s (from %s)\n", sh, source)
	} else if count != 0 {
		return sh, errors.New("--shards needs --shard I/N or a job index in JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID")
	}
	return sh, nil
}

// isTerminal reports whether w is a terminal, for progress drawn in place.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// quoteArgs joins args for a shell, quoting those that need it.
func quoteArgs(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		if a == "" || strings.ContainsAny(a, " \t\n'\"\\$`*?[]{}()<>|&;#~!") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		q[i] = a
	}
	return strings.Join(q, " ")
}
