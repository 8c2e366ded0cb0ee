package experiments

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestScaleWarning(t *testing.T) {
	tests := []struct {
		name           string
		mean, variance float64
		want           string // in the warning; "" for none
	}{
		{"MovieLens 100K", 3.53, 1.27, ""},
		{"a 1-10 scale", 6.5, 6, ""},
		{"bounds", ScaleMeanMax, ScaleVarianceMin, ""},
		{"mean 43, variance 1907", 43, 1907, "mean 43 and variance 1,907"},
		{"variance only", 3.5, 25, "mean 3.5 and variance 25"},
		{"mean only", 0.2, 0.5, "mean 0.2 and variance 0.5"},
		{"tiny variance", 1, 0.0123, "variance 0.0123"},
		{"not a number", 3, 0, "variance 0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ScaleWarning(tt.mean, tt.variance)
			switch {
			case tt.want == "" && got != "":
				t.Errorf("got warning %q, want none", got)
			case tt.want != "" && !strings.Contains(got, tt.want):
				t.Errorf("got %q, want it to contain %q", got, tt.want)
			case tt.want != "" && !strings.Contains(got, "standardize: true"):
				t.Errorf("%q does not point to rescaling", got)
			}
		})
	}
}

// writeTemp writes content to name in a temporary directory and returns
// its path.
func writeTemp(t *testing.T, name, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// largeScaleTriplets returns a 13 x 10 triplet file, fully observed, of
// mean 43 and variance 1,907: 66 zeros and 64 values 87.34375.
func largeScaleTriplets() string {
	var b strings.Builder
	for i := range 130 {
		v := 0.0
		if i%2 == 0 && i < 128 { // 64 of the 130
			v = 87.34375
		}
		fmt.Fprintf(&b, "u%d,i%d,%v\n", i/10, i%10, v)
	}
	return b.String()
}

// TestPrepareRecordsScaleAndLabel checks that Prepare warns about data of
// mean 43 and variance 1,907 and carries the dataset's label into
// the manifest, and that neither changes the config's hash.
func TestPrepareRecordsScaleAndLabel(t *testing.T) {
	data := writeTemp(t, "big.csv", largeScaleTriplets())
	for _, label := range []string{"", "Big numbers"} {
		t.Run(fmt.Sprintf("label %q", label), func(t *testing.T) {
			src := fmt.Sprintf("kind: convergence\ndataset:\n  path: %s\n  format: triplets\n  label: %q\nranks: [2]\n", data, label)
			cfg, err := ParseConfig("big.yaml", []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			p, err := Prepare(cfg, PrepareOptions{})
			if err != nil {
				t.Fatal(err)
			}
			m := p.Manifest
			if len(m.Warnings) != 1 || !strings.Contains(m.Warnings[0], "mean 43 and variance 1,907") {
				t.Errorf("manifest warnings %q, want one on mean 43 and variance 1,907", m.Warnings)
			}
			if m.DatasetLabel != label {
				t.Errorf("DatasetLabel = %q, want %q", m.DatasetLabel, label)
			}
			want := label
			if want == "" {
				want = "big.csv"
			}
			if m.Label() != want {
				t.Errorf("Label() = %q, want %q", m.Label(), want)
			}
			unlabelled := *p.Config
			unlabelled.Dataset.Label = ""
			if mustHash(t, p.Config) != mustHash(t, &unlabelled) {
				t.Error("the label changes the config's hash")
			}
		})
	}
}
