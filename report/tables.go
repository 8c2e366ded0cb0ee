package report

import (
	"fmt"
	"io"
	"slices"
	"strings"
)

// Table2Fractions returns the fractions unobserved of the paper's Table 2.
func Table2Fractions() []float64 { return []float64{0.97, 0.98} }

// WriteDataTable writes the data description, the paper's Table 1: for
// each dataset (and size) in the studies' manifests, the rows, columns,
// fraction observed and observed entries after cleaning. A dataset is
// named by its label (experiments.Manifest.Label), and a dataset of the
// paper's also by the paper's name, with the paper's values beside ours;
// the "(paper)" columns appear only when some dataset is the paper's, and
// read "—" for the others.
func WriteDataTable(w io.Writer, sum *Summary, paper PaperValues) error {
	type row struct {
		dataset, label       string
		rows, cols, observed int
		studies              []string
	}
	var rows []*row
	withPaper := false
	for _, s := range sum.Studies {
		m := s.Study.Manifest
		i := slices.IndexFunc(rows, func(r *row) bool {
			return r.dataset == m.Dataset && r.label == m.Label() && r.rows == m.Rows && r.cols == m.Cols && r.observed == m.Observed
		})
		if i < 0 {
			rows = append(rows, &row{dataset: m.Dataset, label: m.Label(), rows: m.Rows, cols: m.Cols, observed: m.Observed})
			i = len(rows) - 1
		}
		rows[i].studies = append(rows[i].studies, m.Study)
		if _, ok := paper.Dataset(m.Dataset); ok {
			withPaper = true
		}
	}
	t := mdTable{header: []string{"Dataset", "Studies", "Rows", "Columns", "Fraction observed", "Observed entries"}}
	if withPaper {
		t.header = []string{"Dataset", "Studies", "Rows", "Rows (paper)", "Columns", "Columns (paper)",
			"Fraction observed", "Fraction observed (paper)", "Observed entries", "Observed entries (paper)"}
	}
	for _, r := range rows {
		name := r.label
		if r.label != r.dataset {
			name = fmt.Sprintf("%s (%s)", r.label, r.dataset)
		}
		fraction := "—"
		if r.rows > 0 && r.cols > 0 && r.observed > 0 {
			fraction = fmt.Sprintf("%.3f", float64(r.observed)/(float64(r.rows)*float64(r.cols)))
		}
		ours := []string{intOrDash(r.rows), intOrDash(r.cols), fraction, intOrDash(r.observed)}
		if !withPaper {
			t.rows = append(t.rows, append([]string{name, strings.Join(r.studies, ", ")}, ours...))
			continue
		}
		theirs := []string{"—", "—", "—", "—"}
		if p, ok := paper.Dataset(r.dataset); ok {
			name = fmt.Sprintf("%s (%s)", p.Name, r.label)
			theirs = []string{fmtInt(p.Rows), fmtInt(p.Cols), fmt.Sprintf("%.3f", p.FractionObserved), fmtInt(p.Observed)}
		}
		cells := []string{name, strings.Join(r.studies, ", ")}
		for i := range ours {
			cells = append(cells, ours[i], theirs[i])
		}
		t.rows = append(t.rows, cells)
	}
	return t.render(w)
}

func intOrDash(n int) string {
	if n <= 0 {
		return "—"
	}
	return fmtInt(n)
}

