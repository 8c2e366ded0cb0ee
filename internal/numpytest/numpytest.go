// Package numpytest finds a Python interpreter with numpy for the tests
// that cross-check .npy files with numpy itself.
package numpytest

import (
	"os"
	"os/exec"
	"testing"
)

// Python returns a Python interpreter that can import numpy:
// $BNMF_PYTHON if set, else python3 on the PATH, else /usr/bin/python3
// (where a distribution's python3-numpy installs). It skips the test when
// there is none; CI has none.
func Python(t testing.TB) string {
	t.Helper()
	candidates := []string{"python3", "/usr/bin/python3"}
	if p := os.Getenv("BNMF_PYTHON"); p != "" {
		candidates = []string{p}
	}
	for _, c := range candidates {
		path, err := exec.LookPath(c)
		if err != nil {
			continue
		}
		if exec.Command(path, "-c", "import numpy").Run() == nil {
			return path
		}
	}
	t.Skip("no python3 with numpy (set BNMF_PYTHON)")
	return ""
}
