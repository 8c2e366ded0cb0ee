package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// TestFitMovieLensRatingsCSV fits MovieLens's ratings.csv layout given as
// a file, without --format: testdata/ratings.csv (made by
// testdata/make-ratings.py) has 288 movies, 46 of them with one or two
// ratings, so the cleaning MovieLens data gets (rows and columns with at
// least 3 entries) must leave fewer columns, each with 3 or more. With
// --format triplets the error names the format that reads it.
func TestFitMovieLensRatingsCSV(t *testing.T) {
	path := filepath.Join("testdata", "ratings.csv")
	out := filepath.Join(t.TempDir(), "fit")
	fitCLI(t, "--rank", "2", "--sweeps", "20", "--chains", "1", "--samples", "5", "--out", out, path)
	var man fitManifest
	readJSON(t, filepath.Join(out, "manifest.json"), &man)
	if man.Data.Format != "movielens-latest-small" {
		t.Errorf("manifest.json data format %q, want movielens-latest-small", man.Data.Format)
	}
	m := mustReadModel(t, out)
	counts := m.ColumnCounts()
	for j, c := range counts {
		if c < 3 {
			t.Errorf("column %s has %d entries after cleaning", m.ColIDs[j], c)
		}
	}
	for i := range m.Rows {
		if n := m.ObservedPtr[i+1] - m.ObservedPtr[i]; n < 3 {
			t.Errorf("row %s has %d entries after cleaning", m.RowIDs[i], n)
		}
	}
	if m.Cols >= 288 || m.Cols < 200 {
		t.Errorf("%d columns after cleaning, want fewer than the file's 288 (but most of them)", m.Cols)
	}

	var stdout, stderr bytes.Buffer
	err := run(context.Background(), []string{"fit", "--format", "triplets", "--out", out + "2", path}, &stdout, &stderr)
	if err == nil || !strings.Contains(err.Error(), "ratings.csv:1:") || !strings.Contains(err.Error(), "--format movielens-latest-small") {
		t.Errorf("fit --format triplets on ratings.csv: %v; want an error at line 1 naming --format movielens-latest-small", err)
	}
}
