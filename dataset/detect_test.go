package dataset

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestDetectFormat(t *testing.T) {
	for _, tc := range []struct {
		name, file, content, want string
	}{
		{"ratings.csv", "ratings.csv", "userId,movieId,rating,timestamp\n1,10,4.0,1000000000\n", "movielens-latest-small"},
		{"ratings.csv/BOM and CRLF", "r.txt", "\ufeffuserId,movieId,rating,timestamp\r\n1,10,4.0,1000000000\r\n", "movielens-latest-small"},
		{"ratings.csv/blank first", "r.csv", "\n\nuserId,movieId,rating,timestamp\n1,10,4.0,1000000000\n", "movielens-latest-small"},
		{"ratings.dat/1M", "ratings.dat", "7::42::5::1000000000\n", "movielens-10m"},
		{"ratings.dat/no timestamp", "ratings.dat", "7::42::5\n", "movielens-1m"},
		{"u.data", "u.data", "196\t242\t3\t881250949\n", "movielens-100k"},
		{"tsv with 4 fields, not integers", "x.tsv", "a\tb\t3\t4\n", "triplets"},
		{"triplets with header", "x.csv", "user,item,rating\nu1,i1,4\n", "triplets"},
		{"triplets, no header", "x.csv", "1,10,3.5\n", "triplets"},
		{"csv with 4 fields", "x.csv", "1,10,3.5,99\n", "triplets"},
		{"mtx by name", "m.mtx", "3 4 2\n1 1 2\n", "matrix-market"},
		{"mtx by header", "m.txt", "%%MatrixMarket matrix coordinate real general\n3 4 1\n1 1 2\n", "matrix-market"},
		{"empty", "e.csv", "", "triplets"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), tc.file)
			if err := os.WriteFile(path, []byte(tc.content), 0o644); err != nil {
				t.Fatal(err)
			}
			got, err := DetectFormat(path)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("%q: %s, want %s", tc.content, got, tc.want)
			}
		})
	}
}

// writeSmallRatingsCSV writes a made-up file in the layout of MovieLens's
// ratings.csv to dir and returns its path: users 1-4 rate movies 10, 20
// and 30, user 5 rates movies 10 and 40, and user 1 movie 50.
func writeSmallRatingsCSV(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("userId,movieId,rating,timestamp\n")
	stamp := 1_000_000_000
	add := func(user, movie int) {
		stamp++
		fmt.Fprintf(&b, "%d,%d,%.1f,%d\n", user, movie, 0.5+float64((user*7+movie)%10)/2, stamp)
	}
	for user := 1; user <= 4; user++ {
		for _, movie := range []int{10, 20, 30} {
			add(user, movie)
		}
	}
	add(5, 10)
	add(5, 40)
	add(1, 50)
	path := filepath.Join(dir, "ratings.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestOpenFileMovieLensCleaning checks that a MovieLens ratings.csv given
// as a file, with its format detected or named, is cleaned as Open cleans
// a dataset: writeSmallRatingsCSV's file has users 1-4 rating movies 10,
// 20 and 30, user 5 two movies and movie 50 one rating, so that removing
// users and then movies with fewer than 3 ratings leaves the 4 x 3 block.
func TestOpenFileMovieLensCleaning(t *testing.T) {
	path := writeSmallRatingsCSV(t, t.TempDir())
	for _, format := range []string{"", "movielens-latest-small", "movielens-25m"} {
		r, err := OpenFile(path, format, Options{})
		if err != nil {
			t.Fatalf("format %q: %v", format, err)
		}
		if !slices.Equal(r.RowIDs, []string{"1", "2", "3", "4"}) || !slices.Equal(r.ColIDs, []string{"10", "20", "30"}) || len(r.Entries) != 12 {
			t.Errorf("format %q: users %v, movies %v, %d ratings; want users 1-4, movies 10, 20, 30, 12 ratings",
				format, r.RowIDs, r.ColIDs, len(r.Entries))
		}
		// MinRatings 1 keeps everything.
		if r, err = OpenFile(path, format, Options{MinRatings: 1}); err != nil || r.Rows != 5 || r.Cols != 5 || len(r.Entries) != 15 {
			t.Errorf("format %q, MinRatings 1: %v", format, err)
		}
	}
}

// TestOpenFileSameAsOpen checks on MovieLens 100K that its u.data read as
// a file (format detected) gives the dataset that Open gives by name.
func TestOpenFileSameAsOpen(t *testing.T) {
	dir := DataDir()
	path, err := Path("movielens-100k", dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); err != nil {
		t.Skipf("MovieLens 100K not in %s (bnmf data fetch movielens-100k): %v", dir, err)
	}
	byName, err := Open("movielens-100k", dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	byFile, err := OpenFile(path, "", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if byFile.Rows != byName.Rows || byFile.Cols != byName.Cols || !slices.Equal(byFile.Entries, byName.Entries) ||
		!slices.Equal(byFile.RowIDs, byName.RowIDs) || !slices.Equal(byFile.ColIDs, byName.ColIDs) {
		t.Errorf("by file %d x %d with %d ratings, by name %d x %d with %d", byFile.Rows, byFile.Cols, len(byFile.Entries),
			byName.Rows, byName.Cols, len(byName.Entries))
	}
}

// TestOpenFileSuggestsFormat checks that a file refused in the format
// given says which format reads it, and still reports the line.
func TestOpenFileSuggestsFormat(t *testing.T) {
	dir := t.TempDir()
	ratings := writeSmallRatingsCSV(t, dir)
	triplets := filepath.Join(dir, "mine.csv")
	if err := os.WriteFile(triplets, []byte("user,item,rating\nu1,i1,4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path, format, want string
		line               int
	}{
		{ratings, "triplets", "read it with --format movielens-latest-small", 1},
		{triplets, "movielens-latest-small", "read it with --format triplets", 1},
	} {
		_, err := OpenFile(tc.path, tc.format, Options{})
		var pe *ParseError
		if !errors.As(err, &pe) || pe.Line != tc.line || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s as %s: %v; want a parse error at line %d that says %q", tc.path, tc.format, err, tc.line, tc.want)
		}
	}
}
