package golden

import (
	"os"
	"path/filepath"
	"testing"
)

// recorder is a testing.TB that notes failures instead of stopping.
type recorder struct {
	testing.TB
	failed bool
}

func (r *recorder) Errorf(string, ...any) { r.failed = true }
func (r *recorder) Fatalf(string, ...any) { r.failed = true }
func (r *recorder) Helper()               {}

func TestCheck(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.txt")
	Check(t, path, []byte("one\n"), true) // creates it
	Check(t, path, []byte("one\n"), false)
	r := &recorder{TB: t}
	Check(r, path, []byte("two\n"), false)
	if !r.failed {
		t.Error("a mismatch did not fail")
	}
	if got, err := os.ReadFile(path + ".got"); err != nil || string(got) != "two\n" {
		t.Errorf("the .got file holds %q, %v", got, err)
	}
	if got, _ := os.ReadFile(path); string(got) != "one\n" {
		t.Errorf("a mismatch without update changed the golden file to %q", got)
	}
	r = &recorder{TB: t}
	Check(r, filepath.Join(t.TempDir(), "missing"), nil, false)
	if !r.failed {
		t.Error("a missing golden file did not fail")
	}
}
