package main

import (
	"bytes"
	"cmp"
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bnmf-lab/bnmf/internal/numpytest"
	"github.com/bnmf-lab/bnmf/posterior"
)

// predictCLI runs bnmf predict with args and returns its CSV records.
func predictCLI(t *testing.T, args ...string) [][]string {
	t.Helper()
	var out, errOut bytes.Buffer
	if err := run(context.Background(), append([]string{"predict"}, args...), &out, &errOut); err != nil {
		t.Fatalf("bnmf predict %s: %v\nstderr:\n%s", strings.Join(args, " "), err, errOut.String())
	}
	recs, err := csv.NewReader(&out).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

func parseFloats(t *testing.T, fields []string) []float64 {
	t.Helper()
	out := make([]float64, len(fields))
	for i, f := range fields {
		x, err := strconv.ParseFloat(f, 64)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = x
	}
	return out
}

// TestFitPredictRoundTrip fits in process and with the command, and
// checks that bnmf predict, reading the model file, gives for the
// held-out entries the predictive means and standard deviations that the
// sampler computed in process over every kept sweep (the model file
// stores all 40 of them here), and intervals equal to those of the
// in-process model.
func TestFitPredictRoundTrip(t *testing.T) {
	dir := t.TempDir()
	p := newPlanted(t, dir, 25, 20, 2, 0.5, 0.2, 1, 4)
	o := fitOptions{model: "GRRN", rank: 2, sweeps: 50, burnIn: 30, thin: 1, chains: 2, seed: 4, workers: 1,
		holdout: 0.2, samples: 100, progress: time.Hour}
	src, err := loadFitData(p.path, o)
	if err != nil {
		t.Fatal(err)
	}
	model, hyper, err := configureModel(o.model, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := fitData(context.Background(), o, src, model, hyper, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "fit")
	fitCLI(t, "--rank", "2", "--sweeps", "50", "--burn-in", "30", "--chains", "2", "--seed", "4", "--workers", "1", "--holdout", "0.2", "--out", out, p.path)

	r := src.ratings
	var pairs strings.Builder
	pairs.WriteString("row\tcolumn\n") // a header: neither is an id
	for _, e := range res.prob.test {
		pairs.WriteString(r.RowIDs[e.Row] + "\t" + r.ColIDs[e.Col] + "\n")
	}
	pairsFile := filepath.Join(dir, "pairs.tsv")
	if err := os.WriteFile(pairsFile, []byte(pairs.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	recs := predictCLI(t, "--pairs", pairsFile, "--level", "0.8", out)
	if want := []string{"row_id", "col_id", "mean", "sd", "lower", "upper", "range"}; !slices.Equal(recs[0], want) {
		t.Fatalf("header %v, want %v", recs[0], want)
	}
	recs = recs[1:]
	if len(recs) != len(res.prob.test) || len(res.prob.test) < 50 {
		t.Fatalf("%d predictions of %d held-out entries", len(recs), len(res.prob.test))
	}
	pooled := res.chains.Pooled
	idx := make([][2]int, len(res.prob.test))
	for i, e := range res.prob.test {
		idx[i] = [2]int{e.Row, e.Col}
	}
	inProcess := res.fittedModel().PredictPairs(idx, 0.8)
	for i, rec := range recs {
		e := res.prob.test[i]
		if rec[0] != r.RowIDs[e.Row] || rec[1] != r.ColIDs[e.Col] {
			t.Fatalf("line %d names %v, want %s, %s", i+2, rec[:2], r.RowIDs[e.Row], r.ColIDs[e.Col])
		}
		x := parseFloats(t, rec[2:6])
		// The same 40 products, averaged in another order (running
		// means in process): equal to 1e-12.
		sd := math.Sqrt(pooled.PredictiveVariance[i] + pooled.Sigma2Mean)
		if math.Abs(x[0]-pooled.PredictiveMean[i]) > 1e-12*math.Abs(x[0]) || math.Abs(x[1]-sd) > 1e-12*sd {
			t.Errorf("%v: mean %v, sd %v; in process %v, %v", rec[:2], x[0], x[1], pooled.PredictiveMean[i], sd)
		}
		if want := inProcess[i]; x[0] != want.Mean || x[1] != want.SD || x[2] != want.Lower || x[3] != want.Upper {
			t.Errorf("%v: %v, want the in-process model's %+v exactly", rec[:2], x, want)
		}
		if !(x[2] < x[0] && x[0] < x[3]) {
			t.Errorf("%v: interval [%v, %v] misses the mean %v", rec[:2], x[2], x[3], x[0])
		}
	}
	var sum fitSummary
	readJSON(t, filepath.Join(out, "summary.json"), &sum)
	if h := sum.Holdout; h == nil || h.Entries != len(res.prob.test) || h.MSE != pooled.TestMSE || len(h.Coverage) != 4 {
		t.Errorf("summary.json holdout %+v, want %d entries and MSE %v", sum.Holdout, len(res.prob.test), pooled.TestMSE)
	}
}

// TestPredictTop checks the rankings against brute force: the best
// columns by predictive mean, observed ones left out unless asked for.
func TestPredictTop(t *testing.T) {
	dir := t.TempDir()
	p := newPlanted(t, dir, 15, 12, 2, 0.6, 0.2, 1, 5)
	out := filepath.Join(dir, "fit")
	fitCLI(t, "--rank", "2", "--sweeps", "30", "--chains", "2", "--samples", "10", "--out", out, p.path)
	m := mustReadModel(t, out)
	observed := map[[2]string]bool{}
	for i := range m.Rows {
		for _, j := range m.ObservedCol[m.ObservedPtr[i]:m.ObservedPtr[i+1]] {
			observed[[2]string{m.RowIDs[i], m.ColIDs[j]}] = true
		}
	}
	if len(observed) != p.observed {
		t.Fatalf("the model holds %d observed entries, the file %d", len(observed), p.observed)
	}
	rowsFile := filepath.Join(dir, "rows.txt")
	if err := os.WriteFile(rowsFile, []byte(m.RowIDs[4]+"\n"+m.RowIDs[0]+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, incl := range []bool{false, true} {
		args := []string{"--top", "3", "--rows", rowsFile, "--workers", "2", "--min-observed", "0", out}
		if incl {
			args = append([]string{"--include-observed"}, args...)
		}
		recs := predictCLI(t, args...)[1:]
		if len(recs) != 6 || recs[0][0] != m.RowIDs[4] || recs[3][0] != m.RowIDs[0] {
			t.Fatalf("include observed %v: %v, want 3 lines for each of rows %s and %s", incl, recs, m.RowIDs[4], m.RowIDs[0])
		}
		for _, row := range []int{4, 0} {
			// Brute force: every eligible column's mean, best first.
			type cand struct {
				col  string
				mean float64
			}
			var all []cand
			for j := range m.Cols {
				if incl || !observed[[2]string{m.RowIDs[row], m.ColIDs[j]}] {
					all = append(all, cand{m.ColIDs[j], m.Predict(row, j, 0.9).Mean})
				}
			}
			slices.SortStableFunc(all, func(a, b cand) int {
				switch {
				case a.mean > b.mean:
					return -1
				case a.mean < b.mean:
					return 1
				}
				return 0
			})
			got := recs[:3]
			if row == 0 {
				got = recs[3:]
			}
			for r, rec := range got {
				// Means summed per sample in another order: equal to 1e-12.
				if rec[1] != strconv.Itoa(r+1) || rec[2] != all[r].col || math.Abs(parseFloats(t, rec[3:4])[0]-all[r].mean) > 1e-12*all[r].mean {
					t.Errorf("include observed %v, row %s, rank %d: %v, want column %s with mean %v", incl, m.RowIDs[row], r+1, rec, all[r].col, all[r].mean)
				}
			}
		}
	}
}

// TestPredictTopByLower checks --by lower against brute force: every
// eligible column's prediction, ranked by the lower end of its 80%
// interval (ties to the lower column), on a model with 40 samples whose
// rows have 60 columns. (The posterior package's TestTopByLowerBound
// checks the bound behind the pruning.)
func TestPredictTopByLower(t *testing.T) {
	dir := t.TempDir()
	p := newPlanted(t, dir, 20, 60, 3, 0.3, 0.3, 1, 6)
	out := filepath.Join(dir, "fit")
	fitCLI(t, "--rank", "3", "--sweeps", "60", "--chains", "2", "--samples", "40", "--out", out, p.path)
	m := mustReadModel(t, out)
	const n, level = 5, 0.8
	differs := false
	for _, incl := range []bool{false, true} {
		recs := predictCLI(t, "--top", strconv.Itoa(n), "--by", "lower", "--level", "0.8", "--workers", "3", "--min-observed", "0", fmt.Sprint("--include-observed=", incl), out)[1:]
		if len(recs) != n*m.Rows {
			t.Fatalf("%d lines, want %d", len(recs), n*m.Rows)
		}
		for row := range m.Rows {
			observed := m.ObservedCol[m.ObservedPtr[row]:m.ObservedPtr[row+1]]
			var all []posterior.Ranked
			for j := range m.Cols {
				if _, obs := slices.BinarySearch(observed, int32(j)); incl || !obs {
					all = append(all, posterior.Ranked{Col: j, Prediction: m.Predict(row, j, level)})
				}
			}
			slices.SortStableFunc(all, func(a, b posterior.Ranked) int { return cmp.Compare(b.Lower, a.Lower) })
			for r, rec := range recs[row*n : (row+1)*n] {
				want := append([]string{m.RowIDs[row], strconv.Itoa(r + 1), m.ColIDs[all[r].Col]}, predictionFields(all[r].Prediction)...)
				want = append(want, m.RangeFlag(all[r].Mean))
				if !slices.Equal(rec, want) {
					t.Fatalf("include observed %v, row %d, rank %d: %v, want %v", incl, row, r+1, rec, want)
				}
			}
			byMean := m.Top(row, posterior.TopOptions{N: n, Level: level, IncludeObserved: incl})
			for r := range byMean {
				differs = differs || byMean[r].Col != all[r].Col
			}
		}
	}
	if !differs {
		t.Error("ranking by the lower end gave the mean's ranking in every row")
	}
}

// TestPredictErrors checks that bad pairs and models give one-line
// errors naming the id and the line.
func TestPredictErrors(t *testing.T) {
	dir := t.TempDir()
	p := newPlanted(t, dir, 10, 8, 1, 0.6, 0.2, 1, 6)
	out := filepath.Join(dir, "fit")
	fitCLI(t, "--rank", "1", "--sweeps", "10", "--chains", "1", "--out", out, p.path)
	file := func(name, content string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	r0, c0 := rowID(0), colID(0)
	notZip := file("model.npz", "not a zip")
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"unknown row", []string{"--pairs", file("p1.csv", r0+","+c0+"\nnobody,"+c0+"\n"), out}, `p1.csv:2: row id "nobody" is not in the model`},
		{"unknown column", []string{"--pairs", file("p2.csv", "\n"+r0+","+c0+"\n"+r0+",nothing\n"), out}, `p2.csv:3: column id "nothing" is not in the model`},
		{"unknown first line", []string{"--pairs", file("p3.csv", r0+",nothing\n"), out}, `p3.csv:1: column id "nothing"`},
		{"one field", []string{"--pairs", file("p4.csv", r0+"\n"), out}, "p4.csv:1: want 2 fields separated by spaces, found 1"},
		{"no pairs", []string{"--pairs", file("p5.csv", "row,col\n"), out}, "p5.csv: no pairs"},
		{"unknown row for top", []string{"--top", "2", "--rows", file("r.txt", "ghost\n"), out}, `r.txt:1: row id "ghost" is not in the model`},
		{"neither", []string{out}, "give either --pairs FILE or --top N"},
		{"level", []string{"--top", "1", "--level", "1", out}, "--level 1 must be in (0, 1)"},
		// The last float below 1: (1 + level) / 2 rounds to 1, where the
		// upper quantile is infinite.
		{"level rounds to 1", []string{"--pairs", file("p6.csv", r0+","+c0+"\n"), "--level", "0.9999999999999999", out}, "--level 0.9999999999999999 is too close to 1: the upper end's probability (1+level)/2 rounds to 1 in float64, where the quantile is infinite; the largest level is 0.9999999999999998"},
		{"level rounds to 1 for top", []string{"--top", "1", "--level", "0.9999999999999999", out}, "--level 0.9999999999999999 is too close to 1"},
		{"no model", []string{"--top", "1", dir + "/nothing"}, "nothing"},
		{"not a model", []string{"--top", "1", notZip}, "model.npz: zip: not a valid zip file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			err := run(context.Background(), append([]string{"predict"}, tt.args...), &stdout, &stderr)
			if err == nil || !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("error %v, want one line containing %q", err, tt.want)
			}
		})
	}
}

// TestFitOutputsLoadInNumpy loads a fit's .npy files and model.npz with
// numpy, as the README shows, and compares what numpy computes from them
// with the same numbers in Go. Skipped without numpy.
func TestFitOutputsLoadInNumpy(t *testing.T) {
	py := numpytest.Python(t)
	dir := t.TempDir()
	p := newPlanted(t, dir, 12, 9, 2, 0.6, 0.2, 1, 7)
	out := filepath.Join(dir, "fit")
	fitCLI(t, "--rank", "2", "--sweeps", "20", "--chains", "2", "--samples", "8", "--out", out, p.path)
	script := `
import json, sys
import numpy as np
d = sys.argv[1]
W = np.load(d + "/W_mean.npy"); Z = np.load(d + "/Z_mean.npy")
assert W.dtype == np.float64 and W.shape == (12, 2) and Z.shape == (2, 9), (W.shape, Z.shape)
assert np.load(d + "/W_sd.npy").shape == (12, 2) and np.load(d + "/Z_sd.npy").shape == (2, 9)
rows = open(d + "/row_ids.txt").read().split("\n")[:-1]
csv = np.genfromtxt(d + "/W_mean.csv", delimiter=",", skip_header=1)[:, 1:]
assert (csv == W).all()
m = np.load(d + "/model.npz")
info = json.loads(m["model.json"])
assert info["format"] == "bnmf-model" and info["row_ids"] == rows, info["format"]
Ws, Zs, s2 = m["W"], m["Z"], m["sigma2"]
assert Ws.shape == (8, 12, 2) and Zs.shape == (8, 2, 9) and s2.shape == (8,)
ptr, idx = m["observed_indptr"], m["observed_indices"]
assert ptr.dtype == np.int64 and idx.dtype == np.int32 and ptr[-1] == len(idx)
pred = np.einsum("smk,skn->mn", Ws, Zs) / len(s2)
print(repr(float((W @ Z)[3, 4])), repr(float(pred[3, 4])), repr(float(pred[11, 8])))
`
	cmd := exec.Command(py, "-c", script, out)
	got, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("numpy: %v\n%s", err, got)
	}
	f := parseFloats(t, strings.Fields(string(got)))
	m := mustReadModel(t, out)
	w := readNpy(t, filepath.Join(out, "W_mean.npy"), 12, 2)
	z := readNpy(t, filepath.Join(out, "Z_mean.npy"), 2, 9)
	want := []float64{w[3*2]*z[4] + w[3*2+1]*z[9+4], m.Predict(3, 4, 0.9).Mean, m.Predict(11, 8, 0.9).Mean}
	for i := range want {
		// Sums of a few products in another order: equal to 1e-12.
		if math.Abs(f[i]-want[i]) > 1e-12*math.Abs(want[i]) {
			t.Errorf("numpy computes %v, Go %v", f[i], want[i])
		}
	}
}
