package experiments

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"sync"
	"time"

	"github.com/bnmf-lab/bnmf/internal/claim"
	"github.com/bnmf-lab/bnmf/internal/progress"
	"github.com/bnmf-lab/bnmf/internal/workpool"
)

// Progress says where and how often Plan.Run reports how a study is
// getting on: cells done of total, chains running, time elapsed and an
// estimate of the time left. A nil *Progress reports nothing.
type Progress = progress.Output

// RunOptions controls Plan.Run.
type RunOptions struct {
	// Workers is the number of cores to use. Zero means
	// runtime.GOMAXPROCS(0). With C cells to run, min(Workers, C) chains
	// run at once, each with max(1, Workers/running) sampler workers; the
	// numbers do not depend on it.
	Workers int
	// Shard selects the share of the cells to run; the zero Shard runs
	// them all.
	Shard Shard
	// Force discards the results of a different config found in the output
	// directory and starts over, instead of refusing to run. It is refused
	// while another run holds the directory (see LockFile).
	Force bool
	// Output overrides the config's output directory when not empty.
	Output string
	// Repeats, when positive, runs only the cells of repeats 0 to
	// Repeats-1 and leaves the others for a later run: a costly study can
	// be brought to a few repeats of every setting first (cells are
	// ordered by repeat anyway) and completed by resuming without the
	// limit. The config, its hash and every cell's numbers are unchanged.
	Repeats int
	// RetryFailed runs again the cells whose stored record holds an error
	// (by default they are counted as failed and skipped). The new record
	// goes to records/, where LoadStudy prefers it to the failed one, in
	// whichever form that was stored.
	RetryFailed bool
	// Progress, if not nil, receives progress reports.
	Progress *Progress

	// afterCell, if not nil, is called after each cell of the run is
	// done with, its claim released: a test does there what another
	// process may do between two cells.
	afterCell func(key string)
}

// RunSummary tells what a call of Plan.Run did.
type RunSummary struct {
	// Dir is the study's output directory.
	Dir string
	// Cells is the number of cells in the shard; Stored of them had
	// records before the run, and Ran were run now. Failed counts the
	// shard's records, old or new, that hold an error instead of numbers.
	// Deferred counts the cells of the shard without a record that
	// RunOptions.Repeats left for a later run; cells beyond that limit
	// are not among Cells and Stored. Elsewhere counts the cells left to
	// other processes sharing the directory: claimed by them, or stored by
	// them during this run (see ClaimsDir).
	Cells, Stored, Ran, Failed, Deferred, Elsewhere int
	// Held lists the cells left to other processes that still had no
	// record when the run ended: neither run nor stored, they are still
	// running elsewhere (or their holder hangs; its claim then expires,
	// see claim.Lease). Each is "KEY (host HOST, pid PID)", sorted.
	Held []string
	// Problems lists what the output directory held but the study could
	// not use (see Study.Problems).
	Problems []string
	// Elapsed is the wall time of the run.
	Elapsed time.Duration
}