// WriteHeldOutTable writes the held-out MSE at one fraction unobserved of
// a sparsity study, the paper's Table 2: a row per rank, for every model
// the held-out MSE as mean ± standard error over repeats (the lowest per
// row in bold). In a study that repeats the paper's (s.Paper) on data
// and at a fraction of its Table 2, each of the paper's models has its
// published value beside it, "—" where the paper gives none (it has no
// NMF column); other tables get no "(paper)" columns. The data's variance
// and the skill against the baselines are not columns: the caption gives
// the one, WriteSkillTable the other.
func WriteHeldOutTable(w io.Writer, s *StudySummary, fraction float64, paper PaperValues) error {
	cols := newHeldOutColumns(s, testMSE(), nil)
	dataset := s.Study.Manifest.Dataset
	published := s.Paper != nil && paper.hasHeldOutMSE(dataset, fraction)
	withPaper := func(m string) bool { return published && isPaperModel(m) }
	t := mdTable{header: append([]string{"K"}, cols.leadHeader()...)}
	t.notes = s.warningNotes()
	for _, m := range s.Models {
		t.header = append(t.header, m)
		if withPaper(m) {
			t.header = append(t.header, m+" (paper)")
		}
		if cols.skill {
			t.header = append(t.header, m+" skill")
		}
	}
	for _, k := range s.Ranks {
		groups, stats := s.row(func(m string) Key { return Key{Model: m, Rank: k, Fraction: fraction} },
			func(g *Group) Stat { return g.TestMSE })
		best := bestOf(stats, false)
		lead, ref := cols.leadCells(groups)
		cells := append([]string{fmt.Sprintf("K = %d", k)}, lead...)
		for i, m := range s.Models {
			cells = append(cells, statCell(groups[i], stats[i], best[i], &t.notes))
			if withPaper(m) {
				p := "—"
				if v, ok := paper.HeldOutMSE(dataset, fraction, m, k); ok {
					p = fmtPaper(v)
				}
				cells = append(cells, p)
			}
			if cols.skill {
				cells = append(cells, cols.skillCell(groups[i], ref))
			}
		}
		t.rows = append(t.rows, cells)
	}
	return t.render(w)
}

// WriteSparsityTable writes the numbers behind Fig. 5: held-out MSE, mean
// ± standard error over repeats, a row per rank and fraction unobserved, a
// column per model, the lowest per row in bold.
func WriteSparsityTable(w io.Writer, s *StudySummary) error {
	cols := newHeldOutColumns(s, testMSE(), nil)
	t := mdTable{header: append([]string{"K", "Fraction unobserved"}, cols.leadHeader()...)}
	t.notes = s.warningNotes()
	t.header = append(t.header, cols.modelHeader()...)
	for _, k := range s.Ranks {
		for _, f := range s.Grid {
			groups, stats := s.row(func(m string) Key { return Key{Model: m, Rank: k, Fraction: f} },
				func(g *Group) Stat { return g.TestMSE })
			t.rows = append(t.rows, cols.row([]string{fmt.Sprintf("K = %d", k), fmtG(f)}, groups, stats, false, &t.notes))
		}
	}
	return t.render(w)
}

// WriteConvergenceTable writes the convergence summary: the final train
// MSE, mean ± standard error over repeats, a row per rank, a column per
// model, the lowest per row in bold.
func WriteConvergenceTable(w io.Writer, s *StudySummary) error {
	t := mdTable{header: append([]string{"K"}, s.Models...)}
	t.notes = s.warningNotes()
	for _, k := range s.Ranks {
		groups, stats := s.row(func(m string) Key { return Key{Model: m, Rank: k} },
			func(g *Group) Stat { return g.TrainMSE })
		t.rows = append(t.rows, statRow([]string{fmt.Sprintf("K = %d", k)}, groups, stats, false, &t.notes))
	}
	return t.render(w)
}

// WriteNoiseTable writes the numbers behind Fig. 4: var(data)/MSE (higher
// is better), measured against the noisy test values or, if clean, the
// clean ones; mean ± standard error over repeats, a row per rank and noise
// ratio, a column per model, the highest per row in bold. When the records
// carry it, the variance of the training values (noisy, or clean) heads
// each row; the skill against the baselines is in WriteSkillTable.
func WriteNoiseTable(w io.Writer, s *StudySummary, clean bool) error {
	metric := func(g *Group) Stat { return g.VarOverMSE }
	mse, variance := testMSE(), func(g *Group) Stat { return g.DataVariance }
	if clean {
		metric = func(g *Group) Stat { return g.VarOverMSEClean }
		mse, variance = cleanMSE(), func(g *Group) Stat { return g.CleanVariance }
	}
	cols := newHeldOutColumns(s, mse, recordedVariance(s, variance))
	t := mdTable{header: append([]string{"K", "Noise-to-signal ratio"}, cols.leadHeader()...)}
	t.notes = s.warningNotes()
	t.header = append(t.header, cols.modelHeader()...)
	for _, k := range s.Ranks {
		for _, r := range s.Grid {
			groups, stats := s.row(func(m string) Key { return Key{Model: m, Rank: k, NoiseRatio: r} }, metric)
			t.rows = append(t.rows, cols.row([]string{fmt.Sprintf("K = %d", k), fmtG(r)}, groups, stats, true, &t.notes))
		}
	}
	return t.render(w)
}

