// Package atomicfile writes files so that a crash, a full disk or a killed
// process leaves each file with either its old content or all of the new,
// never a part: data goes to a temporary file in the same directory, which
// is synced, renamed over the target, and the directory synced.
package atomicfile

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// WriteFile writes data to path atomically with permissions 0644 whatever
// the umask (results are meant to be shared and committed). The
// temporary file is named ".<name>.tmp-<pid>@<host>-*" in path's
// directory (see TempPrefix); IsTemp recognises it, so readers can skip
// one that a killed writer left, and Abandoned tells when its writer is
// gone.
func WriteFile(path string, data []byte) error {
	return writeFile(path, data, fileOps{sync: (*os.File).Sync, rename: os.Rename})
}

// fileOps are the calls of writeFile whose order makes it atomic and
// durable: the temporary file's data must be synced before the file is
// renamed over the target, or a crash could leave the target empty. Tests
// pass calls that record their order.
type fileOps struct {
	sync   func(f *os.File) error
	rename func(oldpath, newpath string) error
}

// writeFile is WriteFile with its sync and rename calls given by ops.
func writeFile(path string, data []byte, ops fileOps) error {
	dir, name := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	host, _ := os.Hostname() // without a name, the file records an empty host
	f, err := os.CreateTemp(dir, TempPrefix(name, os.Getpid(), host)+"*")
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	tmp := f.Name()
	fail := func(err error) error {
		_ = f.Close()      // the write already failed; report that
		_ = os.Remove(tmp) // best effort: a leftover is skipped by readers
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if _, err := f.Write(data); err != nil {
		return fail(err)
	}
	if err := f.Chmod(0o644); err != nil {
		return fail(err)
	}
	if err := ops.sync(f); err != nil {
		return fail(err)
	}
	if err := f.Close(); err != nil {
		_ = os.Remove(tmp) // best effort, as above
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := ops.rename(tmp, path); err != nil {
		_ = os.Remove(tmp) // best effort, as above
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return SyncDir(dir)
}

// SyncDir makes the renames and removals done in dir durable.
func SyncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("syncing directory %s: %w", dir, err)
	}
	return nil
}

// IsTemp reports whether name is the name of a temporary file of
// WriteFile.
func IsTemp(name string) bool {
	return strings.HasPrefix(name, ".") && strings.Contains(name, ".tmp-")
}
