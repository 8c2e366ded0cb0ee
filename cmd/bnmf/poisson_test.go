package main

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

// writeCounts writes a rows x cols matrix of counts drawn from Poi(w_i .
// z_j) with rank-2 factors, each cell observed with probability density,
// as triplets, and returns the file's path.
func writeCounts(t *testing.T, dir string, rows, cols int, density float64, seed uint64) string {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 77))
	var b strings.Builder
	b.WriteString("row\tcol\tcount\n")
	w := make([]float64, rows*2)
	z := make([]float64, cols*2)
	for i := range w {
		w[i] = 1.5 * rng.Float64()
	}
	for i := range z {
		z[i] = 1.5 * rng.Float64()
	}
	for i := range rows {
		for j := range cols {
			if rng.Float64() >= density {
				continue
			}
			mu := w[2*i]*z[2*j] + w[2*i+1]*z[2*j+1]
			fmt.Fprintf(&b, "r%d\tc%d\t%v\n", i, j, distuv.Poisson{Lambda: mu, Src: rng}.Rand())
		}
	}
	path := filepath.Join(dir, "counts.tsv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestFitPredictPoisson fits PGG to counts with the command and checks
// that bnmf predict gives Poisson mixture predictions: whole-count
// intervals, a variance of at least the mean, and a ranking by lower end
// whose pruning bound holds for every column.
func TestFitPredictPoisson(t *testing.T) {
	dir := t.TempDir()
	path := writeCounts(t, dir, 20, 30, 0.5, 3)
	out := filepath.Join(dir, "fit")
	stdout, _ := fitCLI(t, "--model", "PGG", "--rank", "2", "--sweeps", "60", "--chains", "2", "--holdout", "0.2", "--samples", "40", "--out", out, path)
	if !strings.Contains(stdout, "sigma^2: none (Poisson likelihood") {
		t.Errorf("the summary does not say that PGG has no sigma^2:\n%s", stdout)
	}
	m := mustReadModel(t, out)
	if !m.poisson {
		t.Fatal("the model file of PGG does not read as a Poisson model")
	}
	recs := predictCLI(t, "--top", "4", "--by", "lower", "--level", "0.8", "--min-observed", "0", out)[1:]
	if len(recs) != 4*m.Rows {
		t.Fatalf("%d lines, want %d", len(recs), 4*m.Rows)
	}
	for _, rec := range recs {
		x := parseFloats(t, rec[3:7])
		mean, sd, lo, hi := x[0], x[1], x[2], x[3]
		// A mixture of Poissons has variance at least its mean; its
		// interval ends are counts (both 0 for a mean of 0.1 or so, so
		// the interval need not hold the mean).
		if lo != math.Trunc(lo) || hi != math.Trunc(hi) || !(lo <= hi) || !(sd*sd >= mean*(1-1e-12)) {
			t.Fatalf("%v: not a Poisson mixture's prediction", rec)
		}
	}
	sc := newTopScratch(m)
	for row := range m.Rows {
		m.topColumns(row, topOptions{n: 4, level: 0.8, inclObs: true, byLower: true}, sc)
		for j := range m.Cols {
			if p := m.predictEntry(row, j, 0.8, sc.mu); p.Lower > sc.bound[j] {
				t.Fatalf("row %d, column %d: lower end %v above its bound %v", row, j, p.Lower, sc.bound[j])
			}
		}
	}
}

// TestFitRefusesNonCounts checks that fitting a Poisson model to a file
// with a fraction names the file and line, and that --standardize is
// refused.
func TestFitRefusesNonCounts(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "ratings.tsv")
	if err := os.WriteFile(path, []byte("1\t1\t3\n1\t2\t2\n2\t1\t0.5\n2\t2\t4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	counts := writeCounts(t, dir, 5, 5, 0.8, 1)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--model", "PGGG", path}, "fit: " + path + ":3: value: not a count (a nonnegative integer): 0.5"},
		{[]string{"--model", "PGG", "--standardize", counts}, "fit: --model PGG has a Poisson likelihood and fits counts as they are; --standardize would make them fractions"},
	} {
		var outBuf, errBuf bytes.Buffer
		err := run(context.Background(), append([]string{"fit", "--rank", "2", "--out", filepath.Join(dir, "out")}, c.args...), &outBuf, &errBuf)
		if err == nil || err.Error() != c.want {
			t.Errorf("%v: got error %v, want %q", c.args, err, c.want)
		}
	}
}
