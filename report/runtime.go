package report

import (
	"bytes"
	"fmt"
	"io"
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
	caption := statsCaption + " of the seconds per sweep (the chain's wall-clock time over its sweeps), a row per model and K." + runtimeCaveat +
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
	t := mdTable{header: []string{"Model", "K", "seconds per sweep"}}
	if pub != nil {
		t.header = append(t.header, "seconds per iteration"+blioColumn, "ratio (ours / theirs)")
	}
	for _, m := range s.Models {
		for _, k := range s.Ranks {
			g := s.Group(Key{Model: m, Rank: k})
			if g == nil {
				continue
			}
			row := []string{m, fmt.Sprintf("%d", k), statCell(g, g.SecondsPerSweep, false, &t.notes)}
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
