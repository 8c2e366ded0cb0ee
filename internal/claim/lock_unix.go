//go:build unix

package claim

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// tryLock takes an flock on f, exclusive or shared, without waiting: it
// returns ErrLocked when another open file holds a conflicting one.
// A lock held by this process through another open of the file conflicts
// too, as another process's would. On a file system that keeps no locks
// it locks nothing and returns nil.
func tryLock(f *os.File, exclusive bool) error {
	how := syscall.LOCK_SH
	if exclusive {
		how = syscall.LOCK_EX
	}
	for {
		err := syscall.Flock(int(f.Fd()), how|syscall.LOCK_NB)
		switch {
		case err == nil:
			return nil
		case errors.Is(err, syscall.EINTR):
			continue
		case errors.Is(err, syscall.EWOULDBLOCK):
			return ErrLocked
		case errors.Is(err, syscall.ENOLCK), errors.Is(err, syscall.EOPNOTSUPP), errors.Is(err, syscall.ENOSYS):
			// A file system without locks (some network ones): run
			// unlocked, as where flock does not exist.
			return nil
		}
		return fmt.Errorf("locking %s: %w", f.Name(), err)
	}
}
