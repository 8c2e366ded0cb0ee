package report

import (
	"bytes"
	"fmt"
	"io"

	"github.com/bnmf-lab/bnmf/experiments"
)

// runtimeReport is the report of a runtime study (Brouwer & Lio's
// runtime results): seconds per sweep against K, and theirs per
// iteration with the ratio.
type runtimeReport struct{}

// blioRuntime is upstream's name of the study.
const blioRuntime = "runtime"

// runtimeCaveat says what a time per sweep depends on.
const runtimeCaveat = " Wall-clock times depend on the machine and on what else ran on it (other cells of the study share its cores, each chain gets max(1, workers/running) sampler workers, and other programs compete); they compare only within a study run on an otherwise idle machine, one cell at a time (bnmf run -workers 1)."

func (runtimeReport) figure(s *StudySummary, pal Palette) (*Figure, string, error) {
	f, err := rankFigure(s, pal, "seconds per sweep against K", "seconds per sweep", 0,
		func(g *Group) Stat { return g.SecondsPerSweep }, "Points: mean over repeats; bars: ± one standard error.")
	return f, "runtime.png", err
}

func (runtimeReport) tables(s *StudySummary, _ PaperValues, add tableAdder) error {
	pub, err := publishedFor(s, blioRuntime)
	if err != nil {
		return err
	}
	caption := statsCaption + " of the seconds per sweep (the chain's wall-clock time over its sweeps), a row per model and K; " +
		"\"load\" is the range of the machine's one-minute load average at the start and end of its cells, \"sampler workers\" those of its chains." + runtimeCaveat +
		publishedCaption(pub, s, "their seconds per iteration (one run per K, Python 2 on their machine in 2017), and the ratio of our mean to theirs")
	return add("runtime.md", "Seconds per sweep against K", caption,
		func(b *bytes.Buffer) error { return writeRuntimeTable(b, s, pub) })
}

// theirSeconds returns their seconds per iteration of model at rank k.
func theirSeconds(pub *published, model string, k int) Stat {
	return pub.stat(model, func(r *publishedValue) bool {
		return r.Metric == "time_per_iteration" && r.Setting == "K" && r.SettingValue == float64(k)
	})
}

// writeRuntimeTable writes a row per model and rank: our seconds per
// sweep and, where they timed the model at that K, theirs and the ratio.
func writeRuntimeTable(w io.Writer, s *StudySummary, pub *published) error {
	loads := runtimeLoads(s)
	t := mdTable{header: []string{"Model", "K", "seconds per sweep", "load", "sampler workers"}}
	if pub != nil {
		t.header = append(t.header, "seconds per iteration"+blioColumn, "ratio (ours / theirs)")
	}
	for _, m := range s.Models {
		for _, k := range s.Ranks {
			g := s.Group(Key{Model: m, Rank: k})
			if g == nil {
				continue
			}
			l := loads[Key{Model: m, Rank: k}]
			row := []string{m, fmt.Sprintf("%d", k), statCell(g, g.SecondsPerSweep, false, &t.notes), l.load(), l.workers()}
			if pub != nil {
				theirs := theirSeconds(pub, m, k)
				ratio := "—"
				if theirs.N > 0 && g.SecondsPerSweep.N > 0 && theirs.Mean > 0 {
					ratio = fmtSig(g.SecondsPerSweep.Mean/theirs.Mean, 2)
				}
				row = append(row, blioCell(theirs), ratio)
			}
			t.rows = append(t.rows, row)
		}
	}
	return t.render(w)
}

// runtimeLoad is the range of the load averages and sampler workers the
// records of one model and rank kept.
type runtimeLoad struct {
	lo, hi           float64
	minW, maxW, seen int
	loads            int
}

// load formats the range of load averages, "—" for none.
func (l runtimeLoad) load() string {
	switch {
	case l.loads == 0:
		return "—"
	case l.lo == l.hi:
		return fmtG(l.lo)
	}
	return fmtG(l.lo) + "–" + fmtG(l.hi)
}

// workers formats the range of sampler workers, "—" for none.
func (l runtimeLoad) workers() string {
	switch {
	case l.seen == 0:
		return "—"
	case l.minW == l.maxW:
		return fmt.Sprintf("%d", l.minW)
	}
	return fmt.Sprintf("%d–%d", l.minW, l.maxW)
}

// runtimeLoads returns, per model and rank, the range of the load
// averages and sampler workers of s's records (experiments.Record).
func runtimeLoads(s *StudySummary) map[Key]runtimeLoad {
	expected := make(map[experiments.Cell]bool)
	for _, c := range expectedCells(s.Study.Manifest) {
		expected[c] = true
	}
	records, _ := acceptRecords(s.Study, expected)
	out := make(map[Key]runtimeLoad)
	for _, r := range records {
		k := keyOf(r.Cell)
		l := out[k]
		for _, x := range r.LoadAverage {
			if l.loads == 0 || x < l.lo {
				l.lo = x
			}
			if l.loads == 0 || x > l.hi {
				l.hi = x
			}
			l.loads++
		}
		if r.SamplerWorkers > 0 {
			if l.seen == 0 || r.SamplerWorkers < l.minW {
				l.minW = r.SamplerWorkers
			}
			l.maxW = max(l.maxW, r.SamplerWorkers)
			l.seen++
		}
		out[k] = l
	}
	return out
}

func (runtimeReport) findings(s *StudySummary, _ PaperValues) string {
	pub, err := publishedFor(s, blioRuntime)
	if err != nil {
		pub = nil // the tables report the error
	}
	lo, hi, n := 0.0, 0.0, 0
	for _, m := range s.Models {
		for _, k := range s.Ranks {
			g := s.Group(Key{Model: m, Rank: k})
			theirs := theirSeconds(pub, m, k)
			if g == nil || g.SecondsPerSweep.N == 0 || theirs.N == 0 || !(theirs.Mean > 0) {
				continue
			}
			r := g.SecondsPerSweep.Mean / theirs.Mean
			if n == 0 || r < lo {
				lo = r
			}
			if n == 0 || r > hi {
				hi = r
			}
			n++
		}
	}
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("Our time per sweep is %s to %s times Brouwer & Lio's time per iteration over the %d model and K pairs both timed (different machines and loads; see the caveat under the table).",
		fmtSig(lo, 2), fmtSig(hi, 2), n)
}

func (runtimeReport) grid(*StudySummary) string { return "" }
