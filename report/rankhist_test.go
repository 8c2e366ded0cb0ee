package report

import (
	"encoding/csv"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"
)

var sbcDir = flag.String("sbc.dir", "", "draw a rank-histogram PNG beside every sbc-ranks-*.csv file in this directory")

func TestRankHistogramFigure(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	uniform := func(reps, draws int) []int {
		rs := make([]int, reps)
		for i := range rs {
			rs[i] = rng.IntN(draws + 1)
		}
		return rs
	}
	tests := []struct {
		name       string
		quantities int
		reps       int
		draws      int
		cols, rows int
	}{
		// 2000 replicates of ranks among 99 draws: 20 bins of 5 ranks,
		// 15 quantities (GRRN's) in four rows of four.
		{"large", 15, 2000, 99, 4, 4},
		// 100 replicates among 19 draws: 20 bins of 1 rank.
		{"short", 6, 100, 19, 4, 2},
		// Two quantities: a row of two.
		{"narrow", 2, 30, 19, 2, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			names := make([]string, tt.quantities)
			ranks := make([][]int, tt.quantities)
			for q := range names {
				names[q] = fmt.Sprintf("W[%d][0]", q)
				ranks[q] = uniform(tt.reps, tt.draws)
			}
			f, err := RankHistogramFigure("GRRN", names, ranks, tt.draws)
			if err != nil {
				t.Fatal(err)
			}
			if f.Cols != tt.cols || f.Rows() != tt.rows {
				t.Errorf("layout %dx%d, want %dx%d", f.Rows(), f.Cols, tt.rows, tt.cols)
			}
			if len(f.Panels) != tt.quantities {
				t.Errorf("%d panels, want %d", len(f.Panels), tt.quantities)
			}
			for q, p := range f.Panels {
				if p.Plot.Title.Text != names[q] {
					t.Errorf("panel %d is titled %q, want %q", q, p.Plot.Title.Text, names[q])
				}
			}
			if len(f.Legend) != 3 {
				t.Errorf("legend has %d entries, want 3", len(f.Legend))
			}
			w, h := f.Size()
			checkPNG(t, f, pixels(w), pixels(h))
		})
	}
}

// pixels converts a length to pixels at FigureDPI.
func pixels(l vg.Length) int { return int(l.Dots(FigureDPI) + 0.5) }

func TestRankHistogramFigureErrors(t *testing.T) {
	tests := []struct {
		name       string
		quantities []string
		ranks      [][]int
		draws      int
		want       string
	}{
		{"no quantities", nil, nil, 9, "at least one quantity"},
		{"mismatch", []string{"a", "b"}, [][]int{{1}}, 9, "2 quantities but ranks for 1"},
		{"no draws", []string{"a"}, [][]int{{0}}, 0, "at least one draw"},
		{"no replicates", []string{"a"}, [][]int{{}}, 9, "at least one replicate"},
		{"ragged", []string{"a", "b"}, [][]int{{1, 2}, {1}}, 9, `"b" has 1 ranks`},
		{"out of range", []string{"a"}, [][]int{{3, 10}}, 9, "rank 10 is outside [0, 9]"},
		{"negative", []string{"a"}, [][]int{{-1}}, 9, "rank -1 is outside"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := RankHistogramFigure("GEE", tt.quantities, tt.ranks, tt.draws)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want one containing %q", err, tt.want)
			}
		})
	}
}

func TestRankBins(t *testing.T) {
	tests := []struct{ ranks, reps, want int }{
		{100, 2000, 20}, // 5 ranks a bin, 100 replicates expected in each
		{100, 100, 20},  // 5 expected per bin: just enough
		{100, 99, 10},   // 20 bins would expect 4.95
		{20, 30, 5},     // at most 6 bins, and 5 divides 20
		{7, 1000, 7},    // one rank a bin
		{13, 10, 1},     // 13 is prime and too many for 10 replicates
	}
	for _, tt := range tests {
		if got := rankBins(tt.ranks, tt.reps); got != tt.want {
			t.Errorf("rankBins(%d, %d) = %d, want %d", tt.ranks, tt.reps, got, tt.want)
		}
	}
}

func TestBinomialRange(t *testing.T) {
	// Binomial(10, 1/2): P(X <= 0) = 1/1024 < 0.005 <= P(X <= 1) = 11/1024,
	// and P(X <= 8) = 1013/1024 < 0.995 <= P(X <= 9) = 1023/1024.
	if lo, hi := binomialRange(10, 0.5, 0.99); lo != 1 || hi != 9 {
		t.Errorf("binomialRange(10, 0.5, 0.99) = [%d, %d], want [1, 9]", lo, hi)
	}
	// Binomial(4, 1/2) at mass 0.5: P(X <= 0) = 1/16 < 0.25 <= P(X <= 1)
	// = 5/16, and P(X <= 2) = 11/16 < 0.75 <= P(X <= 3) = 15/16.
	if lo, hi := binomialRange(4, 0.5, 0.5); lo != 1 || hi != 3 {
		t.Errorf("binomialRange(4, 0.5, 0.5) = [%d, %d], want [1, 3]", lo, hi)
	}
}

// TestRankHistogramsFromCSV draws results/sbc's figures from the ranks
// that bnmf's TestSBC writes with -sbc.out: for every sbc-ranks-<model>.csv
// in the directory given by -sbc.dir, sbc-ranks-<model>.png beside it.
// Without the flag it does nothing.
func TestRankHistogramsFromCSV(t *testing.T) {
	if *sbcDir == "" {
		t.Skip("no -sbc.dir")
	}
	paths, err := filepath.Glob(filepath.Join(*sbcDir, "sbc-ranks-*.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 {
		t.Fatalf("no sbc-ranks-*.csv in %s", *sbcDir)
	}
	for _, path := range paths {
		model, quantities, ranks, draws, err := readSBCRanks(path)
		if err != nil {
			t.Fatal(err)
		}
		f, err := RankHistogramFigure(model, quantities, ranks, draws)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out := strings.TrimSuffix(path, ".csv") + ".png"
		if err := f.Save(out); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s", out)
	}
}

// readSBCRanks reads a file of TestSBC's ranks: a header
// "model,replicate,draws,sweeps,<quantities...>", then one row per
// replicate.
func readSBCRanks(path string) (model string, quantities []string, ranks [][]int, draws int, err error) {
	f, err := os.Open(path)
	if err != nil {
		return "", nil, nil, 0, err
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		return "", nil, nil, 0, fmt.Errorf("%s: %w", path, err)
	}
	const fixed = 4
	if len(rows) < 2 || len(rows[0]) <= fixed || strings.Join(rows[0][:fixed], ",") != "model,replicate,draws,sweeps" {
		return "", nil, nil, 0, fmt.Errorf("%s: want a header model,replicate,draws,sweeps,<quantities> and at least one row", path)
	}
	quantities = rows[0][fixed:]
	ranks = make([][]int, len(quantities))
	for i, row := range rows[1:] {
		line := i + 2
		if model == "" {
			model = row[0]
		}
		d, err := strconv.Atoi(row[2])
		if err != nil || row[0] != model || (draws != 0 && d != draws) {
			return "", nil, nil, 0, fmt.Errorf("%s:%d: model %q, draws %q differ from the first row's", path, line, row[0], row[2])
		}
		draws = d
		for q := range quantities {
			v, err := strconv.Atoi(row[fixed+q])
			if err != nil {
				return "", nil, nil, 0, fmt.Errorf("%s:%d: %s: %w", path, line, quantities[q], err)
			}
			ranks[q] = append(ranks[q], v)
		}
	}
	return model, quantities, ranks, draws, nil
}
