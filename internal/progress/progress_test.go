package progress

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/bnmf-lab/bnmf/bnmf"
)

func TestProgressLine(t *testing.T) {
	tr := &CellMeter{study: "quick", total: 40, stored: 10, totalWork: 300}
	tr.done.Store(5)
	tr.failed.Store(1)
	tr.running.Store(2)
	tr.work.Store(100)
	// 100 of 300 units of work took 90 s, so 200 more take 180 s.
	got := tr.line(90 * time.Second)
	want := "quick: 15/40 cells (1 failed), 2 running, 1m30s elapsed, ETA 3m00s"
	if got != want {
		t.Errorf("line\n got %q\nwant %q", got, want)
	}
	tr.work.Store(0)
	if got, want := tr.line(3*time.Hour+time.Second), "quick: 15/40 cells (1 failed), 2 running, 3h00m01s elapsed"; got != want {
		t.Errorf("line without work done\n got %q\nwant %q", got, want)
	}
}

func TestProgressOutput(t *testing.T) {
	tests := []struct {
		name     string
		terminal bool
		prefix   string
	}{
		{"plain", false, "quick: 1/4 cells, 0 running"},
		{"terminal", true, "\r\x1b[Kquick: 1/4 cells, 0 running"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			tr := (&Output{W: &buf, Terminal: tt.terminal, Interval: time.Hour}).Cells("quick", 4, 0, 10)
			tr.Started()
			tr.Finished(false)
			tr.Close()
			got := buf.String()
			if !strings.HasPrefix(got, tt.prefix) || !strings.HasSuffix(got, "\n") || strings.Count(got, "\n") != 1 {
				t.Errorf("output %q, want one final line starting %q", got, tt.prefix)
			}
		})
	}
}

func TestSweepMeter(t *testing.T) {
	m := &SweepMeter{label: "fit GRRN", total: 2000}
	m.done.Store(500)
	// 500 of 2000 sweeps took 60 s, so 1500 more take 180 s.
	if got, want := m.line(time.Minute), "fit GRRN: 500/2000 sweeps, 1m00s elapsed, ETA 3m00s"; got != want {
		t.Errorf("line\n got %q\nwant %q", got, want)
	}
	var buf bytes.Buffer
	m = (&Output{W: &buf, Terminal: true, Interval: time.Hour}).Sweeps("fit", 3)
	for range 3 {
		if err := m.Record(bnmf.SweepStats{}); err != nil {
			t.Fatal(err)
		}
	}
	m.Close()
	if got := buf.String(); !strings.HasPrefix(got, "\r\x1b[Kfit: 3/3 sweeps, ") || !strings.HasSuffix(got, "\n") {
		t.Errorf("terminal output %q", got)
	}
	// A fit that stops early ends on a line without an ETA.
	buf.Reset()
	m = (&Output{W: &buf, Terminal: false, Interval: time.Hour}).Sweeps("auto", 8)
	for range 2 {
		if err := m.Record(bnmf.SweepStats{}); err != nil {
			t.Fatal(err)
		}
	}
	m.Close()
	if got := buf.String(); !strings.HasPrefix(got, "auto: 2/8 sweeps, ") || strings.Contains(got, "ETA") {
		t.Errorf("final line of a fit that stopped early: %q", got)
	}
	var none *Output
	none.Sweeps("quiet", 1).Close() // reports nothing, and does not panic
}
