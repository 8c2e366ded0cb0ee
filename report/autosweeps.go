package report

import (
	"fmt"
	"io"
	"slices"

	"github.com/bnmf-lab/bnmf/bnmf"
	"github.com/bnmf-lab/bnmf/experiments"
)

// autoSweepsHeading heads the table of how the chains of a study with
// sweeps: auto stopped.
const autoSweepsHeading = "Sweeps to convergence (sweeps: auto)"

// autoSweepsCaption is that table's caption; %d is the cap.
const autoSweepsCaption = "Per setting, over its repeats: the sweeps each cell's chains ran (mean and range; the first half of them burn-in), how many cells stopped converged (R-hat below 1.01 and bulk- and tail-ESS of 400 or more, pooled over the chains, for sigma^2, the held-out MSE and the worst tracked prediction), how many reached the cap of %d sweeps without converging and how many stopped on a stuck chain, and the held-out MSE (mean ± standard error over repeats) of the pooled chains where they stopped."

// autoRow is one setting's summary of the verdicts of sweeps: auto.
type autoRow struct {
	key                          Key
	sweeps                       []float64
	converged, notConverged, stk int
}

// autoSweepRows summarises, per setting in the order of the study's
// groups, the records that carry a sweeps: auto verdict; nil when none
// does.
func autoSweepRows(s *StudySummary) []autoRow {
	byKey := make(map[Key]*autoRow)
	for i := range s.Study.Records {
		r := &s.Study.Records[i]
		a := r.AutoSweeps
		if a == nil || r.Error != "" || !s.Study.Manifest.Accepts(r) {
			continue
		}
		k := keyOf(r.Cell)
		row, ok := byKey[k]
		if !ok {
			row = &autoRow{key: k}
			byKey[k] = row
		}
		row.sweeps = append(row.sweeps, float64(a.Sweeps))
		switch a.Verdict {
		case bnmf.Converged:
			row.converged++
		case bnmf.Stuck:
			row.stk++
		default:
			row.notConverged++
		}
	}
	var rows []autoRow
	for _, g := range s.Groups {
		if row, ok := byKey[g.Key]; ok {
			rows = append(rows, *row)
		}
	}
	return rows
}

// hasAutoSweeps reports whether any record of the study carries a
// sweeps: auto verdict.
func (s *StudySummary) hasAutoSweeps() bool {
	return slices.ContainsFunc(s.Study.Records, func(r experiments.Record) bool { return r.AutoSweeps != nil })
}

// WriteAutoSweepsTable writes, for each setting whose records carry a
// sweeps: auto verdict, the sweeps their chains ran, how many converged,
// reached the cap or stopped stuck, and their held-out MSE (for studies
// with held-out entries).
func WriteAutoSweepsTable(w io.Writer, s *StudySummary) error {
	axis, heldOut := experiments.ManifestAxis(&s.Study.Manifest)
	t := mdTable{header: []string{"Model", "K", "Setting", "Repeats", "Sweeps (mean)", "Sweeps (range)", "Converged", "At the cap", "Stuck"}}
	if heldOut {
		t.header = append(t.header, "Held-out MSE")
	}
	for _, r := range autoSweepRows(s) {
		st := newStat(r.sweeps)
		row := []string{r.key.Model, fmt.Sprint(r.key.Rank), settingOf(r.key, axis), fmt.Sprint(len(r.sweeps)),
			fmt.Sprintf("%.0f", st.Mean), fmt.Sprintf("%.0f–%.0f", slices.Min(r.sweeps), slices.Max(r.sweeps)),
			fmt.Sprint(r.converged), fmt.Sprint(r.notConverged), fmt.Sprint(r.stk)}
		if heldOut {
			mse := "—"
			if g := s.Group(r.key); g != nil {
				mse = fmtMeanSE(g.TestMSE)
			}
			row = append(row, mse)
		}
		t.rows = append(t.rows, row)
	}
	return t.render(w)
}
