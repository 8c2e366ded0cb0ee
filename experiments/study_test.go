package experiments

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/bnmf-lab/bnmf/bnmf"
)

// studyPlan prepares a study of the given kind on a 40 x 60 synthetic
// matrix with 720 observed entries; grid holds the kind's YAML lines.
func studyPlan(t *testing.T, grid string) *Plan {
	t.Helper()
	src := `dataset:
  name: synthetic
  synthetic: {rows: 40, cols: 60, rank: 3, density: 0.3, seed: 11}
models: [{name: GRRN}, {name: NMF}]
ranks: [3]
repeats: 1
sweeps: 40
burn_in: 20
` + grid
	p := preparePlan(t, "study.yaml", src)
	if n := len(p.data.Entries); n != 720 {
		t.Fatalf("synthetic data has %d entries, want 720", n)
	}
	return p
}

func runRecords(t *testing.T, p *Plan) map[string]Record {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "study")
	if _, err := p.Run(context.Background(), RunOptions{Workers: 2, Output: dir}); err != nil {
		t.Fatal(err)
	}
	st, err := LoadStudy(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := make(map[string]Record)
	for _, r := range st.Records {
		if r.Error != "" {
			t.Fatalf("cell %s failed: %s", r.Cell, r.Error)
		}
		out[r.Cell.Key()] = r
	}
	return out
}

func TestConvergenceStudy(t *testing.T) {
	recs := runRecords(t, studyPlan(t, "kind: convergence\n"))
	for key, r := range recs {
		if r.TrainEntries != 720 || r.TestEntries != 0 || r.Trace.TestMSE != nil || len(r.Trace.TrainMSE) != 40 || r.Metrics.TestMSE != 0 {
			t.Errorf("%s: %d train, %d test entries, test trace %v, %d sweeps traced, test MSE %v; want all 720 training entries and no test",
				key, r.TrainEntries, r.TestEntries, r.Trace.TestMSE, len(r.Trace.TrainMSE), r.Metrics.TestMSE)
		}
		if r.Metrics.TrainMSE != r.Trace.TrainMSE[39] {
			t.Errorf("%s: final train MSE %v is not the last traced %v", key, r.Metrics.TrainMSE, r.Trace.TrainMSE[39])
		}
	}
}

func TestNoiseStudy(t *testing.T) {
	p := studyPlan(t, "kind: noise\nnoise_ratios: [0, 1]\n")
	// Holding out 10% of 720 entries leaves 648 for training.
	if got, want := p.Manifest.Fractions, []float64{1 - 0.9*0.3}; len(got) != 1 || math.Abs(got[0]-want[0]) > 1e-12 {
		t.Errorf("manifest fractions %v, want %v", got, want)
	}
	recs := runRecords(t, p)
	if len(recs) != 4 {
		t.Fatalf("%d records, want 4", len(recs))
	}
	for key, r := range recs {
		m := r.Metrics
		if r.TrainEntries != 648 || r.TestEntries != 72 {
			t.Errorf("%s: %d train and %d test entries, want 648 and 72", key, r.TrainEntries, r.TestEntries)
		}
		if m.VarOverMSE != m.DataVariance/m.TestMSE {
			t.Errorf("%s: var/MSE %v does not match %v / %v", key, m.VarOverMSE, m.DataVariance, m.TestMSE)
		}
	}
	// The clean measure divides the variance of the clean training values
	// by the MSE against clean test values. The cells without noise train
	// on the clean values of the same split, so their DataVariance is that
	// variance, computed from the same values in the same order.
	for _, model := range []string{"GRRN", "NMF"} {
		cleanVar := recs[model+"-k3-r0"].Metrics.DataVariance
		for _, key := range []string{model + "-k3-r0", model + "-k3-n1-r0"} {
			m := recs[key].Metrics
			if want := cleanVar / m.TestMSEClean; m.VarOverMSEClean != want {
				t.Errorf("%s: clean var/MSE %v, want clean variance %v / clean MSE %v = %v", key, m.VarOverMSEClean, cleanVar, m.TestMSEClean, want)
			}
		}
	}
	// Without noise the noisy and clean test values are the same.
	for _, key := range []string{"GRRN-k3-r0", "NMF-k3-r0"} {
		if m := recs[key].Metrics; m.TestMSE != m.TestMSEClean {
			t.Errorf("%s: noise ratio 0 gives test MSE %v against noisy and %v against clean values", key, m.TestMSE, m.TestMSEClean)
		}
	}
	// Noise of the data's variance doubles the variance of the training
	// values, up to sampling error: the variance of 648 values has a
	// relative standard error near sqrt(2/648) = 5.6%; allow 20%.
	clean, noisy := recs["GRRN-k3-r0"].Metrics.DataVariance, recs["GRRN-k3-n1-r0"].Metrics.DataVariance
	if ratio := noisy / clean; math.Abs(ratio-2) > 0.4 {
		t.Errorf("training variance with noise ratio 1 is %v times that without, want 2 +- 0.4", ratio)
	}
	if a, b := recs["GRRN-k3-n1-r0"].Metrics.DataVariance, recs["NMF-k3-n1-r0"].Metrics.DataVariance; a != b {
		t.Errorf("GRRN and NMF saw different noisy data: variances %v and %v", a, b)
	}
}

