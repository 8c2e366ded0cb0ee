package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"

	"github.com/bnmf-lab/bnmf/experiments"
	"github.com/bnmf-lab/bnmf/internal/provenance"
)

const verifyUsage = `Usage: bnmf verify [flags] CONFIG

Runs again a sample of the cells stored for CONFIG and checks that this
program reproduces their records exactly (every metric, trace value,
seed and warning; wall times and the build that made a record are not
compared). The sample holds the first cell made by each build the study's
records name, so that a study resumed over several revisions is checked
for each, and then cells drawn at random (--seed). Nothing is written.

Prints one line per cell and exits with an error if any cell differs or
a stored record cannot be read.
The data must be at hand, as for bnmf run.
`

func runVerify(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("verify", verifyUsage, stdout, stderr)
	var (
		n       = fs.Int("cells", 5, "rerun `N` cells (at least one per build while N allows)")
		seed    = fs.Uint64("seed", 1, "`S` seeds the random part of the sample")
		dir     = fs.String("dir", "", "the study's directory `DIR` (default: the config's output)")
		workers = fs.Int("workers", 0, "cores to use `N`; 0 means all")
		dataDir = fs.String("data-dir", "", "read MovieLens data from `DIR` (default $BNMF_DATA_DIR, else ./data)")
	)
	if err := fs.parse(args); err != nil {
		return err
	}
	switch {
	case fs.NArg() != 1:
		return fs.fail("want exactly one config")
	case *n < 1:
		return fmt.Errorf("verify: --cells %d must be positive", *n)
	case *workers < 0:
		return fmt.Errorf("verify: --workers %d must not be negative", *workers)
	}
	cfg, err := experiments.LoadConfig(fs.Arg(0))
	if err != nil {
		return err
	}
	p, err := experiments.PrepareContext(ctx, cfg, experiments.PrepareOptions{DataDir: *dataDir, Revision: buildRevision})
	if err != nil {
		return err
	}
	if *dir == "" {
		*dir = cfg.Output
	}
	st, err := experiments.LoadStudy(*dir)
	if err != nil {
		return fmt.Errorf("verify: %w", err)
	}
	for _, prob := range st.Problems {
		fmt.Fprintf(stderr, "warning: %s: %s\n", *dir, prob)
	}
	cells, err := experiments.VerificationSample(st, *n, rand.NewPCG(*seed, 0))
	if err != nil {
		return err
	}
	if len(cells) == 0 {
		return fmt.Errorf("verify: %s has no successful record to check", *dir)
	}
	fmt.Fprintf(stderr, "rerunning %d of the %d records in %s\n", len(cells), len(st.Records), *dir)
	checks, err := p.Verify(ctx, st, cells, *workers, func(c *experiments.Check) {
		verdict := "identical"
		if !c.Identical() {
			verdict = fmt.Sprintf("DIFFERS in %v", c.Differences)
		}
		fmt.Fprintf(stdout, "%s (made by %s): %s (%.1f s)\n", c.Stored.Cell.Key(), madeBy(c.Stored.Versions), verdict, c.Rerun.WallSeconds)
	})
	if errors.Is(err, context.Canceled) {
		return fmt.Errorf("verify: interrupted after %d of %d cells", len(checks), len(cells))
	}
	if err != nil {
		return err
	}
	differ := 0
	for i := range checks {
		if !checks[i].Identical() {
			differ++
		}
	}
	if differ > 0 {
		return fmt.Errorf("verify: %d of %d cells were not reproduced", differ, len(checks))
	}
	if len(st.Problems) > 0 {
		return fmt.Errorf("verify: %d cells reproduced, but %d stored record(s) could not be read (see the warnings)", len(checks), len(st.Problems))
	}
	fmt.Fprintf(stderr, "all %d cells reproduced exactly\n", len(checks))
	return nil
}

// madeBy names the build in v: its short revision and Go version.
func madeBy(v provenance.Versions) string {
	rev := v.ShortRevision()
	if rev == "" {
		rev = "an unrecorded revision"
	}
	return rev + ", " + v.Go
}
