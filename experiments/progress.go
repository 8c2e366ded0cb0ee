package experiments

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Progress says how a study is getting on: cells done of total, chains
// running, time elapsed and an estimate of the time left.
type Progress struct {
	// W receives the reports, typically standard error.
	W io.Writer
	// Terminal redraws one status line in place (W is a terminal) instead
	// of writing a line every Interval.
	Terminal bool
	// Interval is the time between plain lines. Zero or less means 30
	// seconds. A terminal is redrawn four times a second.
	Interval time.Duration
}

// tracker counts a running study's progress; its methods are safe for
// concurrent use, and its zero value (with nil Progress) reports nothing.
type tracker struct {
	p     *Progress
	study string
	start time.Time

	total, stored int   // cells in this shard; stored before this run
	totalWork     int64 // work of the cells to run (sweeps x rank)

	done, failed, running atomic.Int64
	work                  atomic.Int64 // work finished in this run

	stop chan struct{}
	wg   sync.WaitGroup
}

// newTracker starts reporting on p (nil for none) every interval.
func newTracker(p *Progress, study string, total, stored int, totalWork int64) *tracker {
	t := &tracker{p: p, study: study, start: time.Now(), total: total, stored: stored, totalWork: totalWork, stop: make(chan struct{})}
	if p == nil || p.W == nil {
		return t
	}
	every := p.Interval
	if every <= 0 {
		every = 30 * time.Second
	}
	if p.Terminal {
		every = 250 * time.Millisecond
	}
	t.wg.Add(1)
	go func() {
		defer t.wg.Done()
		tick := time.NewTicker(every)
		defer tick.Stop()
		for {
			select {
			case <-t.stop:
				return
			case <-tick.C:
				t.print(false)
			}
		}
	}()
	return t
}

// begin writes one line saying what the run is about to do: the cells to
// run, the cores and chains at once, and where the records go. Without
// it, standard error would stay silent until the first Interval had
// passed when it is not a terminal.
func (t *tracker) begin(todo, cores, chains int, dir string) {
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

func (t *tracker) addWork(n int64) { t.work.Add(n) }

func (t *tracker) started() { t.running.Add(1) }

func (t *tracker) finished(failed bool) {
	t.running.Add(-1)
	t.done.Add(1)
	if failed {
		t.failed.Add(1)
	}
}

// close stops the reports and writes the final line.
func (t *tracker) close() {
	close(t.stop)
	t.wg.Wait()
	if t.p != nil && t.p.W != nil {
		t.print(true)
	}
}

// line returns the status line at elapsed time d.
func (t *tracker) line(d time.Duration) string {
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

func (t *tracker) print(final bool) {
	s := t.line(time.Since(t.start))
	switch {
	case t.p.Terminal && final:
		s = "\r\x1b[K" + s + "\n"
	case t.p.Terminal:
		s = "\r\x1b[K" + s
	default:
		s += "\n"
	}
	// Progress is advisory: a closed terminal must not stop the study.
	_, _ = io.WriteString(t.p.W, s)
}

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