// mustCellData returns the training and test data of cell c of p.
func mustCellData(t *testing.T, p *Plan, c Cell) cellData {
	t.Helper()
	d, err := p.source.cellData(c)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestNoiseStudyClipsNMFTraining checks that NMF, which needs nonnegative
// data, trains on the noisy values clipped at 0, that the Bayesian models
// and every test set keep the unclipped noisy values, and that the NMF
// record says how many values were clipped.
func TestNoiseStudyClipsNMFTraining(t *testing.T) {
	p := studyPlan(t, "kind: noise\nnoise_ratios: [10]\n")
	grrn := mustCellData(t, p, Cell{Model: "GRRN", Rank: 3, NoiseRatio: 10})
	nmf := mustCellData(t, p, Cell{Model: "NMF", Rank: 3, NoiseRatio: 10})
	noisy, fed := grrn.train.Entries(), nmf.train.Entries()
	if len(noisy) != len(fed) {
		t.Fatalf("GRRN trains on %d entries and NMF on %d", len(noisy), len(fed))
	}
	negative := 0
	for i, e := range noisy {
		want := e
		if e.Value < 0 {
			negative++
			want.Value = 0
		}
		if fed[i] != want {
			t.Fatalf("NMF training entry %d is %+v, want %+v (the noisy %+v clipped at 0)", i, fed[i], want, e)
		}
	}
	// Noise of ten times the data's variance makes a good share of the
	// ratings in [1, 5] negative; without any the test would prove nothing.
	if negative == 0 {
		t.Fatal("no noisy training value is negative")
	}
	if !slices.Equal(grrn.test, nmf.test) || !slices.ContainsFunc(nmf.test, func(e bnmf.Entry) bool { return e.Value < 0 }) {
		t.Error("the NMF test values differ from GRRN's or were clipped")
	}

	recs := runRecords(t, p)
	clipped := func(r Record) []string {
		var out []string
		for _, w := range r.Warnings {
			if strings.Contains(w, "clipped at 0") {
				out = append(out, w)
			}
		}
		return out
	}
	want := fmt.Sprintf("%d of %d noisy training values", negative, len(noisy))
	if w := clipped(recs["NMF-k3-n10-r0"]); len(w) != 1 || !strings.Contains(w[0], want) {
		t.Errorf("NMF warnings %q, want one saying %q were clipped at 0", w, want)
	}
	if w := clipped(recs["GRRN-k3-n10-r0"]); len(w) != 0 {
		t.Errorf("GRRN warnings %q, want none about clipping", w)
	}
}

// TestSplitSharedAcrossModels checks that every model and rank at a
// fraction and repeat trains on the same entries, and that repeats differ.
func TestSplitSharedAcrossModels(t *testing.T) {
	p := studyPlan(t, "kind: sparsity\nfractions: [0.8]\n")
	a := mustCellData(t, p, Cell{Model: "GRRN", Rank: 3, Fraction: 0.8})
	b := mustCellData(t, p, Cell{Model: "NMF", Rank: 10, Fraction: 0.8})
	c := mustCellData(t, p, Cell{Model: "GRRN", Rank: 3, Fraction: 0.8, Repeat: 1})
	if !reflect.DeepEqual(a.train.Entries(), b.train.Entries()) || !reflect.DeepEqual(a.test, b.test) {
		t.Error("two models at the same fraction and repeat got different splits")
	}
	if reflect.DeepEqual(a.train.Entries(), c.train.Entries()) {
		t.Error("two repeats got the same split")
	}
	// Round((1 - 0.8) x 40 x 60) = 480 training entries.
	if a.train.Len() != 480 || len(a.test) != 240 {
		t.Errorf("split into %d and %d entries, want 480 and 240", a.train.Len(), len(a.test))
	}
}
