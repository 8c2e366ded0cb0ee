package report

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"
)

// mdTable is a Markdown table under construction: a header, rows of cells
// and the footnotes the cells refer to.
type mdTable struct {
	header []string
	rows   [][]string
	notes  footnotes
}

// render writes the table, then its footnotes as a list. The first column
// is left-aligned and the others right-aligned, so numbers line up.
func (t *mdTable) render(w io.Writer) error {
	align := make(tw.Alignment, len(t.header))
	for i := range align {
		align[i] = tw.AlignRight
	}
	align[0] = tw.AlignLeft
	tbl := tablewriter.NewTable(w,
		tablewriter.WithRenderer(renderer.NewMarkdown()),
		tablewriter.WithHeaderAutoFormat(tw.Off),
		tablewriter.WithHeaderAutoWrap(tw.WrapNone),
		tablewriter.WithRowAutoWrap(tw.WrapNone),
		tablewriter.WithAlignment(align),
	)
	tbl.Header(escapeCells(t.header)...)
	for _, r := range t.rows {
		if err := tbl.Append(escapeCells(r)); err != nil {
			return fmt.Errorf("report: table row: %w", err)
		}
	}
	if err := tbl.Render(); err != nil {
		return fmt.Errorf("report: render table: %w", err)
	}
	return t.notes.render(w)
}

// escapeCells escapes the characters that would end a Markdown table cell.
func escapeCells(cells []string) []any {
	out := make([]any, len(cells))
	for i, c := range cells {
		out[i] = strings.ReplaceAll(oneLine(c), "|", `\|`)
	}
	return out
}

// footnotes numbers the warnings a table's cells refer to, in order of
// first use. Warnings that differ only in their numbers and in the repeat
// they came from share a footnote (see warningClass), so that a caveat
// common to many settings is explained once.
type footnotes struct {
	notes []footnote
	// shared is the number of leading notes that are the study's warning
	// kinds (StudySummary.warningNotes): the study's Warnings section
	// states them, so render refers to it instead of repeating them.
	shared int
	used   []bool // by note, whether a cell refers to it
}

type footnote struct {
	key   string
	texts map[string]bool // distinct wordings seen
}

// mark returns the markers of a group's warnings ("†1,3"), adding the
// footnotes that are new, or "" for no warnings.
func (f *footnotes) mark(warnings []string) string {
	var nums []int
	for _, w := range warnings {
		text, key := warningClass(w)
		i := slices.IndexFunc(f.notes, func(n footnote) bool { return n.key == key })
		if i < 0 {
			f.notes = append(f.notes, footnote{key: key, texts: make(map[string]bool)})
			i = len(f.notes) - 1
		}
		f.notes[i].texts[text] = true
		for len(f.used) <= i {
			f.used = append(f.used, false)
		}
		f.used[i] = true
		if !slices.Contains(nums, i+1) {
			nums = append(nums, i+1)
		}
	}
	if len(nums) == 0 {
		return ""
	}
	slices.Sort(nums)
	parts := make([]string, len(nums))
	for i, n := range nums {
		parts[i] = strconv.Itoa(n)
	}
	return "†" + strings.Join(parts, ",")
}

func (f *footnotes) render(w io.Writer) error {
	if len(f.notes) == 0 {
		return nil
	}
	var b strings.Builder
	var refs []string
	for i := range f.shared {
		if i < len(f.used) && f.used[i] {
			refs = append(refs, "†"+strconv.Itoa(i+1))
		}
	}
	if len(refs) == 0 && len(f.notes) == f.shared {
		return nil
	}
	b.WriteString("\n")
	if len(refs) > 0 {
		fmt.Fprintf(&b, "- %s: warnings stated once, with the settings they affect, under this study's Warnings\n", strings.Join(refs, ", "))
	}
	for i, n := range f.notes {
		if i < f.shared {
			continue
		}
		fmt.Fprintf(&b, "- †%d %s", i+1, oneLine(mergeWordings(n.texts)))
		if len(n.texts) > 1 {
			b.WriteString(" " + variesNote)
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// variesNote follows a warning quoted for several that differ in their
// numbers.
const variesNote = "(the numbers vary between settings and repeats)"

// warningClass returns how a group's warning reads in a footnote, without
// the repeat it came from ("repeat 3: low ESS" reads "low ESS", "repeat 3
// failed: ..." reads "a repeat failed: ..."), and a key that is the same
// for warnings differing only in their numbers.
func warningClass(w string) (text, key string) {
	text = w
	if rest, ok := strings.CutPrefix(w, "repeat "); ok {
		digits := len(rest) - len(strings.TrimLeft(rest, "0123456789"))
		if digits > 0 {
			switch after := rest[digits:]; {
			case strings.HasPrefix(after, ": "):
				text = after[2:]
			case strings.HasPrefix(after, " failed: "):
				text = "a repeat failed: " + after[len(" failed: "):]
			}
		}
	}
	var k strings.Builder
	inNumber := false
	for _, r := range text {
		isNum := (r >= '0' && r <= '9') || (inNumber && r == '.')
		if isNum && !inNumber {
			k.WriteByte('#')
		}
		if !isNum {
			k.WriteRune(r)
		}
		inNumber = isNum
	}
	return text, k.String()
}

// statCell formats one group's statistic for a table: mean ± standard
// error, in bold if best, then "(n=3/10)" when fewer values than expected
// entered it, then footnote markers for the group's warnings. A group the
// study does not have is "—".
func statCell(g *Group, s Stat, best bool, notes *footnotes) string {
	if g == nil {
		return "—"
	}
	text := fmtMeanSE(s)
	if best {
		text = "**" + text + "**"
	}
	if s.N < g.Expected {
		text += fmt.Sprintf(" (n=%d/%d)", s.N, g.Expected)
	}
	// Of the values left out, only this statistic's concern this cell.
	var warns []string
	for _, w := range g.Warnings {
		if !isNonFiniteNote(w) {
			warns = append(warns, w)
		}
	}
	if s.NonFinite > 0 {
		warns = append(warns, nonFiniteNote(s.NonFinite, ""))
	}
	if m := notes.mark(warns); m != "" {
		text += " " + m
	}
	return text
}

// bestOf returns, for a row of statistics, which are best (lowest mean, or
// highest if higherBetter): all ties are best. Nothing is best when fewer
// than two statistics have a value.
func bestOf(stats []Stat, higherBetter bool) []bool {
	best := make([]bool, len(stats))
	var have []int
	for i, s := range stats {
		if s.N > 0 && isFinite(s.Mean) {
			have = append(have, i)
		}
	}
	if len(have) < 2 {
		return best
	}
	target := math.Inf(1)
	if higherBetter {
		target = math.Inf(-1)
	}
	for _, i := range have {
		if higherBetter {
			target = math.Max(target, stats[i].Mean)
		} else {
			target = math.Min(target, stats[i].Mean)
		}
	}
	for _, i := range have {
		best[i] = stats[i].Mean == target
	}
	return best
}
