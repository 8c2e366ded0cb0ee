package report

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/bnmf-lab/bnmf/bnmf"
)

// isBaseline reports whether model is a registered baseline
// (bnmf.Spec.Baseline), ignoring case.
func isBaseline(model string) bool {
	for _, s := range bnmf.Specs() {
		if strings.EqualFold(s.Name, model) {
			return s.Baseline
		}
	}
	return false
}

// isPaperModel reports whether model is one of the paper's five
// (bnmf.DefaultNames), ignoring case: the models a "(paper)" column may
// be given.
func isPaperModel(model string) bool {
	for _, m := range bnmf.DefaultNames() {
		if strings.EqualFold(m, model) {
			return true
		}
	}
	return false
}

// mseMetric is a held-out MSE of a group: its statistic over repeats and
// its values by repeat, which skill scores pair.
type mseMetric struct {
	stat     func(*Group) Stat
	byRepeat func(*Group) map[int]float64
}

// testMSE is the held-out MSE against the test values as stored (noisy
// in a noise study).
func testMSE() mseMetric {
	return mseMetric{func(g *Group) Stat { return g.TestMSE }, func(g *Group) map[int]float64 { return g.testByRepeat }}
}

// cleanMSE is a noise study's held-out MSE against the clean test values.
func cleanMSE() mseMetric {
	return mseMetric{func(g *Group) Stat { return g.TestMSEClean }, func(g *Group) map[int]float64 { return g.cleanByRepeat }}
}

// bestBaseline returns the index, in s.Models, of the baseline whose
// group in groups (aligned with s.Models) has the lowest mean MSE, or -1
// when no baseline has one.
func (s *StudySummary) bestBaseline(groups []*Group, mse mseMetric) int {
	best := -1
	for i, m := range s.Models {
		if !isBaseline(m) || groups[i] == nil {
			continue
		}
		st := mse.stat(groups[i])
		if st.N == 0 || !isFinite(st.Mean) {
			continue
		}
		if best < 0 || st.Mean < mse.stat(groups[best]).Mean {
			best = i
		}
	}
	return best
}

// skillStat summarises a model's skill against a reference, 1 -
// MSE/MSE_ref, computed per repeat over the repeats both have with finite
// values (and a positive reference MSE). Repeats share their split in
// every study kind, so the pairing removes the split's noise from the
// comparison; the standard error is that of the paired values.
func skillStat(g, ref *Group, mse mseMetric) Stat {
	if g == nil || ref == nil {
		return newStat(nil)
	}
	a, b := mse.byRepeat(g), mse.byRepeat(ref)
	var xs []float64
	// In order of repeat, so that the sums, and the bytes of the report,
	// do not depend on map order.
	for _, r := range slices.Sorted(maps.Keys(a)) {
		x := a[r]
		y, ok := b[r]
		if !ok || !isFinite(x) || !isFinite(y) || y <= 0 {
			continue
		}
		xs = append(xs, 1-x/y)
	}
	return newStat(xs)
}

// skillCell formats a skill statistic: mean ± standard error, then
// "(n=3/10)" when fewer repeats than expected entered it; "—" without a
// group or a value.
func skillCell(g *Group, st Stat) string {
	if g == nil || st.N == 0 {
		return "—"
	}
	text := fmtMeanSE(st)
	if st.N < g.Expected {
		text += fmt.Sprintf(" (n=%d/%d)", st.N, g.Expected)
	}
	return text
}

// skillCaption explains a skill table of s (WriteSkillTable), or returns
// "" when the study has no baseline.
func skillCaption(s *StudySummary, what string) string {
	bs := s.Baselines()
	switch len(bs) {
	case 0:
		return ""
	case 1:
		return fmt.Sprintf(" A model's skill is 1 − MSE/MSE of %s, the baseline, %s, computed per repeat on the same split: 0 matches the baseline, 1 predicts perfectly, below 0 is worse than the baseline.", bs[0], what)
	}
	return fmt.Sprintf(" A model's skill is 1 − MSE/MSE of the best baseline in the row (of %s, the one with the lowest mean MSE, named in the \"Best baseline\" column), %s, computed per repeat on the same split: 0 matches that baseline, 1 predicts perfectly, below 0 is worse.", strings.Join(bs, ", "), what)
}

// varianceSource gives the data's variance for a row of groups (aligned
// with the study's models), and whether it is known.
type varianceSource func(row []*Group) (float64, bool)

// recordedVariance is a variance the records carry (the training values'
// in a noise study), the mean over repeats of the first group of the row
// that has it: every model of a row trains on the same values. It is nil
// when no record of the study carries it.
func recordedVariance(s *StudySummary, metric func(*Group) Stat) varianceSource {
	if !slices.ContainsFunc(s.Groups, func(g Group) bool { return metric(&g).N > 0 }) {
		return nil
	}
	return func(row []*Group) (float64, bool) {
		for _, g := range row {
			if g == nil {
				continue
			}
			if st := metric(g); st.N > 0 && isFinite(st.Mean) {
				return st.Mean, true
			}
		}
		return 0, false
	}
}

