package dataset

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func TestSyntheticDefaults(t *testing.T) {
	r, err := Open(SyntheticName, "", Options{Synthetic: SyntheticOptions{Seed: 3}})
	if err != nil {
		t.Fatal(err)
	}
	// round(0.07 * 300 * 500)
	if r.Name != "synthetic" || r.Rows != 300 || r.Cols != 500 || len(r.Entries) != 10500 {
		t.Fatalf("%s is %d x %d with %d entries, want synthetic 300 x 500 with 10500", r.Name, r.Rows, r.Cols, len(r.Entries))
	}
	checkIndexed(t, r)
	rowCount := make([]int, r.Rows)
	colCount := make([]int, r.Cols)
	var sum float64
	for _, e := range r.Entries {
		rowCount[e.Row]++
		colCount[e.Col]++
		sum += e.Value
		if e.Value != math.Round(e.Value) || e.Value < 1 || e.Value > 5 {
			t.Fatalf("entry %+v is not a star rating", e)
		}
	}
	if slices.Min(rowCount) < 3 || slices.Min(colCount) < 3 {
		t.Errorf("a row or column has fewer than 3 ratings (%d, %d)", slices.Min(rowCount), slices.Min(colCount))
	}
	// MovieLens-like skew: the busiest user rates many times the median.
	slices.Sort(rowCount)
	if rowCount[len(rowCount)-1] < 4*rowCount[len(rowCount)/2] {
		t.Errorf("row counts from %d to %d with median %d are not skewed", rowCount[0], rowCount[len(rowCount)-1], rowCount[len(rowCount)/2])
	}
	// The truth has mean 3.5; the grand mean of its 150,000 entries has a
	// standard error of about 0.05 from the random factors (each factor
	// mean has a relative error of about 0.45/sqrt(300)), and rounding and
	// clipping move it by less than 0.1: allow 0.3.
	if mean := sum / float64(len(r.Entries)); math.Abs(mean-3.5) > 0.3 {
		t.Errorf("mean rating %v, want 3.5 within 0.3", mean)
	}
	// The paper's cleaning keeps everything.
	cleaned, err := clean(context.Background(), rawOf(r), "synthetic", DefaultMinRatings)
	if err != nil || cleaned.Rows != r.Rows || cleaned.Cols != r.Cols || len(cleaned.Entries) != len(r.Entries) {
		t.Errorf("cleaning changed the synthetic data: %v", err)
	}
}

// rawOf turns Ratings back into a raw for cleaning.
func rawOf(r *Ratings) *raw {
	out := &raw{file: r.Name, rows: r.Rows, cols: r.Cols, rowIDs: r.RowIDs, colIDs: r.ColIDs}
	for _, e := range r.Entries {
		out.cells = append(out.cells, cell{row: int32(e.Row), col: int32(e.Col), value: e.Value})
	}
	return out
}

func TestSyntheticDeterministic(t *testing.T) {
	gen := func(o SyntheticOptions) *Ratings {
		t.Helper()
		r, err := Synthetic(o)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	small := SyntheticOptions{Rows: 40, Cols: 60, Rank: 3, Density: 0.2, Seed: 9}
	a, b := gen(small), gen(small)
	if !slices.Equal(a.Entries, b.Entries) {
		t.Error("equal options gave different data")
	}
	other := small
	other.Seed = 10
	if slices.Equal(a.Entries, gen(other).Entries) {
		t.Error("different seeds gave the same data")
	}
	// The noise level changes values, not the pattern.
	quiet := small
	quiet.NoiseStd = -1
	c := gen(quiet)
	samePattern, sameValues := true, true
	for i := range a.Entries {
		if a.Entries[i].Row != c.Entries[i].Row || a.Entries[i].Col != c.Entries[i].Col {
			samePattern = false
		}
		if a.Entries[i].Value != c.Entries[i].Value {
			sameValues = false
		}
	}
	if !samePattern || sameValues {
		t.Errorf("noise changed the pattern (%v) or left every value alone (%v)", !samePattern, sameValues)
	}
	if len(a.Entries) != 480 { // 0.2 * 40 * 60
		t.Errorf("%d entries, want 480", len(a.Entries))
	}
}

// TestSyntheticFactors checks the shape of the truth W Z: mean 3.5 and a
// coefficient of variation of 0.3, for several ranks.
func TestSyntheticFactors(t *testing.T) {
	for _, k := range []int{1, 5, 20} {
		o, err := SyntheticOptions{Rows: 400, Cols: 400, Rank: k}.resolved()
		if err != nil {
			t.Fatal(err)
		}
		w, z := syntheticFactors(o, rand.NewPCG(uint64(k), 5))
		var sum, ss float64
		for i := range o.Rows {
			for j := range o.Cols {
				var v float64
				for l := range k {
					v += w[i*k+l] * z[l*o.Cols+j]
				}
				if v < 0 {
					t.Fatalf("negative truth %v", v)
				}
				sum += v
				ss += v * v
			}
		}
		n := float64(o.Rows * o.Cols)
		mean := sum / n
		cv := math.Sqrt(ss/n-mean*mean) / mean
		// The entries share factors, so the grand mean has a relative
		// standard error near 0.3/sqrt(400) = 0.015 (each factor's mean
		// over 400 draws contributes 0.3/sqrt(2*400)); allow about 5 of
		// them (over 100 other seeds its standard deviation was 0.047-0.055,
		// i.e. 1.4-1.6%). The CV's spread comes from the shared factors
		// too: over those 100 seeds its standard deviation was 0.006-0.008
		// at each rank, so 0.05 is more than six of them.
		if math.Abs(mean-3.5) > 3.5*0.08 || math.Abs(cv-0.3) > 0.05 {
			t.Errorf("rank %d: mean %v and CV %v, want 3.5 and 0.3", k, mean, cv)
		}
	}
}

func TestSyntheticErrors(t *testing.T) {
	tests := []struct {
		name string
		o    SyntheticOptions
		want string
	}{
		{"too few rows", SyntheticOptions{Rows: 2}, "at least 3"},
		{"too large", SyntheticOptions{Rows: 5000, Cols: 5000}, "2^24"},
		{"rank too large", SyntheticOptions{Rows: 4, Cols: 10, Rank: 5}, "rank 5"},
		{"negative rank", SyntheticOptions{Rank: -1}, "rank -1"},
		{"density above 1", SyntheticOptions{Density: 1.5}, "density 1.5"},
		{"density too low", SyntheticOptions{Density: 0.001}, "needed for 3 in every row and column"},
		{"noise NaN", SyntheticOptions{NoiseStd: math.NaN()}, "finite"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Synthetic(tt.o)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

func TestSyntheticFull(t *testing.T) {
	r, err := Synthetic(SyntheticOptions{Rows: 5, Cols: 4, Rank: 2, Density: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Entries) != 20 || r.FractionObserved() != 1 {
		t.Errorf("density 1 gave %d of 20 entries", len(r.Entries))
	}
}
