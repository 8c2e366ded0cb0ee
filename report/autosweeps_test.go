package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/bnmf-lab/bnmf/bnmf"
	"github.com/bnmf-lab/bnmf/experiments"
)

// TestAutoSweepsTable checks the table of a study with sweeps: auto: one
// row per setting whose records carry a verdict, with the sweeps' mean
// and range, the verdicts counted, and the held-out MSE; and that a study
// without verdicts gets no such table.
func TestAutoSweepsTable(t *testing.T) {
	fx := sparsityFixture()
	fx.models, fx.ranks, fx.fractions = []string{"GRRN", "NMF"}, []int{20}, []float64{0.97, 0.98}
	st := fx.study(t, t.TempDir(), "auto")
	st.Manifest.MaxSweeps = 8000
	verdicts := map[experiments.Cell]bnmf.AutoStop{
		{Model: "GRRN", Rank: 20, Fraction: 0.97, Repeat: 0}: {Sweeps: 8000, Verdict: bnmf.NotConverged},
		{Model: "GRRN", Rank: 20, Fraction: 0.97, Repeat: 1}: {Sweeps: 2000, Verdict: bnmf.Converged},
		{Model: "GRRN", Rank: 20, Fraction: 0.97, Repeat: 2}: {Sweeps: 125, Verdict: bnmf.Stuck},
		{Model: "GRRN", Rank: 20, Fraction: 0.98, Repeat: 0}: {Sweeps: 500, Verdict: bnmf.Converged},
		{Model: "GRRN", Rank: 20, Fraction: 0.98, Repeat: 1}: {Sweeps: 1000, Verdict: bnmf.Converged},
	}
	for i := range st.Records {
		if a, ok := verdicts[st.Records[i].Cell]; ok {
			st.Records[i].AutoSweeps = &a
		}
	}
	ss := Summarise([]*experiments.Study{st}).Studies[0]
	var b bytes.Buffer
	if err := WriteAutoSweepsTable(&b, ss); err != nil {
		t.Fatal(err)
	}
	var rows []string
	for _, line := range strings.Split(b.String(), "\n")[2:] {
		if line != "" {
			rows = append(rows, strings.Join(strings.Fields(strings.ReplaceAll(line, "|", " ")), " "))
		}
	}
	mse := func(f float64) string { return fmtMeanSE(ss.Group(Key{Model: "GRRN", Rank: 20, Fraction: f}).TestMSE) }
	want := []string{
		"GRRN 20 fraction 0.97 3 3375 125–8000 1 1 1 " + mse(0.97),
		"GRRN 20 fraction 0.98 2 750 500–1000 2 0 0 " + mse(0.98),
	}
	if strings.Join(rows, "\n") != strings.Join(want, "\n") {
		t.Errorf("rows:\n%s\nwant:\n%s", strings.Join(rows, "\n"), strings.Join(want, "\n"))
	}
	if !ss.hasAutoSweeps() {
		t.Error("hasAutoSweeps is false for a study with verdicts")
	}
	plain := Summarise([]*experiments.Study{fx.study(t, t.TempDir(), "plain")}).Studies[0]
	tables, err := studyTables(plain, PaperValues{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tb := range tables {
		if tb.file == "auto-sweeps.md" {
			t.Error("a study without sweeps: auto has an auto-sweeps table")
		}
	}
}
