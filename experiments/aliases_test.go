package experiments

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestShortConfigNames checks that configs/sparsity.yaml,
// convergence.yaml and noise.yaml, the names the paper's commands use,
// are the MovieLens 100K studies byte for byte: the same cells, seeds,
// hash and output directory, so that running either resumes the committed
// results and writes the same config.yaml beside them.
func TestShortConfigNames(t *testing.T) {
	for short, full := range map[string]string{
		"sparsity.yaml":    "ml100k-sparsity.yaml",
		"convergence.yaml": "ml100k-convergence.yaml",
		"noise.yaml":       "ml100k-noise.yaml",
	} {
		t.Run(short, func(t *testing.T) {
			a, err := os.ReadFile(filepath.Join("..", "configs", short))
			if err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(filepath.Join("..", "configs", full))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(a, b) {
				t.Fatalf("configs/%s differs from configs/%s; they must be identical", short, full)
			}
			sc, err := LoadConfig(filepath.Join("..", "configs", short))
			if err != nil {
				t.Fatal(err)
			}
			fc, err := LoadConfig(filepath.Join("..", "configs", full))
			if err != nil {
				t.Fatal(err)
			}
			if mustHash(t, sc) != mustHash(t, fc) || sc.Output != fc.Output || sc.Name != fc.Name {
				t.Errorf("configs/%s: hash %.12s, output %s, name %s; configs/%s: %.12s, %s, %s",
					short, mustHash(t, sc), sc.Output, sc.Name, full, mustHash(t, fc), fc.Output, fc.Name)
			}
			// The committed results must be the ones the short name runs.
			dir := filepath.Join("..", sc.Output)
			raw, err := os.ReadFile(filepath.Join(dir, ManifestFile))
			if err != nil {
				t.Fatal(err)
			}
			var m Manifest
			if err := json.Unmarshal(raw, &m); err != nil {
				t.Fatal(err)
			}
			if m.ConfigHash != mustHash(t, sc) {
				t.Errorf("%s holds results of config %.12s, but configs/%s has hash %.12s", dir, m.ConfigHash, short, mustHash(t, sc))
			}
			stored, err := os.ReadFile(filepath.Join(dir, ConfigFile))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(stored, a) {
				t.Errorf("%s differs from configs/%s, so a run of it would rewrite it", filepath.Join(dir, ConfigFile), short)
			}
		})
	}
}
