//go:build !unix

package atomicfile

// running reports whether a process with id pid exists; where that cannot
// be probed, every process is taken to be running, so that no file that
// might still be written is removed.
func running(pid int) bool { return true }
