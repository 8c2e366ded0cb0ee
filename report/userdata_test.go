package report

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/bnmf-lab/bnmf/dataset"
	"github.com/bnmf-lab/bnmf/experiments"
)

// writeUserTriplets writes a 40 x 10 triplet file of a user's own data,
// fully observed, on a scale far from ratings: lognormal quantiles moved
// and stretched to mean 43 and variance 1907 (then rounded to cents),
// 400 distinct values. No randomness: the values are quantiles.
func writeUserTriplets(t *testing.T, path string) {
	t.Helper()
	const n = 400
	sigma2 := math.Log(1 + 1907.0/(43*43))
	ln := distuv.LogNormal{Mu: -sigma2 / 2, Sigma: math.Sqrt(sigma2)}
	vals := make([]float64, n)
	var mean float64
	for i := range vals {
		vals[i] = ln.Quantile((float64(i) + 0.5) / n)
		mean += vals[i] / n
	}
	var variance float64
	for _, v := range vals {
		variance += (v - mean) * (v - mean) / n
	}
	var b strings.Builder
	b.WriteString("taster,wine,score\n")
	for i, v := range vals {
		x := 43 + (v-mean)*math.Sqrt(1907/variance)
		fmt.Fprintf(&b, "t%02d,w%d,%.2f\n", i/10, i%10, x)
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// userStudy returns a sparsity study of a user's data file, labelled
// "Wine scores", with the ColumnMean baseline beside three of the paper's
// models, and a loader of its data.
func userStudy(t *testing.T, root string) (*experiments.Study, RatingsFunc) {
	t.Helper()
	data := filepath.Join(root, "wine.csv")
	writeUserTriplets(t, data)
	fx := fixture{kind: experiments.KindSparsity, models: []string{"GEE", "GRRN", "NMF", "ColumnMean"},
		ranks: []int{2, 4}, fractions: []float64{0.9, 0.95}, repeats: 3, sweeps: 10, burnIn: 5,
		dataset: "wine.csv", label: "Wine scores", rows: 40, cols: 10, observed: 400, mseScale: 1907}
	st := fx.study(t, filepath.Join(root, "wine"), "wine-sparsity")
	load := func(*experiments.Study) ([]dataset.RatingCount, error) {
		r, err := dataset.OpenFile(data, "triplets", dataset.Options{})
		if err != nil {
			return nil, err
		}
		return dataset.Distribution(r), nil
	}
	return st, load
}

// TestWriteUserData reports a study of a user's own data: the report is
// titled by the study and names the data by its label, has none of the
// paper's names or columns, shows the baseline and every model's skill
// against it, the data's variance and value histogram, and warns that the
// data's scale (mean 43, variance 1,907) is far from the defaults'.
func TestWriteUserData(t *testing.T) {
	root := t.TempDir()
	st, load := userStudy(t, root)
	written, err := Write(root, []*experiments.Study{st}, Options{Ratings: load})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range written {
		rel, err := filepath.Rel(root, p)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, filepath.ToSlash(rel))
	}
	want := []string{"figures/values-wine-scores.png", "wine/figures/sparsity.png", "wine/tables/sparsity.md",
		"wine/tables/skill.md", "wine/tables/timing.md", "wine/cells.csv", "README.md"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("written:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "readme-user.md", readme)
	table, err := os.ReadFile(filepath.Join(root, "wine", "tables", "sparsity.md"))
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "sparsity-user.md", table)

	text := string(readme)
	for _, absent := range []string{"(paper)", "Table 1", "Table 2", "Fig. ", "Lu and Ye", "Rating"} {
		if strings.Contains(text, absent) {
			t.Errorf("README of a study of other data contains %q", absent)
		}
	}
	for _, present := range []string{
		"# wine-sparsity\n",
		"## wine-sparsity: sparsity on Wine scores",
		"| Wine scores (wine.csv) |",
		"and the baseline ColumnMean",
		"the MSE of predicting each by their mean, is 1907.",
		"### Skill against the best baseline at every fraction unobserved",
		"A model's skill is 1 − MSE/MSE of ColumnMean, the baseline,",
		"**Warning:** the data's values have mean 43 and variance 1,907",
		"The values have mean 43.00 and variance 1907",
		" From |    To | Count | Share (%) |",
		"on Wine scores (wine.csv, 40 × 10, 400 observed entries)",
	} {
		if !strings.Contains(text, present) {
			t.Errorf("README lacks %q", present)
		}
	}
}

// TestScaleWarningOnce checks that a scale warning the manifest already
// carries is not repeated when the report finds it again in the data.
func TestScaleWarningOnce(t *testing.T) {
	root := t.TempDir()
	st, load := userStudy(t, root)
	counts, err := load(st)
	if err != nil {
		t.Fatal(err)
	}
	m := momentsOf(counts)
	w := experiments.ScaleWarning(m.Mean, m.Variance)
	if w == "" {
		t.Fatal("no scale warning for data of mean 43 and variance 1907")
	}
	st.Manifest.Warnings = []string{w}
	if _, err := Write(root, []*experiments.Study{st}, Options{Ratings: load}); err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	// Once at the head of the study's section, once in its warnings.
	if n := strings.Count(string(readme), oneLine(w)); n != 2 {
		t.Errorf("the scale warning appears %d times, want 2", n)
	}
}

// TestScaleWarningStandardized checks that a study whose config sets
// standardize: true gets no scale warning from the report, as bnmf run
// gives none, and says that it was standardized.
func TestScaleWarningStandardized(t *testing.T) {
	root := t.TempDir()
	st, load := userStudy(t, root)
	cfg := experiments.DefaultConfig()
	cfg.Standardize = true
	st.Config = &cfg
	if _, err := Write(root, []*experiments.Study{st}, Options{Ratings: load}); err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(readme), "far from the scale") {
		t.Error("the report of a standardized study warns about the data's scale")
	}
	if !strings.Contains(string(readme), "`standardize: true`") {
		t.Error("the report does not say the study set standardize: true")
	}
}
