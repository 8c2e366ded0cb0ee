package experiments

import (
	"math"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/bnmf-lab/bnmf/sparse"
)

// foldStudy is a cross-validation study of kind on a 30 x 40 synthetic
// matrix at density 0.9 (1080 entries; sparser, a row with 3 entries
// of which the outer fold takes 2 leaves its outer fold no inner
// partition): two models, three ranks, four folds.
func foldStudy(t *testing.T, kind string) *Plan {
	t.Helper()
	src := "kind: " + kind + `
dataset:
  name: synthetic
  synthetic: {rows: 30, cols: 40, rank: 3, density: 0.9, seed: 3}
models: [{name: GEE}, {name: RowMean}]
ranks: [3, 1, 2]
repeats: 4
sweeps: 6
burn_in: 3
seed: 5
`
	return preparePlan(t, kind+".yaml", src)
}

// entrySet returns es as a set.
func entrySet(es []sparse.Entry) map[sparse.Entry]bool {
	set := make(map[sparse.Entry]bool, len(es))
	for _, e := range es {
		set[e] = true
	}
	return set
}

// trainEntries returns the entries of a cell's training matrix.
func trainEntries(t *testing.T, d cellData) []sparse.Entry {
	t.Helper()
	return d.train.Entries()
}

// checkFoldsPartition checks that the test sets of cells partition all,
// that each cell trains on exactly the rest of all, and that every
// training part keeps an entry in every row and column of the grid.
func checkFoldsPartition(t *testing.T, p *Plan, all []sparse.Entry, cells []Cell) {
	t.Helper()
	tested := make(map[sparse.Entry]int)
	for _, c := range cells {
		d, err := p.source.cellData(c)
		if err != nil {
			t.Fatalf("%s: %v", c, err)
		}
		test := entrySet(d.test)
		train := trainEntries(t, d)
		if len(train)+len(d.test) != len(all) {
			t.Errorf("%s: %d training and %d test entries, want %d together", c, len(train), len(d.test), len(all))
		}
		rows, cols := make([]bool, p.data.Rows), make([]bool, p.data.Cols)
		for _, e := range train {
			if test[e] {
				t.Errorf("%s: entry %v both trained on and tested", c, e)
			}
			rows[e.Row], cols[e.Col] = true, true
		}
		if slices.Contains(rows, false) || slices.Contains(cols, false) {
			t.Errorf("%s: a row or column has no training entry", c)
		}
		for _, e := range d.test {
			tested[e]++
		}
	}
	for _, e := range all {
		if tested[e] != 1 {
			t.Errorf("entry %v tested %d times, want once", e, tested[e])
		}
	}
}

