package atomicfile

import "errors"

// ErrNoExchange is returned by Exchange where the system or the file
// system cannot exchange two paths atomically.
var ErrNoExchange = errors.New("atomic exchange not supported")

// Exchange swaps the files (or directories) at paths a and b in one
// atomic step, so that at every instant each path names one of the two:
// a crash leaves either both as they were or both exchanged. Both must
// exist, on one file system. It returns an error wrapping ErrNoExchange
// where that cannot be done (anything but Linux, or a file system
// without the operation), for the caller to fall back to renames.
func Exchange(a, b string) error { return exchange(a, b) }
