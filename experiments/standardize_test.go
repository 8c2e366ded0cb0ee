package experiments

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"
)

// TestStandardize runs one study with standardize: true on a matrix and on
// the same matrix times 1024. Scaling by a power of two is exact in
// floating point, so both fit the very same unit-scale values and every
// number of the second must be the first's in its units: squared errors
// and sigma^2 times 1024^2, log densities less log 1024, coverage equal.
// It also checks that standardize enters the hash only when set.
func TestStandardize(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(8, 9))
	var small, big strings.Builder
	for i := range 30 {
		for j := range 40 {
			if rng.Float64() < 0.4 {
				v := 1 + float64((i*j)%5) + rng.Float64()
				fmt.Fprintf(&small, "%d,%d,%v\n", i, j, v)
				fmt.Fprintf(&big, "%d,%d,%v\n", i, j, v*1024)
			}
		}
	}
	study := func(name, data string, standardize bool) *Record {
		t.Helper()
		path := filepath.Join(dir, name+".csv")
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		src := fmt.Sprintf("kind: sparsity\ndataset: {path: %s, format: triplets}\nmodels: [{name: GRRN}]\nranks: [2]\nfractions: [0.8]\nrepeats: 1\nsweeps: 60\nburn_in: 30\nchains: 2\nstandardize: %v\n", path, standardize)
		return runOneCell(t, dir, name, src)
	}
	a, b := study("small", small.String(), true), study("big", big.String(), true)
	const f2 = 1024 * 1024
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"test MSE", b.Metrics.TestMSE, a.Metrics.TestMSE * f2},
		{"train MSE", b.Metrics.TrainMSE, a.Metrics.TrainMSE * f2},
		{"sigma^2", b.Metrics.Sigma2Mean, a.Metrics.Sigma2Mean * f2},
		{"last trace sigma^2", b.Trace.Sigma2[59], a.Trace.Sigma2[59] * f2},
		{"90% width", b.Predictive.Width[2], a.Predictive.Width[2] * 1024},
		{"CRPS", b.Predictive.Test.CRPS, a.Predictive.Test.CRPS * 1024},
		{"log density", b.Predictive.Test.LogDensity, a.Predictive.Test.LogDensity - math.Log(1024)},
		{"90% coverage", b.Predictive.Test.Coverage[2], a.Predictive.Test.Coverage[2]},
	} {
		// The fits are identical; only the mapping back rounds.
		if !scalar.EqualWithinAbsOrRel(c.got, c.want, 1e-12, 1e-12) {
			t.Errorf("%s: %v on the scaled matrix, want %v", c.name, c.got, c.want)
		}
	}
	plain := study("plain", big.String(), false)
	if plain.ConfigHash == b.ConfigHash {
		t.Error("standardize: true kept the config hash")
	}
	if plain.Metrics.TestMSE == b.Metrics.TestMSE {
		t.Error("standardize changed nothing")
	}
}

// writeRandomTriplets writes a rows x cols matrix to path as triplets
// "i,j,value", cell by cell in row-major order: rng draws whether the cell
// is observed (with probability density), then value(i, j) gives its
// value.
func writeRandomTriplets(t *testing.T, path string, rows, cols int, density float64, rng *rand.Rand, value func(i, j int) float64) {
	t.Helper()
	var data strings.Builder
	for i := range rows {
		for j := range cols {
			if rng.Float64() < density {
				fmt.Fprintf(&data, "%d,%d,%v\n", i, j, value(i, j))
			}
		}
	}
	if err := os.WriteFile(path, []byte(data.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// runOneCell runs the one-cell study that the config src describes into
// dir/name and returns its record.
func runOneCell(t *testing.T, dir, name, src string) *Record {
	t.Helper()
	p := preparePlan(t, name+".yaml", src)
	out := filepath.Join(dir, name)
	if _, err := p.Run(context.Background(), RunOptions{Workers: 2, Output: out}); err != nil {
		t.Fatal(err)
	}
	st, err := LoadStudy(out)
	if err != nil || len(st.Records) != 1 {
		t.Fatalf("%s: %v, %d records", name, err, len(st.Records))
	}
	return &st.Records[0]
}
