package experiments

import (
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"testing"
)

// TestFloat32FactorsConfig runs one study with and without
// float32_factors: true. The key enters the hash only when set, and the
// records' numbers agree with the default's to a relative 1e-5 without
// being equal (bnmf.TestFloat32Factors measures the closeness).
func TestFloat32FactorsConfig(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(10, 11))
	path := filepath.Join(dir, "m.csv")
	writeRandomTriplets(t, path, 30, 40, 0.4, rng, func(i, j int) float64 { return 1 + float64((i*j)%5) + rng.Float64() })
	study := func(name, extra string) *Record {
		t.Helper()
		src := fmt.Sprintf("kind: sparsity\ndataset: {path: %s, format: triplets}\nmodels: [{name: GRRN}]\nranks: [2]\nfractions: [0.8]\nrepeats: 1\nsweeps: 40\nburn_in: 20\n%s", path, extra)
		return runOneCell(t, dir, name, src)
	}
	def, off, f32 := study("default", ""), study("off", "float32_factors: false\n"), study("f32", "float32_factors: true\n")
	if off.ConfigHash != def.ConfigHash {
		t.Error("float32_factors: false changed the config hash")
	}
	if f32.ConfigHash == def.ConfigHash {
		t.Error("float32_factors: true kept the config hash")
	}
	if f32.Metrics.TestMSE == def.Metrics.TestMSE {
		t.Error("float32_factors: true changed nothing")
	}
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"test MSE", f32.Metrics.TestMSE, def.Metrics.TestMSE},
		{"sigma^2", f32.Metrics.Sigma2Mean, def.Metrics.Sigma2Mean},
	} {
		if math.Abs(c.got-c.want) > 1e-5*math.Abs(c.want) {
			t.Errorf("%s: %v with float32 factors, %v without: further apart than 1e-5 of it", c.name, c.got, c.want)
		}
	}
}
