package main

import (
	"bytes"
	"context"
	"flag"
	"github.com/bnmf-lab/bnmf/internal/golden"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// checkGolden compares got with testdata/name; see golden.Check.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	golden.Check(t, filepath.Join("testdata", name), got, *update)
}

// TestDataDescribe describes a small triplet file and compares the Table 1
// row it prints and the Markdown distribution it writes with golden files.
func TestDataDescribe(t *testing.T) {
	dir := t.TempDir()
	src := "user,item,rating\nu1,i1,5\nu1,i2,3\nu2,i1,4\nu2,i3,4\nu3,i2,1\n"
	in := filepath.Join(dir, "mine.csv")
	if err := os.WriteFile(in, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), []string{"data", "describe", "--format", "triplets", "--out", out, in}, &stdout, &stderr)
	if err != nil {
		t.Fatalf("%v (stderr %q)", err, stderr.String())
	}
	// Without --format, a file's format is detected: the same output.
	var again bytes.Buffer
	if err := run(context.Background(), []string{"data", "describe", "--out", out + "2", in}, &again, &stderr); err != nil {
		t.Fatalf("without --format: %v (stderr %q)", err, stderr.String())
	}
	if a, b := strings.ReplaceAll(again.String(), out+"2", "OUT"), strings.ReplaceAll(stdout.String(), out, "OUT"); a != b {
		t.Errorf("without --format:\n%s\nwith --format triplets:\n%s", a, b)
	}
	// The paths in the "wrote" lines depend on the temporary directory.
	printed := strings.ReplaceAll(stdout.String(), out, "OUT")
	checkGolden(t, "describe.txt", []byte(printed))
	md, err := os.ReadFile(filepath.Join(out, "mine-ratings.md"))
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "describe-ratings.md", md)
	f, err := os.Open(filepath.Join(out, "mine-ratings.png"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := png.Decode(f); err != nil {
		t.Errorf("the chart is not a valid PNG: %v", err)
	}
}
