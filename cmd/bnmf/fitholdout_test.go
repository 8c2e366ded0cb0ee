package main

import (
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/bnmf-lab/bnmf/internal/npy"
)

// TestFitHoldoutOutputs checks holdout.csv, holdout.npy and
// holdout_index.npy against summary.json, whose scores were computed in
// process from the same predictive distributions, and the baselines'
// errors against a mean computed here from the data file; with and
// without --standardize, which must give the same numbers in the data's
// units.
func TestFitHoldoutOutputs(t *testing.T) {
	dir := t.TempDir()
	p := newPlanted(t, dir, 25, 20, 2, 0.5, 0.3, 1, 9)
	values := plantedValues(t, p.path)
	var total float64
	for _, v := range values {
		total += v
	}
	for _, std := range []bool{false, true} {
		out := filepath.Join(dir, "fit-"+strconv.FormatBool(std))
		args := []string{"--rank", "2", "--sweeps", "40", "--chains", "2", "--holdout", "0.2", "--out", out, p.path}
		if std {
			args = append([]string{"--standardize"}, args...)
		}
		fitCLI(t, args...)
		var sum fitSummary
		readJSON(t, filepath.Join(out, "summary.json"), &sum)
		h := sum.Holdout
		if h == nil {
			t.Fatal("summary.json has no holdout")
		}
		recs := readCSVFile(t, filepath.Join(out, "holdout.csv"))
		if want := append([]string{"row_id", "col_id"}, heldOutColumns...); !slices.Equal(recs[0], want) {
			t.Fatalf("holdout.csv header %v, want %v", recs[0], want)
		}
		recs = recs[1:]
		if len(recs) != h.Entries {
			t.Fatalf("holdout.csv has %d entries, summary.json %d", len(recs), h.Entries)
		}
		e := len(recs)
		nums := readNpy(t, filepath.Join(out, "holdout.npy"), e, len(heldOutColumns))
		f, err := os.Open(filepath.Join(out, "holdout_index.npy"))
		if err != nil {
			t.Fatal(err)
		}
		idx, err := npy.ReadShape[int64](f, []int{e, 2})
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		rowIDs := strings.Split(strings.TrimSuffix(string(mustRead(t, filepath.Join(out, "row_ids.txt"))), "\n"), "\n")
		colIDs := strings.Split(strings.TrimSuffix(string(mustRead(t, filepath.Join(out, "col_ids.txt"))), "\n"), "\n")
		var se, ld, crps, heldSum float64
		covered := 0
		for i, rec := range recs {
			x := parseFloats(t, rec[2:])
			if !slices.Equal(x, nums[i*len(x):(i+1)*len(x)]) {
				t.Fatalf("line %d: %v, holdout.npy %v", i+2, x, nums[i*len(x):(i+1)*len(x)])
			}
			if rec[0] != rowIDs[idx[2*i]] || rec[1] != colIDs[idx[2*i+1]] {
				t.Fatalf("line %d names %v, holdout_index.npy %v", i+2, rec[:2], idx[2*i:2*i+2])
			}
			v, mean, lo, hi := x[0], x[1], x[3], x[4]
			se += (v - mean) * (v - mean)
			ld += x[5]
			crps += x[6]
			heldSum += v
			if lo <= v && v <= hi {
				covered++
			}
			if !(lo < mean && mean < hi && x[2] > 0) {
				t.Errorf("line %d: mean %v, sd %v, interval [%v, %v]", i+2, mean, x[2], lo, hi)
			}
		}
		n := float64(e)
		// The same numbers, summed in another order: equal to 1e-12.
		for _, c := range []struct {
			name      string
			got, want float64
		}{
			{"MSE", se / n, h.MSE}, {"mean log density", ld / n, h.MeanLogDensity}, {"CRPS", crps / n, h.MeanCRPS},
		} {
			if math.Abs(c.got-c.want) > 1e-12*math.Abs(c.want) {
				t.Errorf("standardize %v: %s from holdout.csv %v, summary.json %v", std, c.name, c.got, c.want)
			}
		}
		// summary.json's coverage counts PIT values; the interval's ends
		// come from a quantile search to a tolerance, so an entry within
		// it of an end may be counted differently: allow one.
		if l := slices.Index(h.Levels, heldOutLevel); math.Abs(float64(covered)-h.Coverage[l]*n) > 1.5 {
			t.Errorf("standardize %v: %d of %d held-out values in their 90%% interval, summary.json coverage %v", std, covered, e, h.Coverage[l])
		}
		names := make([]string, len(h.Baselines))
		for i, b := range h.Baselines {
			names[i] = b.Model
		}
		if !slices.Equal(names, []string{"GlobalMean", "RowMean", "ColumnMean", "Bias"}) {
			t.Fatalf("baselines %v", names)
		}
		// GlobalMean predicts the training mean everywhere.
		trainMean := (total - heldSum) / float64(len(values)-e)
		var want float64
		for _, rec := range recs {
			d := parseFloats(t, rec[2:3])[0] - trainMean
			want += d * d
		}
		want /= n
		if got := h.Baselines[0].MSE; math.Abs(got-want) > 1e-9*want {
			t.Errorf("standardize %v: GlobalMean MSE %v, want %v", std, got, want)
		}
		if h.Baselines[3].MSE >= want || h.MSE >= want {
			t.Errorf("standardize %v: Bias MSE %v, model MSE %v, not below GlobalMean's %v on planted data", std, h.Baselines[3].MSE, h.MSE, want)
		}
	}
}

func readCSVFile(t *testing.T, path string) [][]string {
	t.Helper()
	recs, err := csv.NewReader(strings.NewReader(string(mustRead(t, path)))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return recs
}
