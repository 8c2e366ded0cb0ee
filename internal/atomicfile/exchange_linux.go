//go:build linux

package atomicfile

import (
	"errors"
	"fmt"

	"golang.org/x/sys/unix"
)

// exchange calls renameat2 with RENAME_EXCHANGE (Linux 3.15 and later);
// ENOSYS (an older kernel) and EINVAL (a file system that does not
// support it) become ErrNoExchange.
func exchange(a, b string) error {
	err := unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, unix.ENOSYS), errors.Is(err, unix.EINVAL):
		return fmt.Errorf("exchanging %s and %s: %w (%w)", a, b, ErrNoExchange, err)
	}
	return fmt.Errorf("exchanging %s and %s: %w", a, b, err)
}
