// Package progress reports how long work is getting on: the cells of a
// study (CellMeter) and the sweeps of a fit (SweepMeter), as a status line
// redrawn in place on a terminal or a plain line every interval
// elsewhere, with the time elapsed and an estimate of the time left.
package progress

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bnmf-lab/bnmf/bnmf"
)

// Output says where and how often progress is reported. A nil *Output
// reports nothing.
type Output struct {
	// W receives the reports, typically standard error.
	W io.Writer
	// Terminal redraws one status line in place (W is a terminal) instead
	// of writing a line every Interval.
	Terminal bool
	// Interval is the time between plain lines. Zero or less means 30
	// seconds. A terminal is redrawn four times a second.
	Interval time.Duration
}

// CellMeter counts a running study's progress: cells done of total,
// chains running, time elapsed and an estimate of the time left from the
// work done (sweeps x rank). Its methods are safe for concurrent use;
// make one with Output.Cells.
type CellMeter struct {
	p     *Output
	study string
	start time.Time

	total, stored int   // cells in this shard; stored before this run
	totalWork     int64 // work of the cells to run (sweeps x rank)

	done, failed, running atomic.Int64
	work                  atomic.Int64 // work finished in this run

	reports *reporter
}

// Cells starts reporting on a study of total cells, stored of them
// before this run, whose cells to run hold totalWork units of work (the
// sum of sweeps x rank). Close stops the reports and writes the final
// line. A nil p reports nothing.
func (p *Output) Cells(study string, total, stored int, totalWork int64) *CellMeter {
	t := &CellMeter{p: p, study: study, start: time.Now(), total: total, stored: stored, totalWork: totalWork}
	t.reports = p.start(t.print)
	return t
}

// reporter calls a print function on a ticker until closed.
type reporter struct {
	stop chan struct{}
	wg   sync.WaitGroup
}

// start calls print(false) every p.Interval, or four times a second on a
// terminal, until the reporter is closed. It returns nil, a reporter that
// reports nothing, when p or p.W is nil.
func (p *Output) start(print func(final bool)) *reporter {
	if p == nil || p.W == nil {
		return nil
	}
	every := p.Interval
	if every <= 0 {
		every = 30 * time.Second
	}
	if p.Terminal {
		every = 250 * time.Millisecond
	}
	r := &reporter{stop: make(chan struct{})}
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		tick := time.NewTicker(every)
		defer tick.Stop()
		for {
			select {
			case <-r.stop:
				return
			case <-tick.C:
				print(false)
			}
		}
	}()
	return r
}

// close stops the reports and calls print(true) for the final line.
func (r *reporter) close(print func(final bool)) {
	if r == nil {
		return
	}
	close(r.stop)
	r.wg.Wait()
	print(true)
}

// status writes the status line s: redrawn in place on a terminal, with a
// newline after the final one; one line each time otherwise.
func (p *Output) status(s string, final bool) {
	switch {
	case p.Terminal && final:
		s = "\r\x1b[K" + s + "\n"
	case p.Terminal:
		s = "\r\x1b[K" + s
	default:
		s += "\n"
	}
	// Progress is advisory: a closed terminal must not stop the work.
	_, _ = io.WriteString(p.W, s)
}

// Begin writes one line saying what the run is about to do: the cells to
// run, the cores and chains at once, and where the records go. Without
// it, standard error would stay silent until the first Interval had
// passed when it is not a terminal.
func (t *CellMeter) Begin(todo, cores, chains int, dir string) {
	if t.p == nil || t.p.W == nil {
		return
	}
	s := fmt.Sprintf("%s: %d of %d cells to run (%d stored) on %d %s, %d %s at once; records go to %s\n",
		t.study, todo, t.total, t.stored, cores, countNoun(cores, "core", "cores"), chains, countNoun(chains, "chain", "chains"), dir)
	// Progress is advisory: a closed terminal must not stop the study.
	_, _ = io.WriteString(t.p.W, s)
}

