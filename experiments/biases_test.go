package experiments

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBiasesConfig runs one study with GRRN with and without biases:
// true. The key enters the hash only when set, the record names the
// model GRRN+b, and a study may list GRRN and GRRN+b side by side.
func TestBiasesConfig(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(12, 13))
	var data strings.Builder
	for i := range 30 {
		for j := range 40 {
			if rng.Float64() < 0.4 {
				fmt.Fprintf(&data, "%d,%d,%v\n", i, j, 1+float64(i%5)+float64(j%3)+rng.Float64())
			}
		}
	}
	path := filepath.Join(dir, "m.csv")
	if err := os.WriteFile(path, []byte(data.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	src := func(models string) string {
		return fmt.Sprintf("kind: sparsity\ndataset: {path: %s, format: triplets}\nmodels: [%s]\nranks: [2]\nfractions: [0.8]\nrepeats: 1\nsweeps: 40\nburn_in: 20\n", path, models)
	}
	def, off, on := runOneCell(t, dir, "default", src("{name: GRRN}")), runOneCell(t, dir, "off", src("{name: GRRN, biases: false}")), runOneCell(t, dir, "on", src("{name: GRRN, biases: true}"))
	if off.ConfigHash != def.ConfigHash {
		t.Error("biases: false changed the config hash")
	}
	if on.ConfigHash == def.ConfigHash {
		t.Error("biases: true kept the config hash")
	}
	if on.Cell.Model != "GRRN+b" || def.Cell.Model != "GRRN" {
		t.Errorf("records name the models %q and %q, want GRRN+b and GRRN", on.Cell.Model, def.Cell.Model)
	}
	if on.Metrics.TestMSE == def.Metrics.TestMSE {
		t.Error("biases: true changed nothing")
	}
	cfg, err := ParseConfig("both.yaml", []byte(src("{name: GRRN}, {name: GRRN, biases: true}, {name: GEE, biases: true, lambda: 0.5}")))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range cfg.Cells() {
		names = append(names, c.Model)
	}
	if got := strings.Join(names, ","); got != "GRRN,GRRN+b,GEE+b" {
		t.Errorf("cells %s, want GRRN,GRRN+b,GEE+b", got)
	}
	m, err := cfg.Models[2].Model()
	if err != nil || m.Name() != "GEE+b" {
		t.Errorf("models[2] is %v (%v), want GEE+b", m, err)
	}
}
