//go:build unix

package experiments

import (
	"errors"
	"syscall"
)

// processAlive reports whether a process with the given pid runs on this
// host (one owned by another user counts).
func processAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
