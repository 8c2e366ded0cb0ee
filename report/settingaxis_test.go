package report

import (
	"bytes"
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/bnmf-lab/bnmf/experiments"
)

// multiplierStudy is a study of a kind this program does not have, on a
// setting axis its manifest names (experiments.SettingAxis): GRRN at
// K = 3, multipliers 0.5 and 2, two repeats, train MSE 0.1 times the
// multiplier squared times (1 + repeat/10). GRRN at multiplier 2, repeat
// 1 carries a warning.
func multiplierStudy(dir string) *experiments.Study {
	m := experiments.Manifest{
		Version: experiments.RecordVersion, Study: "mult", Kind: "multiplier", ConfigHash: "c0ffee",
		Dataset: "synthetic", Rows: 40, Cols: 60, Observed: 720, BaseSeed: 1, Sweeps: 30, BurnIn: 10, Thin: 1,
		Models: []string{"GRRN"}, Ranks: []int{3}, Repeats: 2,
		Settings: []float64{0.5, 2}, SettingName: "value multiplier", SettingColumn: "multiplier",
	}
	st := &experiments.Study{Dir: dir, Manifest: m}
	for _, v := range m.Settings {
		for r := range 2 {
			rec := experiments.Record{
				Version: experiments.RecordVersion, Study: "mult", Kind: "multiplier", ConfigHash: "c0ffee",
				Cell: experiments.Cell{Model: "GRRN", Rank: 3, Setting: v, Repeat: r}, Dataset: "synthetic",
				Rows: 40, Cols: 60, TrainEntries: 720, Sweeps: 30, BurnIn: 10, Thin: 1, WallSeconds: 1,
			}
			rec.Metrics.TrainMSE = 0.1 * v * v * (1 + float64(r)/10)
			rec.Trace.TrainMSE = slices.Repeat([]float64{rec.Metrics.TrainMSE}, 30)
			if v == 2 && r == 1 {
				rec.Warnings = []string{"effective sample size of sigma2 is 12, below 100"}
			}
			st.Records = append(st.Records, rec)
		}
	}
	return st
}

// TestSettingAxisStudy checks that the report groups, lists and names a
// study on a setting axis with no code for its kind: the groups are keyed
// by the setting, Grid lists it, cells.csv gives it its own column after
// noise_ratio, warnings name it, and the whole report renders.
func TestSettingAxisStudy(t *testing.T) {
	dir := t.TempDir()
	st := multiplierStudy(filepath.Join(dir, "mult"))
	ss := Summarise([]*experiments.Study{st}).Studies[0]
	if !slices.Equal(ss.Grid, []float64{0.5, 2}) {
		t.Errorf("Grid = %v, want [0.5 2]", ss.Grid)
	}
	for _, c := range []struct {
		v, mean float64
	}{{0.5, 0.1 * 0.25 * 1.05}, {2, 0.1 * 4 * 1.05}} {
		g := ss.Group(Key{Model: "GRRN", Rank: 3, Setting: c.v})
		if g == nil || g.Found != 2 || math.Abs(g.TrainMSE.Mean-c.mean) > 1e-12 {
			t.Errorf("group at multiplier %v: %+v, want 2 records with mean train MSE %v", c.v, g, c.mean)
		}
	}
	if got := ss.keyLabel(Key{Model: "GRRN", Rank: 3, Setting: 2}); got != "GRRN, K = 3, value multiplier 2" {
		t.Errorf("keyLabel = %q", got)
	}
	var warned []string
	for _, k := range ss.warningKinds() {
		warned = append(warned, k.settings...)
	}
	if !slices.Equal(warned, []string{"GRRN, K = 3, value multiplier 2"}) {
		t.Errorf("warnings name the settings %q", warned)
	}

	var b bytes.Buffer
	if err := WriteCSV(&b, st); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := slices.Index(rows[0], "multiplier")
	if col < 0 || rows[0][col-1] != "noise_ratio" || rows[0][col+1] != "repeat" {
		t.Fatalf("header %v: want multiplier between noise_ratio and repeat", rows[0])
	}
	var got []string
	for _, r := range rows[1:] {
		if len(r) != len(rows[0]) {
			t.Fatalf("row of %d columns under a header of %d", len(r), len(rows[0]))
		}
		got = append(got, r[col]+"/"+r[col+1]+"/"+r[col+2])
	}
	if want := []string{"0.5/0/ok", "0.5/1/ok", "2/0/ok", "2/1/ok"}; !slices.Equal(got, want) {
		t.Errorf("multiplier/repeat/status columns %v, want %v", got, want)
	}

	if _, err := Write(dir, []*experiments.Study{st}, Options{}); err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile(filepath.Join(dir, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "value multiplier 2") {
		t.Errorf("the report does not name the setting of its warning:\n%s", readme)
	}
}
