package report

import (
	"bytes"

	"github.com/bnmf-lab/bnmf/experiments"
)

// kindReports maps each kind of study (experiments.Kinds) to what the
// report draws and says for it. It is the one place a kind's report is
// registered; a new kind is a file that implements kindReport, plus its
// line here.
func kindReports() map[string]kindReport {
	return map[string]kindReport{
		experiments.KindConvergence: convergenceReport{},
		experiments.KindSparsity:    sparsityReport{},
		experiments.KindNoise:       noiseReport{},
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

// axisOf returns the setting that studies of the named kind vary, and
// whether they hold out test entries; an unknown kind varies nothing and
// holds out none.
func axisOf(kind string) (experiments.Axis, bool) {
	k, ok := experiments.KindByName(kind)
	if !ok {
		return experiments.NoAxis, false
	}
	return k.Axis(), k.HeldOut()
}
