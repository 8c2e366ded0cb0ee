// Package provenance records what produced a result: the versions of the
// program (Go toolchain, module revision) and the digest of an input file.
// Study records and fitted models store them, so that a result can be
// traced to the code and data that made it.
package provenance

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
)

// Versions records what produced a result: the Go toolchain and the
// source of the program.
type Versions struct {
	Go     string `json:"go"`
	Module string `json:"module"` // module version or VCS revision
}

// ShortRevision returns the revision in v cut to 12 digits, with a
// "+dirty" suffix (uncommitted changes) kept, or "" when the build
// recorded none (Module empty or "(devel)").
func (v Versions) ShortRevision() string {
	rev, dirty := strings.CutSuffix(v.Module, "+dirty")
	if rev == "" || rev == "(devel)" {
		return ""
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if dirty {
		rev += "+dirty"
	}
	return rev
}

// BuildVersions reports the Go version of this program and its source:
// revision if not empty (build.sh passes the one it stamps), else the
// module version or VCS revision Go stamped into the build (with "+dirty"
// if Go found the tree modified).
func BuildVersions(revision string) Versions {
	v := Versions{Go: runtime.Version()}
	if revision != "" {
		v.Module = revision
		return v
	}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return v
	}
	v.Module = info.Main.Version
	dirty := false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			v.Module = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if dirty {
		v.Module += "+dirty"
	}
	return v
}

// FileSHA256 returns the hex SHA-256 of the content of the file at path.
func FileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close() // read-only: a close error loses nothing
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("reading %s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
