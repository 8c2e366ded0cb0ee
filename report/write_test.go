package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"image/png"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/bnmf-lab/bnmf/dataset"
	"github.com/bnmf-lab/bnmf/experiments"
)

// threeStudies returns a study of each kind with directories under root.
func threeStudies(t *testing.T, root string) []*experiments.Study {
	t.Helper()
	return []*experiments.Study{
		convergenceFixture().study(t, filepath.Join(root, "convergence"), "convergence"),
		troubledSparsity(t, filepath.Join(root, "table2")),
		noiseFixture().study(t, filepath.Join(root, "noise"), "noise"),
	}
}

// fixedRatings stands in for loading a study's data: a made-up
// distribution for movielens-100k, an error for any other dataset.
func fixedRatings(st *experiments.Study) ([]dataset.RatingCount, error) {
	if st.Manifest.Dataset != "movielens-100k" {
		return nil, errors.New("not a MovieLens dataset")
	}
	return []dataset.RatingCount{{Value: 1, Count: 6000}, {Value: 2, Count: 11000}, {Value: 3, Count: 27000},
		{Value: 4, Count: 34000}, {Value: 5, Count: 21000}}, nil
}

func TestWriteGolden(t *testing.T) {
	root := t.TempDir()
	written, err := Write(root, threeStudies(t, root), Options{Ratings: fixedRatings})
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "readme.md", readme)

	want := []string{
		"figures/fig3-movielens-100k.png",
		"convergence/figures/fig2-convergence.png", "convergence/tables/convergence.md", "convergence/tables/timing.md", "convergence/cells.csv",
		"noise/figures/fig4-noise.png", "noise/tables/noise.md", "noise/tables/noise-clean.md", "noise/tables/timing.md", "noise/cells.csv",
		"table2/figures/fig5-sparsity.png", "table2/tables/table2-0.97.md", "table2/tables/table2-0.98.md",
		"table2/tables/sparsity.md", "table2/tables/timing.md", "table2/cells.csv", "README.md",
	}
	var got []string
	for _, p := range written {
		rel, err := filepath.Rel(root, p)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, filepath.ToSlash(rel))
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("written:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, p := range written {
		if strings.HasSuffix(p, ".png") {
			f, err := os.Open(p)
			if err != nil {
				t.Fatal(err)
			}
			_, err = png.Decode(f)
			f.Close()
			if err != nil {
				t.Errorf("%s: %v", p, err)
			}
		}
	}
}

// readTree returns every file under root by relative path.
func readTree(t *testing.T, root string) map[string][]byte {
	t.Helper()
	files := make(map[string][]byte)
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, p)
		files[rel] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// smallStudies returns a small study of each kind with directories under
// root, quick to render.
func smallStudies(t *testing.T, root string) []*experiments.Study {
	t.Helper()
	conv, sparse, noise := convergenceFixture(), sparsityFixture(), noiseFixture()
	conv.ranks, conv.sweeps = []int{10}, 20
	sparse.ranks, sparse.fractions = []int{20, 50}, []float64{0.97, 0.98}
	noise.noiseRatios = []float64{0, 1, 10}
	return []*experiments.Study{
		conv.study(t, filepath.Join(root, "convergence"), "convergence"),
		sparse.study(t, filepath.Join(root, "table2"), "table2"),
		noise.study(t, filepath.Join(root, "noise"), "noise"),
	}
}

func TestWriteDeterministic(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	if _, err := Write(a, smallStudies(t, a), Options{}); err != nil {
		t.Fatal(err)
	}
	// The same studies in another order give the same bytes.
	studies := smallStudies(t, b)
	studies[0], studies[2] = studies[2], studies[0]
	if _, err := Write(b, studies, Options{}); err != nil {
		t.Fatal(err)
	}
	fa, fb := readTree(t, a), readTree(t, b)
	if len(fa) != len(fb) || len(fa) != 16 {
		t.Fatalf("%d and %d files, want 16 each", len(fa), len(fb))
	}
	for name, x := range fa {
		if !bytes.Equal(x, fb[name]) {
			t.Errorf("%s differs between two runs", name)
		}
	}
}

// TestWriteKeepsHandWrittenReadme checks that a README the report did not
// write is left alone, and that its own README is replaced on a rerun.
func TestWriteKeepsHandWrittenReadme(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, "README.md")
	if _, err := Write(root, smallStudies(t, root), Options{}); err != nil {
		t.Fatal(err)
	}
	if _, err := Write(root, smallStudies(t, root), Options{}); err != nil {
		t.Fatalf("rerun over its own README: %v", err)
	}
	hand := []byte("# What we found\n")
	if err := os.WriteFile(path, hand, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Write(root, smallStudies(t, root), Options{})
	want := "report: " + path + " was not written by bnmf report; refusing to overwrite it"
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("got error %v, want one starting %q", err, want)
	}
	if got, err := os.ReadFile(path); err != nil || !bytes.Equal(got, hand) {
		t.Errorf("README is now %q (error %v), want it untouched", got, err)
	}
}