// heldOutColumns are the columns a held-out table adds to each model's
// MSE: the data's variance at the head of each row when it varies from
// row to row (a constant one goes into the caption). The skill against
// the best baseline has a table of its own (WriteSkillTable), so that
// each table answers one question; skill and best are set only there.
type heldOutColumns struct {
	s           *StudySummary
	mse         mseMetric
	variance    varianceSource // nil: no variance column
	skill, best bool
}

func newHeldOutColumns(s *StudySummary, mse mseMetric, variance varianceSource) heldOutColumns {
	return heldOutColumns{s: s, mse: mse, variance: variance}
}

// skillRow is one row of a skill table: its labels and the key of each
// model's group in it.
type skillRow struct {
	labels []string
	key    func(model string) Key
}

// WriteSkillTable writes the skill of every model that is not a baseline
// against the best baseline of each row (see skillStat), mean ± standard
// error over repeats paired by split, the highest per row in bold, with
// the best baseline named at the head of the row when the study has
// several; nothing for a study without baselines.
func WriteSkillTable(w io.Writer, s *StudySummary, labels []string, rows []skillRow, mse mseMetric) error {
	n := len(s.Baselines())
	if n == 0 {
		return nil
	}
	t := mdTable{header: slices.Clone(labels)}
	if n > 1 {
		t.header = append(t.header, "Best baseline")
	}
	var models []int
	for i, m := range s.Models {
		if !isBaseline(m) {
			models = append(models, i)
			t.header = append(t.header, m)
		}
	}
	for _, r := range rows {
		groups, _ := s.row(r.key, mse.stat)
		cells := slices.Clone(r.labels)
		bi := s.bestBaseline(groups, mse)
		if n > 1 {
			name := "—"
			if bi >= 0 {
				name = s.Models[bi]
			}
			cells = append(cells, name)
		}
		stats := make([]Stat, len(models))
		for j, i := range models {
			if bi >= 0 {
				stats[j] = skillStat(groups[i], groups[bi], mse)
			}
		}
		best := bestOf(stats, true)
		for j, i := range models {
			c := skillCell(groups[i], stats[j])
			if best[j] && c != "—" {
				c = "**" + fmtMeanSE(stats[j]) + "**" + c[len(fmtMeanSE(stats[j])):]
			}
			cells = append(cells, c)
		}
		t.rows = append(t.rows, cells)
	}
	return t.render(w)
}

// leadHeader returns the header cells that follow a row's labels.
func (c heldOutColumns) leadHeader() []string {
	var h []string
	if c.variance != nil {
		h = append(h, "var(data)")
	}
	if c.best {
		h = append(h, "Best baseline")
	}
	return h
}

// modelHeader returns the header cells of the models: each model, then
// its skill when the study has baselines.
func (c heldOutColumns) modelHeader() []string {
	var h []string
	for _, m := range c.s.Models {
		h = append(h, m)
		if c.skill {
			h = append(h, m+" skill")
		}
	}
	return h
}

// leadCells returns the cells that follow a row's labels, and the group
// of the row's best baseline (nil without one).
func (c heldOutColumns) leadCells(groups []*Group) ([]string, *Group) {
	var cells []string
	if c.variance != nil {
		cell := "—"
		if v, ok := c.variance(groups); ok {
			cell = fmtSig(v, 4)
		}
		cells = append(cells, cell)
	}
	var ref *Group
	name := "—"
	if c.skill {
		if i := c.s.bestBaseline(groups, c.mse); i >= 0 {
			ref, name = groups[i], c.s.Models[i]
		}
	}
	if c.best {
		cells = append(cells, name)
	}
	return cells, ref
}

// skillCell returns the cell of g's skill against the best baseline ref.
func (c heldOutColumns) skillCell(g, ref *Group) string {
	if ref == nil {
		return "—"
	}
	return skillCell(g, skillStat(g, ref, c.mse))
}

// row formats a table row: the labels, the lead cells, then each model's
// statCell (the best per row in bold) and, with baselines, its skill.
func (c heldOutColumns) row(labels []string, groups []*Group, stats []Stat, higherBetter bool, notes *footnotes) []string {
	lead, ref := c.leadCells(groups)
	cells := append(labels, lead...)
	best := bestOf(stats, higherBetter)
	for i := range groups {
		cells = append(cells, statCell(groups[i], stats[i], best[i], notes))
		if c.skill {
			cells = append(cells, c.skillCell(groups[i], ref))
		}
	}
	return cells
}