// countNoun returns one when n is 1 and many otherwise.
func countNoun(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// AddWork counts n units of work done.
func (t *CellMeter) AddWork(n int64) { t.work.Add(n) }

// Started counts a cell that starts running.
func (t *CellMeter) Started() { t.running.Add(1) }

// Stopped counts a started cell that stopped without finishing (it was
// cancelled or could not be stored), so that it neither runs nor is done.
func (t *CellMeter) Stopped() { t.running.Add(-1) }

// Finished counts a started cell that finished, failed or not.
func (t *CellMeter) Finished(failed bool) {
	t.running.Add(-1)
	t.done.Add(1)
	if failed {
		t.failed.Add(1)
	}
}

// Close stops the reports and writes the final line.
func (t *CellMeter) Close() { t.reports.close(t.print) }

// line returns the status line at elapsed time d.
func (t *CellMeter) line(d time.Duration) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d/%d cells", t.study, t.stored+int(t.done.Load()), t.total)
	if f := t.failed.Load(); f > 0 {
		fmt.Fprintf(&b, " (%d failed)", f)
	}
	fmt.Fprintf(&b, ", %d running, %s elapsed", t.running.Load(), formatDuration(d))
	if w := t.work.Load(); w > 0 && t.totalWork > w {
		left := time.Duration(float64(d) * float64(t.totalWork-w) / float64(w))
		fmt.Fprintf(&b, ", ETA %s", formatDuration(left))
	}
	return b.String()
}

func (t *CellMeter) print(final bool) { t.p.status(t.line(time.Since(t.start)), final) }

// formatDuration writes d rounded to seconds, such as "1h02m03s" or "45s".
func formatDuration(d time.Duration) string {
	d = d.Round(time.Second)
	h, m, s := int(d.Hours()), int(d.Minutes())%60, int(d.Seconds())%60
	switch {
	case h > 0:
		return fmt.Sprintf("%dh%02dm%02ds", h, m, s)
	case m > 0:
		return fmt.Sprintf("%dm%02ds", m, s)
	}
	return fmt.Sprintf("%ds", s)
}

// SweepMeter reports how one fit of several chains is getting on: sweeps
// done of the total over all chains, time elapsed and an estimate of the
// time left. It is a bnmf.Recorder, safe for concurrent use; make one with
// Output.Sweeps.
type SweepMeter struct {
	p       *Output
	label   string
	total   int64
	start   time.Time
	done    atomic.Int64
	reports *reporter
}

// Sweeps starts reporting, on lines that begin with label, a fit of total
// sweeps (chains x sweeps per chain) that passes the returned meter as
// its bnmf.Settings.Recorder. Close stops the reports and writes the
// final line. A nil p reports nothing.
func (p *Output) Sweeps(label string, total int) *SweepMeter {
	m := &SweepMeter{p: p, label: label, total: int64(total), start: time.Now()}
	m.reports = p.start(m.print)
	return m
}

// Record counts one sweep.
func (m *SweepMeter) Record(bnmf.SweepStats) error {
	m.done.Add(1)
	return nil
}

// Close stops the reports and writes the final line.
func (m *SweepMeter) Close() { m.reports.close(m.print) }

// line returns the status line at elapsed time d.
func (m *SweepMeter) line(d time.Duration) string {
	done := m.done.Load()
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d/%d sweeps, %s elapsed", m.label, done, m.total, formatDuration(d))
	if done > 0 && m.total > done {
		left := time.Duration(float64(d) * float64(m.total-done) / float64(done))
		fmt.Fprintf(&b, ", ETA %s", formatDuration(left))
	}
	return b.String()
}

// print writes the status line; the final line has no ETA, since a fit
// may end before its total (bnmf fit --sweeps auto stops its chains when
// they have converged).
func (m *SweepMeter) print(final bool) {
	line := m.line(time.Since(m.start))
	if final {
		line, _, _ = strings.Cut(line, ", ETA")
	}
	m.p.status(line, final)
}
