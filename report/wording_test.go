package report

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bnmf-lab/bnmf/experiments"
)

func TestMergeWordings(t *testing.T) {
	tests := []struct {
		texts []string
		want  string
	}{
		{[]string{"low ESS 12.5"}, "low ESS 12.5"},
		{[]string{
			"4 of 300 rows and 0 of 500 columns have no training entries",
			"1 of 300 rows and 0 of 500 columns have no training entries",
			"2 of 300 rows and 0 of 500 columns have no training entries",
		}, "1 to 4 of 300 rows and 0 of 500 columns have no training entries"},
		{[]string{"ESS 9.5 of 100", "ESS 10 of 100", "ESS 100 of 100"}, "ESS 9.5 to 100 of 100"},
		{[]string{"2 values", "10 values"}, "2 to 10 values"},
		{[]string{"noise: 12 of 900 clipped.", "noise: 3 of 901 clipped."}, "noise: 3 to 12 of 900 to 901 clipped."},
	}
	for _, tt := range tests {
		texts := make(map[string]bool)
		for _, s := range tt.texts {
			texts[s] = true
		}
		if got := mergeWordings(texts); got != tt.want {
			t.Errorf("mergeWordings(%q) = %q, want %q", tt.texts, got, tt.want)
		}
	}
}

// TestFootnoteCountsAgreeWithRecords checks that a footnote standing for
// warnings with different counts gives their range, not the count of the
// first it met.
func TestFootnoteCountsAgreeWithRecords(t *testing.T) {
	var f footnotes
	f.mark([]string{"repeat 0: 1 of 300 rows have no training entries"})
	f.mark([]string{"repeat 0: 4 of 300 rows have no training entries", "repeat 1: 2 of 300 rows have no training entries"})
	var b strings.Builder
	if err := f.render(&b); err != nil {
		t.Fatal(err)
	}
	want := "- †1 1 to 4 of 300 rows have no training entries " + variesNote + "\n"
	if got := b.String(); got != "\n"+want {
		t.Errorf("footnotes\n%q\nwant\n%q", got, "\n"+want)
	}
}

// TestWarningSummaryCountsAgreeWithRecords checks that the summary of a
// long warnings list gives the range of the counts the records hold.
func TestWarningSummaryCountsAgreeWithRecords(t *testing.T) {
	st := sparsityFixture().study(t, t.TempDir(), "rows")
	for i := range st.Records {
		r := &st.Records[i]
		r.Warnings = []string{fmt.Sprintf("%d of 943 rows have no training entries", 1+r.Cell.Repeat)}
	}
	sum := Summarise([]*experiments.Study{st})
	var b strings.Builder
	if err := WriteWarnings(&b, sum.Studies[0]); err != nil {
		t.Fatal(err)
	}
	want := "- †1 In 120 settings: 1 to 3 of 943 rows have no training entries " + variesNote + "\n"
	if !strings.HasPrefix(b.String(), want) {
		t.Errorf("warnings start\n%q\nwant\n%q", b.String()[:min(len(b.String()), 200)], want)
	}
}

// TestWarningStatedOnce checks that a warning common to every setting is
// stated once in the README, with its count, while the tables mark the
// settings it affects and refer to it.
func TestWarningStatedOnce(t *testing.T) {
	root := t.TempDir()
	st := sparsityFixture().study(t, filepath.Join(root, "s"), "rows")
	for i := range st.Records {
		r := &st.Records[i]
		r.Warnings = []string{fmt.Sprintf("%d of 943 rows have no training entries", 1+r.Cell.Repeat)}
	}
	if _, err := Write(root, []*experiments.Study{st}, Options{}); err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(readme)
	if n := strings.Count(text, "of 943 rows have no training entries"); n != 1 {
		t.Errorf("the warning appears %d times, want once", n)
	}
	for _, want := range []string{"- †1 In 120 settings: 1 to 3 of 943 rows", "| **0.950 ± 0.011** †1 |", "- †1: warnings stated once"} {
		if !strings.Contains(text, want) {
			t.Errorf("README lacks %q", want)
		}
	}
}
