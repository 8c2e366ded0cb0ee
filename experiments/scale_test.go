package experiments

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

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
			p := preparePlan(t, "big.yaml", src)
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
