package experiments

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/bnmf-lab/bnmf/internal/progress"
)

// Check is the outcome of running one stored cell again.
type Check struct {
	// Stored is the cell's record as stored; Rerun the record this
	// program makes for it now.
	Stored, Rerun *Record
	// Differences names the parts of the records that differ ("seed",
	// "metrics", "trace", ...); wall times and the build that made a
	// record are not compared. Empty means the rerun reproduced the
	// record exactly.
	Differences []string
}

// Identical reports whether the rerun reproduced the stored record.
func (c *Check) Identical() bool { return len(c.Differences) == 0 }

// Verify runs the given stored cells of st again with this plan, each on
// workers cores (0 means all), and compares the new records with the
// stored ones, calling report (if not nil) after each. st must hold
// results of the plan's config. Nothing is written. A cancelled ctx stops
// within a sweep and returns the checks finished so far with an error
// wrapping ctx.Err().
func (p *Plan) Verify(ctx context.Context, st *Study, cells []Cell, workers int, report func(*Check)) ([]Check, error) {
	if st.Manifest.ConfigHash != p.Manifest.ConfigHash {
		return nil, fmt.Errorf("verify: %s holds results of config %.12s, not of %s (%.12s)",
			st.Dir, st.Manifest.ConfigHash, p.Config.file, p.Manifest.ConfigHash)
	}
	stored := make(map[string]*Record, len(st.Records))
	for i := range st.Records {
		stored[st.Records[i].Cell.Key()] = &st.Records[i]
	}
	var quiet *progress.Output
	t := quiet.Cells(p.Config.Name, len(cells), 0, 0)
	defer t.Close()
	var checks []Check
	for _, c := range cells {
		old, ok := stored[c.Key()]
		if !ok {
			return checks, fmt.Errorf("verify: cell %s has no record in %s", c.Key(), st.Dir)
		}
		r, err := p.runCell(ctx, c, workers, t)
		if err != nil {
			return checks, fmt.Errorf("verify: cell %s: %w", c.Key(), err)
		}
		cmp := *r
		if old.Predictive == nil {
			cmp.Predictive = nil // a record made before scores existed
		}
		if old.Diagnostics == nil {
			// A record made before diagnostics existed: compare what it
			// holds, without the diagnostics and their warnings.
			cmp.Diagnostics = nil
			cmp.Warnings = withoutDiagnosticWarnings(cmp.Warnings)
		}
		if st.Manifest.Accepts(old) {
			// A record made under an earlier config that differed only
			// in its list of models (Manifest.Compatible) carries that
			// config's hash; it is the same cell.
			cmp.ConfigHash = old.ConfigHash
		}
		diff, err := recordDifferences(old, &cmp)
		if err != nil {
			return checks, fmt.Errorf("verify: cell %s: %w", c.Key(), err)
		}
		checks = append(checks, Check{Stored: old, Rerun: r, Differences: diff})
		if report != nil {
			report(&checks[len(checks)-1])
		}
	}
	return checks, nil
}

// recordDifferences names the parts in which a and b differ, leaving out
// wall times (as canonical does) and the build versions.
func recordDifferences(a, b *Record) ([]string, error) {
	parts := func(r *Record) []any {
		c := withoutTimes(r)
		return []any{c.Study, c.Kind, c.ConfigHash, c.Seed, c.Dataset,
			[]int{c.Rows, c.Cols, c.TrainEntries, c.TestEntries, c.Sweeps, c.BurnIn, c.Thin},
			c.Metrics, c.Trace, c.Error, c.Warnings,
			[]any{c.Chains, c.ChainMetrics, c.ChainTraces}, c.Predictive, c.Diagnostics, c.AutoSweeps, c.Hyper}
	}
	names := []string{"study", "kind", "config hash", "seed", "dataset", "sizes and settings", "metrics", "trace", "error", "warnings",
		"chains", "predictive scores", "diagnostics", "auto sweeps", "hyperparameters"}
	pa, pb := parts(a), parts(b)
	var diff []string
	for i := range pa {
		ja, err := json.Marshal(pa[i])
		if err != nil {
			return nil, err
		}
		jb, err := json.Marshal(pb[i])
		if err != nil {
			return nil, err
		}
		if !bytes.Equal(ja, jb) {
			diff = append(diff, names[i])
		}
	}
	return diff, nil
}

// VerificationSample picks up to n stored cells of st to run again: first
// the earliest cell, in the manifest's order, made by each build (so that
// every build the study mixes is checked), then cells drawn from src
// without replacement among the others, returned in the manifest's order.
// Failed cells are left out. n < 1 is an error.
func VerificationSample(st *Study, n int, src rand.Source) ([]Cell, error) {
	if n < 1 {
		return nil, fmt.Errorf("verify: sample size %d must be positive", n)
	}
	if src == nil {
		return nil, errors.New("verify: a random source is required")
	}
	picked := make([]bool, len(st.Records))
	seen := make(map[Versions]bool)
	count := 0
	var rest []int
	for i := range st.Records {
		r := &st.Records[i]
		switch {
		case r.Error != "":
		case !seen[r.Versions] && count < n:
			seen[r.Versions] = true
			picked[i] = true
			count++
		default:
			rest = append(rest, i)
		}
	}
	rng := rand.New(src)
	rng.Shuffle(len(rest), func(a, b int) { rest[a], rest[b] = rest[b], rest[a] })
	for _, i := range rest[:min(len(rest), n-count)] {
		picked[i] = true
	}
	var cells []Cell
	for i, ok := range picked {
		if ok {
			cells = append(cells, st.Records[i].Cell)
		}
	}
	return cells, nil
}

// withoutDiagnosticWarnings returns ws without the warnings of the
// convergence diagnostics.
func withoutDiagnosticWarnings(ws []string) []string {
	var out []string
	for _, w := range ws {
		if !strings.HasPrefix(w, "convergence:") {
			out = append(out, w)
		}
	}
	return out
}
