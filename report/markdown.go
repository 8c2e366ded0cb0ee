package report

import (
	"fmt"
	"io"
	"math"
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

// footnotes numbers the notes a table's cells refer to, in order of first
// use; a repeated note keeps its number.
type footnotes struct {
	texts []string
}

// mark returns the marker of a note ("†2"), adding the note if new.
func (f *footnotes) mark(text string) string {
	for i, t := range f.texts {
		if t == text {
			return fmt.Sprintf("†%d", i+1)
		}
	}
	f.texts = append(f.texts, text)
	return fmt.Sprintf("†%d", len(f.texts))
}

func (f *footnotes) render(w io.Writer) error {
	if len(f.texts) == 0 {
		return nil
	}
	var b strings.Builder
	b.WriteString("\n")
	for i, t := range f.texts {
		fmt.Fprintf(&b, "- †%d %s\n", i+1, oneLine(t))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// statCell formats one group's statistic for a table: mean ± standard
// error, in bold if best, then "(n=3/10)" when fewer values than expected
// entered it, then a footnote marker for the group's warnings. A group the
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
	if len(g.Warnings) > 0 {
		text += " " + notes.mark(g.Key.String()+": "+strings.Join(g.Warnings, "; "))
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
