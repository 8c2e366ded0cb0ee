// Package golden compares test output with golden files.
package golden

import (
	"bytes"
	"os"
	"testing"
)

// Check compares got with the file at path. With update it rewrites the
// file instead. On a mismatch it writes got to path+".got", for the
// developer to inspect, and fails the test with a message that says how to
// accept the change (go test -update).
func Check(t testing.TB, path string, got []byte, update bool) {
	t.Helper()
	if update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update creates it)", err)
	}
	if !bytes.Equal(got, want) {
		if err := os.WriteFile(path+".got", got, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Errorf("output differs from %s (see %s.got); go test -update accepts it if the change is intended", path, path)
	}
}
