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
)

// writeMadeUpRatings writes made-up ratings in the layout of MovieLens's
// ratings.csv (header userId,movieId,rating,timestamp; half stars from 0.5
// to 5) to dir/ratings.csv and returns its path and the number of ratings
// of each movie. 150 users rate movies drawn with Zipf-like popularity
// from 300, so that many movies have one or two ratings, as in small
// rating sets; the ratings come from a rank-3 nonnegative matrix plus
// noise, rounded to half stars.
func writeMadeUpRatings(t *testing.T, dir string) (string, map[int]int) {
	t.Helper()
	rng := rand.New(rand.NewPCG(2026, 1124))
	const users, movies, k = 150, 300, 3
	w := make([]float64, users*k)
	z := make([]float64, movies*k)
	for i := range w {
		w[i] = 0.5 * (rng.ExpFloat64() + rng.ExpFloat64()) // Gamma(2, rate 2)
	}
	for i := range z {
		z[i] = 0.5 * (rng.ExpFloat64() + rng.ExpFloat64())
	}
	cum := make([]float64, movies) // cumulative popularity 1/(j+1)^0.9
	var total float64
	for j := range cum {
		total += 1 / math.Pow(float64(j+1), 0.9)
		cum[j] = total
	}
	var b strings.Builder
	b.WriteString("userId,movieId,rating,timestamp\n")
	counts := make(map[int]int)
	stamp := 1_000_000_000
	for u := range users {
		seen := make(map[int]bool)
		for range 8 + rng.IntN(33) {
			x := rng.Float64() * total
			j := 0
			for cum[j] < x {
				j++
			}
			if seen[j] {
				continue
			}
			seen[j] = true
			v := rng.NormFloat64() * 0.6
			for f := range k {
				v += w[u*k+f] * z[j*k+f]
			}
			v = min(5, max(0.5, math.Round(2*v)/2))
			stamp += 1 + rng.IntN(5000)
			movie := 10*j + 1
			counts[movie]++
			fmt.Fprintf(&b, "%d,%d,%.1f,%d\n", u+1, movie, v, stamp)
		}
	}
	path := filepath.Join(dir, "ratings.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path, counts
}

// TestFitMovieLensRatingsCSV fits MovieLens's ratings.csv layout given as
// a file, without --format: writeMadeUpRatings's file has movies with one
// or two ratings, so the cleaning MovieLens data gets (rows and columns
// with at least 3 entries) must leave out at least those, and every row
// and column left must have 3 or more. With --format triplets the error
// names the format that reads it.
func TestFitMovieLensRatingsCSV(t *testing.T) {
	dir := t.TempDir()
	path, counts := writeMadeUpRatings(t, dir)
	rare := 0
	for _, c := range counts {
		if c < 3 {
			rare++
		}
	}
	if rare == 0 {
		t.Fatalf("the made-up file's %d movies all have 3 ratings or more; the test needs rare ones", len(counts))
	}
	out := filepath.Join(dir, "fit")
	fitCLI(t, "--rank", "2", "--sweeps", "20", "--chains", "1", "--samples", "5", "--out", out, path)
	var man fitManifest
	readJSON(t, filepath.Join(out, "manifest.json"), &man)
	if man.Data.Format != "movielens-latest-small" {
		t.Errorf("manifest.json data format %q, want movielens-latest-small", man.Data.Format)
	}
	m := mustReadModel(t, out)
	for j, c := range m.ColumnCounts() {
		if c < 3 {
			t.Errorf("column %s has %d entries after cleaning", m.ColIDs[j], c)
		}
	}
	for i := range m.Rows {
		if n := m.ObservedPtr[i+1] - m.ObservedPtr[i]; n < 3 {
			t.Errorf("row %s has %d entries after cleaning", m.RowIDs[i], n)
		}
	}
	// Most movies stay: cleaning removes the rare ones and those that
	// lose raters with them.
	if m.Cols > len(counts)-rare || m.Cols < (len(counts)-rare)/2 {
		t.Errorf("%d columns after cleaning; the file has %d movies, %d of them with fewer than 3 ratings",
			m.Cols, len(counts), rare)
	}
	t.Logf("%d movies, %d with fewer than 3 ratings; %d columns after cleaning", len(counts), rare, m.Cols)

	var stdout, stderr bytes.Buffer
	err := run(context.Background(), []string{"fit", "--format", "triplets", "--out", out + "2", path}, &stdout, &stderr)
	if err == nil || !strings.Contains(err.Error(), "ratings.csv:1:") || !strings.Contains(err.Error(), "--format movielens-latest-small") {
		t.Errorf("fit --format triplets on ratings.csv: %v; want an error at line 1 naming --format movielens-latest-small", err)
	}
}