// WriteTimingTable writes seconds per sweep, mean ± standard error over
// the cells of each model and rank (pooled over fractions or noise
// ratios), a row per rank and a column per model.
func WriteTimingTable(w io.Writer, s *StudySummary) error {
	t := mdTable{header: append([]string{"K"}, s.Models...)}
	for _, k := range s.Ranks {
		cells := []string{fmt.Sprintf("K = %d", k)}
		for _, m := range s.Models {
			i := slices.IndexFunc(s.Timing, func(r RankStat) bool { return r.Model == m && r.Rank == k })
			if i < 0 {
				cells = append(cells, "—")
				continue
			}
			r := s.Timing[i]
			c := fmtMeanSE(r.Stat)
			if r.N < r.Expected {
				c += fmt.Sprintf(" (n=%d/%d)", r.N, r.Expected)
			}
			cells = append(cells, c)
		}
		t.rows = append(t.rows, cells)
	}
	return t.render(w)
}

// row looks up, for each model of the study, the group of key(model) and
// its statistic.
func (s *StudySummary) row(key func(model string) Key, metric func(*Group) Stat) ([]*Group, []Stat) {
	groups := make([]*Group, len(s.Models))
	stats := make([]Stat, len(s.Models))
	for i, m := range s.Models {
		if g := s.Group(key(m)); g != nil {
			groups[i], stats[i] = g, metric(g)
		}
	}
	return groups, stats
}

// statRow formats a table row: the leading cells, then a statCell per
// group with the best in bold.
func statRow(lead []string, groups []*Group, stats []Stat, higherBetter bool, notes *footnotes) []string {
	best := bestOf(stats, higherBetter)
	for i := range groups {
		lead = append(lead, statCell(groups[i], stats[i], best[i], notes))
	}
	return lead
}

// WriteWarnings writes every warning of a study as a Markdown list: the
// study's own, then the settings' missing repeats, then each kind of
// setting warning once (failures, values left out, the records'
// warnings), numbered as the tables' † marks, with the number of settings
// it affects and their names and repeats. A study without warnings gets a
// sentence saying so.
func WriteWarnings(w io.Writer, s *StudySummary) error {
	var b strings.Builder
	for _, warn := range s.Warnings {
		fmt.Fprintf(&b, "- %s\n", oneLine(warn))
	}
	if s.Found == 0 && s.Expected > 0 {
		fmt.Fprintf(&b, "- No records yet: all %d cells of the manifest are missing.\n", s.Expected)
	}
	var missing []string
	for _, g := range s.Groups {
		if len(g.Missing) > 0 && s.Found > 0 {
			missing = append(missing, fmt.Sprintf("%s (%d of %d: %s)", g.Key, len(g.Missing), g.Expected, repeatList(g.Missing)))
		}
	}
	if n := len(missing); n > 0 {
		fmt.Fprintf(&b, "- Repeats missing in %d %s (marked n=found/expected in the tables): %s\n", n, plural(n, "setting", "settings"), strings.Join(missing, "; "))
	}
	writeWarningKinds(&b, s.warningKinds())
	if b.Len() == 0 {
		b.WriteString("No warnings: every expected cell finished, with finite values and no warning.\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// hasCleanVariant reports whether any group of a noise study carries
// var(data)/MSE against the clean test values.
func (s *StudySummary) hasCleanVariant() bool {
	// Only a noise study's groups have clean test values.
	return slices.ContainsFunc(s.Groups, func(g Group) bool { return g.VarOverMSEClean.N > 0 })
}
