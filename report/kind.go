package report

import (
	"bytes"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/bnmf-lab/bnmf/experiments"
)

// kindReports maps each kind of study (experiments.Kinds) to what the
// report draws and says for it. It is the one place a kind's report is
// registered; a new kind is a file that implements kindReport, plus its
// line here.
func kindReports() map[string]kindReport {
	return map[string]kindReport{
		experiments.KindConvergence:    convergenceReport{},
		experiments.KindSparsity:       sparsityReport{},
		experiments.KindNoise:          noiseReport{},
		experiments.KindModelSelection: modelSelectionReport{},
		experiments.KindNestedCV:       nestedCVReport{},
		experiments.KindRuntime:        runtimeReport{},
	}
}

// kindReport is what the report of one kind of study draws and says.
type kindReport interface {
	// figure builds the kind's figure and names its file.
	figure(s *StudySummary, pal Palette) (*Figure, string, error)
	// tables renders the kind's own tables through add.
	tables(s *StudySummary, paper PaperValues, add tableAdder) error
	// findings says in one paragraph what the study's numbers show.
	findings(s *StudySummary, paper PaperValues) string
	// grid describes the values the study varies besides model and rank,
	// as a phrase that follows the ranks (", fractions unobserved 0.9,
	// 0.95"), or "".
	grid(s *StudySummary) string
}

// tableAdder renders one table into file, under heading and caption.
type tableAdder func(file, heading, caption string, render func(*bytes.Buffer) error) error

// reportOf returns the report of s's kind, or nil for a kind the report
// does not know (a study written by a newer program).
func reportOf(s *StudySummary) kindReport { return kindReports()[s.Kind()] }

// figureTitle titles a study's figure: what it shows, on which data, in
// which study, after the paper's figure name ("Fig. 5: ...") when the
// study repeats the paper's.
func figureTitle(s *StudySummary, what string) string {
	title := fmt.Sprintf("%s on %s — %s", what, oneLine(s.Label()), s.Name())
	if s.Paper != nil {
		return s.Paper.Figure + ": " + title
	}
	return upperFirst(title)
}

// figureFile names a study's figure file: name, after the paper's figure
// ("fig5-sparsity.png") when the study repeats the paper's.
func figureFile(s *StudySummary, name string) string {
	if s.Paper != nil {
		return paperFileKey(s.Paper.Figure) + "-" + name
	}
	return name
}

// paperFigureRef returns " (Fig. 5)" for the tables behind the figure of
// a study that repeats the paper's, and "" for any other.
func paperFigureRef(s *StudySummary) string {
	if s.Paper == nil {
		return ""
	}
	return " (" + s.Paper.Figure + ")"
}

// heldOutCaption returns the sentence a held-out table's caption adds
// for the data's variance, when it is known.
func heldOutCaption(s *StudySummary) string {
	if s.Data == nil {
		return ""
	}
	return fmt.Sprintf(" The variance of the data's %s observed values, the MSE of predicting each by their mean, is %s.", fmtInt(s.Data.N), fmtSig(s.Data.Variance, 4))
}

// upperFirst returns s with its first letter in upper case.
func upperFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}

// paperFileKey turns the name of a figure or table of the paper into a
// file-name part: "Fig. 5" into "fig5", "Table 2" into "table2".
func paperFileKey(name string) string { return strings.ReplaceAll(fileKey(name), "-", "") }
