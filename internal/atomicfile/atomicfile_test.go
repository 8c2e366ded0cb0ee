package atomicfile

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
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

// deadPID returns the id of a process that has exited.
func deadPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	return cmd.Process.Pid
}

func TestAbandoned(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" {
		t.Skip("processes cannot be probed here")
	}
	host, err := os.Hostname()
	if err != nil {
		t.Skip("no host name:", err)
	}
	dead := deadPID(t)
	tests := []struct {
		name string
		want bool
	}{
		{TempPrefix("a.json", dead, host) + "123", true},
		{TempPrefix("a.json", os.Getpid(), host) + "123", false},  // this process
		{TempPrefix("a.json", os.Getppid(), host) + "123", false}, // a running one
		{TempPrefix("a.json", dead, host+"x") + "123", false},     // another host
		{".a.json.tmp-123", false},                                // no writer recorded
		{".a.json.tmp-x@" + host + "-1", false},
		{"a.json", false},
	}
	for _, tt := range tests {
		if got := Abandoned(tt.name); got != tt.want {
			t.Errorf("Abandoned(%q) = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestWriteFileNamesItsWriter checks that the temporary file records this
// process and host, which Abandoned reads.
func TestWriteFileNamesItsWriter(t *testing.T) {
	for _, host := range []string{"node-1.example.org", "a/b c@d"} {
		name := TempPrefix("GRRN-k2-r1.json", 4321, host) + "99"
		pid, got, ok := owner(name)
		if !ok || pid != 4321 || got != cleanHost(host) || strings.ContainsAny(got, "/-@ ") {
			t.Errorf("owner(%q) = %d, %q, %v; want 4321, %q, true", name, pid, got, ok, cleanHost(host))
		}
		if !IsTemp(name) {
			t.Errorf("IsTemp(%q) is false", name)
		}
	}
}