// TestWriteRefusesBeforeWriting checks that a refusal to replace a
// hand-written README comes before any figure, table or CSV is written.
func TestWriteRefusesBeforeWriting(t *testing.T) {
	root := t.TempDir()
	hand := []byte("# What we found\n")
	if err := os.WriteFile(filepath.Join(root, "README.md"), hand, 0o644); err != nil {
		t.Fatal(err)
	}
	studies := threeStudies(t, root) // with movielens-100k, so Fig. 3 would be drawn
	before := listFiles(t, root)
	written, err := Write(root, studies, Options{Ratings: fixedRatings})
	if err == nil {
		t.Fatal("Write replaced a hand-written README")
	}
	if len(written) != 0 {
		t.Errorf("Write refused but reports writing %v", written)
	}
	if after := listFiles(t, root); !slices.Equal(after, before) {
		t.Errorf("Write refused but the files under root changed from\n%v\nto\n%v", before, after)
	}
}

// listFiles returns the paths of the files and directories under root,
// sorted.
func listFiles(t *testing.T, root string) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err == nil {
			files = append(files, path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func TestWriteUnfinished(t *testing.T) {
	tests := []struct {
		name string
		edit func(*experiments.Study)
		want []string // in the README
	}{
		{"empty", func(st *experiments.Study) { st.Records = nil }, []string{
			"Found 0 of 360 cells.",
			"No cell has finished successfully yet",
			"The figure is not drawn: no cell has finished successfully yet.",
			"No records yet: all 360 cells of the manifest are missing.",
		}},
		{"half", func(st *experiments.Study) { st.Records = st.Records[:len(st.Records)/2] }, []string{
			"Found 180 of 360 cells",
			"These statements rest on 180 of the 360 expected cells",
			"— (n=0/3)",
			"GRRN, K = 20, fraction unobserved 0.93 (3 of 3: repeat 0–2)",
		}},
		{"all failed", func(st *experiments.Study) {
			for i := range st.Records {
				st.Records[i].Error = "out of memory"
			}
		}, []string{
			"Found 360 of 360 cells, 360 of them failed;",
			"†1 In 120 settings: a repeat failed: out of memory",
			"GEE, K = 20, fraction unobserved 0.93 (repeat 0–2);",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			st := sparsityFixture().study(t, filepath.Join(root, "s"), "sparsity")
			tt.edit(st)
			if _, err := Write(root, []*experiments.Study{st}, Options{}); err != nil {
				t.Fatal(err)
			}
			readme, err := os.ReadFile(filepath.Join(root, "README.md"))
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tt.want {
				if !strings.Contains(string(readme), w) {
					t.Errorf("README lacks %q", w)
				}
			}
		})
	}
}

// TestWriteFromStore writes a study in the result store's layout, loads it
// with experiments.LoadStudy and checks the report matches the one made
// from the same study in memory.
func TestWriteFromStore(t *testing.T) {
	mem, disk := t.TempDir(), t.TempDir()
	fx := convergenceFixture()
	fx.ranks, fx.sweeps = []int{10, 20}, 20
	st := fx.study(t, filepath.Join(disk, "conv"), "convergence")
	writeJSON := func(path string, v any) {
		t.Helper()
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(st.Dir, experiments.RecordsDir), 0o755); err != nil {
		t.Fatal(err)
	}
	writeJSON(filepath.Join(st.Dir, experiments.ManifestFile), st.Manifest)
	for _, r := range st.Records {
		writeJSON(filepath.Join(st.Dir, experiments.RecordsDir, r.Cell.Key()+".json"), r)
	}
	loaded, err := experiments.LoadStudy(st.Dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Write(disk, []*experiments.Study{loaded}, Options{}); err != nil {
		t.Fatal(err)
	}
	if _, err := Write(mem, []*experiments.Study{fx.study(t, filepath.Join(mem, "conv"), "convergence")}, Options{}); err != nil {
		t.Fatal(err)
	}
	a, b := readTree(t, mem), readTree(t, disk)
	for name, x := range a {
		if !bytes.Equal(x, b[name]) {
			t.Errorf("%s differs between the stored and the in-memory study", name)
		}
	}
}

func TestWriteRatingsUnavailable(t *testing.T) {
	tests := []struct {
		name    string
		ratings RatingsFunc
		want    string
	}{
		{"no loader", nil, "## Value distributions\n\nNot drawn: the report was not given a way to load the datasets."},
		{"load fails", fixedRatings, "The distribution of synthetic is not drawn: not a MovieLens dataset."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			st := convergenceFixture().study(t, filepath.Join(root, "c"), "c")
			st.Manifest.Dataset = "synthetic"
			st.Records = nil // no figure to draw: this test is about Fig. 3
			if _, err := Write(root, []*experiments.Study{st}, Options{Ratings: tt.ratings}); err != nil {
				t.Fatal(err)
			}
			readme, err := os.ReadFile(filepath.Join(root, "README.md"))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(readme), tt.want) {
				t.Errorf("README lacks %q", tt.want)
			}
			if _, err := os.Stat(filepath.Join(root, "figures")); err == nil {
				t.Errorf("figures/ written though Fig. 3 was not drawn")
			}
		})
	}
}
