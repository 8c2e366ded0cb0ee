//go:build unix

package atomicfile

import (
	"errors"
	"syscall"
)

// running reports whether a process with id pid exists on this host.
// Signal 0 checks for it without sending anything; EPERM means it exists
// but belongs to another user.
func running(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