// TestModelSelectionFolds checks that a model-selection study's repeats
// are the folds of one partition: their test sets partition the observed
// entries, each repeat trains on the others, and every model and rank
// sees the same fold.
func TestModelSelectionFolds(t *testing.T) {
	p := foldStudy(t, KindModelSelection)
	cells := p.Config.Cells()
	if want := 4 * 3 * 2; len(cells) != want {
		t.Fatalf("%d cells, want %d (4 folds x 3 ranks x 2 models)", len(cells), want)
	}
	var folds []Cell
	for r := range 4 {
		folds = append(folds, Cell{Model: "GEE", Rank: 1, Repeat: r})
	}
	checkFoldsPartition(t, p, p.data.Entries, folds)
	ref, err := p.source.cellData(Cell{Model: "GEE", Rank: 1, Repeat: 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []Cell{{Model: "GEE", Rank: 3, Repeat: 2}, {Model: "RowMean", Rank: 2, Repeat: 2}} {
		d, err := p.source.cellData(c)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(d.test, ref.test) {
			t.Errorf("%s tests on other entries than %s", c, Cell{Model: "GEE", Rank: 1, Repeat: 2})
		}
	}
}

// TestNestedCVFolds checks a nested cross-validation's cells: the outer
// test sets partition the observed entries; within each outer fold the
// inner test sets partition its training part, so inner cells train and
// test on outer-training entries only; and keys and seeds differ by inner
// fold.
func TestNestedCVFolds(t *testing.T) {
	p := foldStudy(t, KindNestedCV)
	cells := p.Config.Cells()
	if want := 2 * 3 * 4 * 5; len(cells) != want {
		t.Fatalf("%d cells, want %d (2 models x 3 ranks x 4 outer folds x (4 inner + 1))", len(cells), want)
	}
	keys := make(map[string]bool)
	seeds := make(map[uint64]bool)
	for _, c := range cells {
		keys[c.Key()] = true
		seeds[CellSeed(1, c)] = true
	}
	if len(keys) != len(cells) || len(seeds) != len(cells) {
		t.Errorf("%d keys and %d seeds for %d cells, want one each", len(keys), len(seeds), len(cells))
	}
	var outer []Cell
	for o := range 4 {
		outer = append(outer, Cell{Model: "GEE", Rank: 2, Repeat: o})
	}
	checkFoldsPartition(t, p, p.data.Entries, outer)
	for o := range 4 {
		d, err := p.source.cellData(Cell{Model: "GEE", Rank: 2, Repeat: o})
		if err != nil {
			t.Fatal(err)
		}
		outerTrain := trainEntries(t, d)
		var inner []Cell
		for f := 1; f <= 4; f++ {
			inner = append(inner, Cell{Model: "RowMean", Rank: 3, Repeat: o, Fold: f})
		}
		t.Run("outer fold "+string(rune('0'+o)), func(t *testing.T) {
			checkFoldsPartition(t, p, outerTrain, inner)
		})
	}
	if _, err := p.source.cellData(Cell{Model: "GEE", Rank: 2, Repeat: 0, Fold: 5}); err == nil {
		t.Error("inner fold 5 of 4 gave data, want an error")
	}
}

// TestNestedChoices checks the rank a nested cross-validation chooses in
// each outer fold: the argmin of the mean inner held-out MSE over the
// ranks whose inner folds all finished, the smaller rank on a tie, the
// first listed rank when none finished, and the outer score of the chosen
// rank's cell.
func TestNestedChoices(t *testing.T) {
	m := Manifest{Models: []string{"GEE"}, Ranks: []int{3, 1, 2}, Repeats: 2}
	rec := func(rank, outer, fold int, mse float64) Record {
		return Record{Cell: Cell{Model: "GEE", Rank: rank, Repeat: outer, Fold: fold}, Metrics: Metrics{TestMSE: mse}}
	}
	failed := rec(1, 1, 2, 0.1)
	failed.Error = "boom"
	records := []Record{
		// Outer fold 0: means 1.5 (K 1), 1.0 (K 2), 1.25 (K 3): K 2.
		rec(1, 0, 1, 1), rec(1, 0, 2, 2),
		rec(2, 0, 1, 1.5), rec(2, 0, 2, 0.5),
		rec(3, 0, 1, 1), rec(3, 0, 2, 1.5),
		rec(1, 0, 0, 7), rec(2, 0, 0, 8), rec(3, 0, 0, 9),
		// Outer fold 1: K 1 has a failed inner fold, K 2 and 3 tie at 2:
		// K 2; its outer cell is missing.
		rec(1, 1, 1, 0.1), failed,
		rec(2, 1, 1, 2), rec(2, 1, 2, 2),
		rec(3, 1, 1, 1), rec(3, 1, 2, 3),
		rec(3, 1, 0, 4),
	}
	got := NestedChoices(m, records)
	if len(got) != 2 {
		t.Fatalf("%d choices, want 2", len(got))
	}
	if c := got[0]; c.Rank != 2 || c.Fallback || c.TestMSE != 8 || !slices.Equal(c.Ranks, []int{1, 2, 3}) || !slices.Equal(c.InnerMSE, []float64{1.5, 1, 1.25}) {
		t.Errorf("outer fold 0: %+v, want rank 2 with inner MSEs [1.5 1 1.25] and test MSE 8", c)
	}
	if c := got[1]; c.Rank != 2 || c.Fallback || !math.IsNaN(c.TestMSE) || !math.IsNaN(c.InnerMSE[0]) {
		t.Errorf("outer fold 1: %+v, want rank 2 (a tie with 3), no score, K 1 not a candidate", c)
	}
	for _, c := range NestedChoices(m, nil) {
		if c.Rank != 0 || c.Fallback || !math.IsNaN(c.TestMSE) {
			t.Errorf("no records: %+v, want no rank yet", c)
		}
	}
	// Every inner cell of outer fold 0 failed: the first listed rank,
	// 3, scored by its outer cell.
	var allFailed []Record
	for _, k := range m.Ranks {
		for f := 1; f <= 2; f++ {
			r := rec(k, 0, f, 1)
			r.Error = "no inner partition"
			allFailed = append(allFailed, r)
		}
	}
	allFailed = append(allFailed, rec(3, 0, 0, 6))
	if c := NestedChoices(m, allFailed)[0]; c.Rank != 3 || !c.Fallback || c.TestMSE != 6 {
		t.Errorf("failed inner cells: %+v, want the first listed rank 3 as a fallback, scored 6", c)
	}
}

// TestNestedChoicesBy checks that the score chooses both the rank and the
// outer score: with TestMSEOfMeans the choice follows it where TestMSE
// would choose another rank.
func TestNestedChoicesBy(t *testing.T) {
	m := Manifest{Models: []string{"GGGW"}, Ranks: []int{1, 2}, Repeats: 1}
	rec := func(rank, fold int, mse, ofMeans float64) Record {
		return Record{Cell: Cell{Model: "GGGW", Rank: rank, Fold: fold}, Metrics: Metrics{TestMSE: mse, TestMSEOfMeans: ofMeans}}
	}
	records := []Record{rec(1, 1, 7, 10), rec(2, 1, 8, 9), rec(1, 0, 7.5, 11), rec(2, 0, 7.8, 8.6)}
	if c := NestedChoices(m, records)[0]; c.Rank != 1 || c.TestMSE != 7.5 {
		t.Errorf("by TestMSE: %+v, want rank 1 scored 7.5", c)
	}
	c := NestedChoicesBy(m, records, func(x *Metrics) float64 { return x.TestMSEOfMeans })[0]
	if c.Rank != 2 || c.TestMSE != 8.6 || !slices.Equal(c.InnerMSE, []float64{10, 9}) {
		t.Errorf("by TestMSEOfMeans: %+v, want rank 2 scored 8.6 with inner [10 9]", c)
	}
}

// TestCrossValidationConfigErrors checks the settings the new kinds
// refuse.
func TestCrossValidationConfigErrors(t *testing.T) {
	base := "dataset: {name: synthetic}\nranks: [2]\n"
	tests := []struct {
		name, src, want string
	}{
		{"one fold", "kind: model-selection\nrepeats: 1\n", "at least 2"},
		{"coverage", "kind: nested-cv\ncoverage: both\n", "coverage does not apply"},
		{"fractions", "kind: nested-cv\nfractions: [0.9]\n", "only to sparsity"},
		{"noise", "kind: runtime\nnoise_ratios: [1]\n", "only to noise"},
		{"runtime coverage", "kind: runtime\ncoverage: none\n", "no split"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseConfig("c.yaml", []byte(base+tt.src))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

// TestCrossValidationRun runs a tiny nested cross-validation and a model
// selection (6 sweeps each) and checks that every cell finishes with a
// finite held-out MSE on as many entries as its fold holds, and that
// every outer fold of the nested one has a chosen rank with a score.
func TestCrossValidationRun(t *testing.T) {
	for _, kind := range []string{KindModelSelection, KindNestedCV, KindRuntime} {
		t.Run(kind, func(t *testing.T) {
			p := foldStudy(t, kind)
			dir := run(t, p, RunOptions{Workers: 1})
			st, err := LoadStudy(dir)
			if err != nil {
				t.Fatal(err)
			}
			if len(st.Records) != len(p.Manifest.Cells) {
				t.Fatalf("%d records for %d cells", len(st.Records), len(p.Manifest.Cells))
			}
			_, linux := os.Stat("/proc/loadavg")
			for _, r := range st.Records {
				// Only runtime records keep the load and the workers.
				wantLoads := 0
				if kind == KindRuntime && linux == nil {
					wantLoads = 2
				}
				if len(r.LoadAverage) != wantLoads || (r.SamplerWorkers == 1) != (kind == KindRuntime) {
					t.Errorf("%s: load averages %v and %d sampler workers; want %d load averages, and 1 worker for runtime studies only",
						r.Cell, r.LoadAverage, r.SamplerWorkers, wantLoads)
				}
				held := r.TestEntries > 0
				if r.Error != "" || held != (kind != KindRuntime) || r.TrainEntries+r.TestEntries > len(p.data.Entries) ||
					(held && !(r.Metrics.TestMSE > 0 && r.Metrics.TestMSE < math.MaxFloat64)) || !(r.Metrics.SecondsPerSweep > 0) {
					t.Errorf("%s: error %q, %d train and %d test entries, test MSE %v, %v s per sweep",
						r.Cell, r.Error, r.TrainEntries, r.TestEntries, r.Metrics.TestMSE, r.Metrics.SecondsPerSweep)
				}
			}
			if kind != KindNestedCV {
				return
			}
			for _, c := range NestedChoices(st.Manifest, st.Records) {
				if c.Fallback || math.IsNaN(c.TestMSE) || !slices.Contains(p.Config.Ranks, c.Rank) {
					t.Errorf("%s, outer fold %d: %+v", c.Model, c.Outer, c)
				}
			}
		})
	}
}
