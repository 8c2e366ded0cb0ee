//go:build unix

package process

import (
	"errors"
	"syscall"
)

// Alive reports whether a process with the given pid runs on this host
// (one owned by another user counts). Signal 0 checks for it without
// sending anything; EPERM means it exists but belongs to another user.
// A pid of 0 or less is never alive.
func Alive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
