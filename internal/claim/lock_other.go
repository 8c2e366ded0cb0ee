//go:build !unix

package claim

import "os"

// tryLock locks nothing where flock is not available; see Lock.
func tryLock(f *os.File, exclusive bool) error { return nil }
