package atomicfile

import (
	"errors"
	"fmt"
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

// TestWriteFileSyncsBeforeRename checks the order that makes WriteFile
// durable: the temporary file is synced holding all of the data, and only
// then renamed over the target. The calls are observed through fileOps,
// which pass them on to the real ones.
func TestWriteFileSyncsBeforeRename(t *testing.T) {
	path := filepath.Join(t.TempDir(), "GRRN-k2-r0.json")
	data := []byte(`{"cell": "GRRN-k2-r0"}` + "\n")
	var events []string
	ops := fileOps{
		sync: func(f *os.File) error {
			info, err := f.Stat()
			if err != nil {
				return err
			}
			events = append(events, fmt.Sprintf("sync %s %d", filepath.Base(f.Name()), info.Size()))
			return f.Sync()
		},
		rename: func(oldpath, newpath string) error {
			events = append(events, fmt.Sprintf("rename %s", filepath.Base(oldpath)))
			return os.Rename(oldpath, newpath)
		},
	}
	if err := writeFile(path, data, ops); err != nil {
		t.Fatal(err)
	}
	if len(events) != 2 {
		t.Fatalf("calls %q, want a sync and then a rename", events)
	}
	var synced, renamed string
	var size int
	if _, err := fmt.Sscanf(events[0], "sync %s %d", &synced, &size); err != nil {
		t.Fatalf("first call %q is not a sync: %v", events[0], err)
	}
	if _, err := fmt.Sscanf(events[1], "rename %s", &renamed); err != nil {
		t.Fatalf("second call %q is not a rename: %v", events[1], err)
	}
	if synced != renamed || size != len(data) || !IsTemp(synced) {
		t.Errorf("synced %s holding %d bytes, then renamed %s; want the temporary file synced with all %d bytes before its rename",
			synced, size, renamed, len(data))
	}
	if got, err := os.ReadFile(path); err != nil || string(got) != string(data) {
		t.Errorf("the target holds %q, %v; want %q", got, err, data)
	}
}

// TestExchange checks that Exchange swaps two directories, where the
// system can.
func TestExchange(t *testing.T) {
	root := t.TempDir()
	a, b := filepath.Join(root, "a"), filepath.Join(root, "b")
	for _, d := range []string{a, b} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, "name"), []byte(filepath.Base(d)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	err := Exchange(a, b)
	if errors.Is(err, ErrNoExchange) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	for d, want := range map[string]string{a: "b", b: "a"} {
		if got, err := os.ReadFile(filepath.Join(d, "name")); err != nil || string(got) != want {
			t.Errorf("%s holds %q (%v), want %q", d, got, err, want)
		}
	}
	if err := Exchange(a, filepath.Join(root, "missing")); err == nil {
		t.Error("exchanging with a missing path: no error")
	}
}
