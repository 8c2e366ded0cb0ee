//go:build !unix

package process

// Alive reports whether a process with the given pid runs on this host.
// Without a portable test every positive pid is taken to be alive, so
// that nothing a live process may still use is removed or taken over:
// claims then expire by their lease alone, and temporary files by their
// age.
func Alive(pid int) bool { return pid > 0 }
