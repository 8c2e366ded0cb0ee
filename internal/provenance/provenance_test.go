package provenance

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

func TestShortRevision(t *testing.T) {
	tests := []struct {
		module, want string
	}{
		{"0123456789abcdef0123456789abcdef01234567", "0123456789ab"},
		{"0123456789abcdef0123456789abcdef01234567+dirty", "0123456789ab+dirty"},
		{"v1.2.3", "v1.2.3"},
		{"(devel)", ""},
		{"", ""},
		{"+dirty", ""},
	}
	for _, tt := range tests {
		if got := (Versions{Module: tt.module}).ShortRevision(); got != tt.want {
			t.Errorf("ShortRevision of %q = %q, want %q", tt.module, got, tt.want)
		}
	}
}

func TestBuildVersionsTakesTheGivenRevision(t *testing.T) {
	v := BuildVersions("abc123")
	if v.Go != runtime.Version() || v.Module != "abc123" {
		t.Errorf("BuildVersions(abc123) = %+v, want Go %s and module abc123", v, runtime.Version())
	}
}

func TestFileSHA256(t *testing.T) {
	path := filepath.Join(t.TempDir(), "abc")
	if err := os.WriteFile(path, []byte("abc"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := FileSHA256(path)
	// The SHA-256 of "abc" from FIPS 180-2, appendix B.1.
	const want = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
	if err != nil || got != want {
		t.Errorf("FileSHA256 = %s, %v; want %s", got, err, want)
	}
	if _, err := FileSHA256(filepath.Join(t.TempDir(), "missing")); err == nil {
		t.Error("FileSHA256 of a missing file: no error")
	}
}