// Run runs every cell of the plan's shard that has no record yet in the
// output directory, writing each record as its chain finishes. It first
// writes the config and the manifest, refusing a directory that holds
// another config's results unless opts.Force.
//
// Run holds the directory's LockFile for its whole life: shared, so that
// other runs of the study (shards, or processes pulling cells) share the
// directory, or with opts.Force exclusive until it has started over,
// which is refused while another run holds the lock. Before it returns
// it checks that the records it wrote are still there, and returns an
// error if not.
//
// When ctx is cancelled, chains stop within a sweep, no partial record is
// written, and Run returns an error wrapping ctx.Err() after every finished
// cell is stored; running it again resumes. Cells that fail are recorded
// with their error and not run again on resume unless opts.RetryFailed.
func (p *Plan) Run(ctx context.Context, opts RunOptions) (RunSummary, error) {
	start := time.Now()
	sum := RunSummary{Dir: p.Config.Output}
	if opts.Output != "" {
		sum.Dir = opts.Output
	}
	if err := opts.Shard.validate(); err != nil {
		return sum, err
	}
	if opts.Repeats < 0 {
		return sum, fmt.Errorf("study %s: repeats limit %d must not be negative", p.Config.Name, opts.Repeats)
	}
	lock, err := claim.LockDir(ctx, sum.Dir, LockFile, opts.Force)
	if errors.Is(err, claim.ErrLocked) {
		holding := ""
		if live, _ := LiveClaims(sum.Dir); len(live) > 0 {
			holding = fmt.Sprintf(" (it holds %d cell(s), such as %s)", len(live), live[0])
		}
		return sum, fmt.Errorf("%s: --force refused while another process runs this study there%s; stop it first", sum.Dir, holding)
	}
	if err != nil {
		return sum, err
	}
	defer lock.Unlock()
	if err := initStore(sum.Dir, p.Config, &p.Manifest, opts.Force); err != nil {
		return sum, err
	}
	if opts.Force {
		// Let other runs of this study in, and check that no other
		// --force got in while the lock changed.
		if err := lock.Share(ctx); err != nil {
			return sum, err
		}
		if m, err := readManifest(sum.Dir); err != nil || m.ConfigHash != p.Manifest.ConfigHash {
			return sum, fmt.Errorf("%s: another process started over in this directory meanwhile; stop it and run again", sum.Dir)
		}
	}
	st, err := LoadStudy(sum.Dir)
	if err != nil {
		return sum, err
	}
	sum.Problems = st.Problems
	failed := make(map[string]bool, len(st.Records)) // stored cells: did they fail?
	for _, r := range st.Records {
		failed[r.Cell.Key()] = r.Error != ""
	}
	var todo []Cell
	var work int64
	for i, c := range p.Manifest.Cells {
		if !opts.Shard.Has(i) {
			continue
		}
		f, stored := failed[c.Key()]
		if opts.Repeats > 0 && c.Repeat >= opts.Repeats {
			if !stored {
				sum.Deferred++
			}
			continue
		}
		sum.Cells++
		if stored && !(f && opts.RetryFailed) {
			sum.Stored++
			if f {
				sum.Failed++
			}
			continue
		}
		todo = append(todo, c)
		work += int64(p.Config.sweepsBound()) * int64(c.Rank) * int64(p.chains)
	}

	cores := opts.Workers
	if cores <= 0 {
		cores = runtime.GOMAXPROCS(0)
	}
	parallel := min(cores, len(todo))
	perChain := max(1, cores/max(1, parallel))

	t := opts.Progress.Cells(p.Config.Name, sum.Cells, sum.Stored, work)
	t.Begin(len(todo), cores, parallel, sum.Dir)
	claims, err := claim.New(filepath.Join(sum.Dir, ClaimsDir))
	if err != nil {
		return sum, err
	}
	defer claims.Close()
	var mu sync.Mutex
	var ran []string // keys of the records this run wrote
	type heldCell struct {
		cell   Cell
		holder string
	}
	held := make(map[string]heldCell) // cells claimed by other processes
	err = workpool.Each(ctx, todo, parallel, func(ctx context.Context, c Cell) error {
		key := c.Key()
		if opts.afterCell != nil {
			defer opts.afterCell(key) // after the claim is released
		}
		_, storedAtStart := failed[key]
		// Another process sharing the directory may hold the cell, or
		// have run it since the records were read (see ClaimsDir).
		elsewhere := func() bool {
			if storedAtStart {
				return false
			}
			r, err := readRecordFile(filepath.Join(sum.Dir, RecordsDir, key+".json"))
			return err == nil && r.Cell == c && p.Manifest.Accepts(r)
		}
		if elsewhere() {
			mu.Lock()
			sum.Elsewhere++
			mu.Unlock()
			return nil
		}
		ok, err := claims.Acquire(key)
		if err != nil {
			return err
		}
		if !ok || elsewhere() {
			if ok {
				_ = claims.Release(key) // a finished record settles the cell
			}
			mu.Lock()
			sum.Elsewhere++
			if !ok {
				held[key] = heldCell{c, claims.Holder(key)}
			}
			mu.Unlock()
			return nil
		}
		defer func() { _ = claims.Release(key) }()
		t.Started()
		r, err := p.runCell(ctx, c, perChain, t)
		if err == nil {
			err = writeRecord(sum.Dir, r)
		}
		if err != nil {
			t.Stopped()
			return err
		}
		t.Finished(r.Error != "")
		mu.Lock()
		sum.Ran++
		ran = append(ran, key)
		if r.Error != "" {
			sum.Failed++
		}
		mu.Unlock()
		return nil
	})
	t.Close()
	sum.Elapsed = time.Since(start)
	if err != nil {
		return sum, fmt.Errorf("study %s: %w", p.Config.Name, err)
	}
	if err := recordsStillThere(sum.Dir, ran); err != nil {
		return sum, fmt.Errorf("study %s: %w", p.Config.Name, err)
	}
	for key, h := range held {
		r, err := readRecordFile(filepath.Join(sum.Dir, RecordsDir, key+".json"))
		if err != nil || r.Cell != h.cell || !p.Manifest.Accepts(r) {
			sum.Held = append(sum.Held, h.holder)
		}
	}
	sort.Strings(sum.Held)
	return sum, nil
}

// recordsStillThere checks that the records of the keys that a run wrote
// to dir are still there, so that a run never reports as stored what
// another process discarded (the study lock prevents that, where the file
// system keeps locks).
func recordsStillThere(dir string, keys []string) error {
	var gone []string
	for _, key := range keys {
		if _, err := os.Stat(filepath.Join(dir, RecordsDir, key+".json")); err != nil {
			gone = append(gone, key)
		}
	}
	if len(gone) > 0 {
		sort.Strings(gone)
		return fmt.Errorf("%d of the %d records this run wrote to %s are gone, such as %s: another process discarded them (a run with --force?); run again to redo them",
			len(gone), len(keys), dir, gone[0])
	}
	return nil
}

// readRecordFile reads one record file.
func readRecordFile(path string) (*Record, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var r Record
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, err
	}
	return &r, nil
}
