package npy

import (
	"bytes"
	"github.com/bnmf-lab/bnmf/internal/numpytest"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestNumpyReadsAndWritesTheSameBytes has numpy.save write arrays and
// checks that Write writes the same bytes, and that numpy.load reads
// Write's files back to the same values.
func TestNumpyReadsAndWritesTheSameBytes(t *testing.T) {
	py := numpytest.Python(t)
	dir := t.TempDir()
	script := `
import numpy as np, sys
d = sys.argv[1]
np.save(d + "/m.npy", np.arange(6.0).reshape(2, 3) / 7)
np.save(d + "/i.npy", np.arange(5, dtype="<i8") - 2)
np.save(d + "/s.npy", np.float64(2.5))
a = np.load(d + "/go.npy")
assert a.dtype == np.dtype("<f8") and a.shape == (3, 1, 2) and a.flags["C_CONTIGUOUS"], (a.dtype, a.shape)
assert (a.ravel() == np.arange(6.0) * 1.5).all(), a
`
	var goFile bytes.Buffer
	if err := Write(&goFile, []int{3, 1, 2}, []float64{0, 1.5, 3, 4.5, 6, 7.5}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.npy"), goFile.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(py, "-c", script, dir).CombinedOutput(); err != nil {
		t.Fatalf("numpy: %v\n%s", err, out)
	}
	check := func(name string, write func(*bytes.Buffer) error) {
		t.Helper()
		want, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		if err := write(&got); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want) {
			t.Errorf("%s: Write gives\n%q\nnumpy.save gives\n%q", name, got.Bytes(), want)
		}
	}
	check("m.npy", func(b *bytes.Buffer) error {
		return Write(b, []int{2, 3}, []float64{0, 1.0 / 7, 2.0 / 7, 3.0 / 7, 4.0 / 7, 5.0 / 7})
	})
	check("i.npy", func(b *bytes.Buffer) error { return Write(b, []int{5}, []int64{-2, -1, 0, 1, 2}) })
	check("s.npy", func(b *bytes.Buffer) error { return Write(b, nil, []float64{2.5}) })
}
