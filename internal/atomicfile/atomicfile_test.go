package atomicfile

import (
	"os"
	"path/filepath"
	"testing"
)

func TestWriteFileReplaces(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f.json")
	for _, content := range []string{"first\n", "second\n"} {
		if err := WriteFile(path, []byte(content)); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != content {
			t.Errorf("file holds %q, want %q", got, content)
		}
	}
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if perm := info.Mode().Perm(); perm != 0o644 {
		t.Errorf("file has permissions %v, want 0644", perm)
	}
	entries, err := os.ReadDir(filepath.Dir(path))
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 {
		t.Errorf("directory holds %d files, want 1 (no temporary files left)", len(entries))
	}
}

func TestWriteFileFailsWithoutDirectory(t *testing.T) {
	path := filepath.Join(t.TempDir(), "missing", "f.json")
	if err := WriteFile(path, []byte("x")); err == nil {
		t.Error("wrote into a directory that does not exist")
	}
}

func TestIsTemp(t *testing.T) {
	for name, want := range map[string]bool{
		".GRRN-k2-r1.json.tmp-123": true,
		"GRRN-k2-r1.json":          false,
		".hidden":                  false,
		"a.tmp-1":                  false,
	} {
		if got := IsTemp(name); got != want {
			t.Errorf("IsTemp(%q) = %v, want %v", name, got, want)
		}
	}
}
