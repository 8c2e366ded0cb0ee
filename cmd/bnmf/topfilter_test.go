package main

import (
	"cmp"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/bnmf-lab/bnmf/posterior"
)

// plantedValues returns the values of a planted data file.
func plantedValues(t *testing.T, path string) []float64 {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(raw)), "\n")[1:] // after the header
	out := make([]float64, len(lines))
	for i, l := range lines {
		f := strings.Split(l, ",")
		if out[i], err = strconv.ParseFloat(f[2], 64); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// TestPredictTopMinObserved checks --min-observed against brute force: the
// best columns by predictive mean among those with at least that many
// observed entries, each with the range flag of its mean; and that the
// default leaves out the columns with fewer than posterior.DefaultMinObserved.
func TestPredictTopMinObserved(t *testing.T) {
	dir := t.TempDir()
	// 30 x 40 at density 0.3: columns hold about 9 entries, from 6 to 15
	// here, so both thresholds below split them.
	p := newPlanted(t, dir, 30, 40, 2, 0.3, 0.3, 1, 8)
	out := filepath.Join(dir, "fit")
	fitCLI(t, "--rank", "2", "--sweeps", "30", "--chains", "2", "--samples", "10", "--out", out, p.path)
	m := mustReadModel(t, out)
	counts := m.ColumnCounts()
	var lo, hi float64
	for i, v := range plantedValues(t, p.path) {
		if i == 0 || v < lo {
			lo = v
		}
		if i == 0 || v > hi {
			hi = v
		}
	}
	if !slices.Equal(m.TrainRange, []float64{lo, hi}) {
		t.Fatalf("model.json train_range %v, want the values' range [%v %v]", m.TrainRange, lo, hi)
	}
	const n = 4
	for _, tc := range []struct {
		name string
		args []string
		min  int
	}{
		{"default", nil, posterior.DefaultMinObserved},
		{"8", []string{"--min-observed", "8"}, 8},
	} {
		t.Run(tc.name, func(t *testing.T) {
			eligible := 0
			for j := range m.Cols {
				if int(counts[j]) >= tc.min {
					eligible++
				}
			}
			if eligible < n+5 || eligible > m.Cols-5 {
				t.Fatalf("%d of %d columns have %d or more entries (counts %v): the test needs both kinds", eligible, m.Cols, tc.min, counts)
			}
			recs := predictCLI(t, append(tc.args, "--top", strconv.Itoa(n), out)...)
			if want := []string{"row_id", "rank", "col_id", "mean", "sd", "lower", "upper", "range"}; !slices.Equal(recs[0], want) {
				t.Fatalf("header %v, want %v", recs[0], want)
			}
			recs = recs[1:]
			if len(recs) != n*m.Rows {
				t.Fatalf("%d lines, want %d", len(recs), n*m.Rows)
			}
			for row := range m.Rows {
				observed := m.ObservedCol[m.ObservedPtr[row]:m.ObservedPtr[row+1]]
				var all []posterior.Ranked
				for j := range m.Cols {
					if _, obs := slices.BinarySearch(observed, int32(j)); !obs && int(counts[j]) >= tc.min {
						all = append(all, posterior.Ranked{Col: j, Prediction: m.Predict(row, j, 0.9)})
					}
				}
				slices.SortStableFunc(all, func(a, b posterior.Ranked) int { return cmp.Compare(b.Mean, a.Mean) })
				for r, rec := range recs[row*n : (row+1)*n] {
					want := append([]string{m.RowIDs[row], strconv.Itoa(r + 1), m.ColIDs[all[r].Col]}, predictionFields(all[r].Prediction)...)
					want = append(want, m.RangeFlag(all[r].Mean))
					// The means are summed in the same order: equal exactly.
					if !slices.Equal(rec, want) {
						t.Fatalf("row %d, rank %d: %v, want %v", row, r+1, rec, want)
					}
				}
			}
		})
	}
}
