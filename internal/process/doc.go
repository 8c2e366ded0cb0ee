// Package process tells whether a process of this host is still running,
// the one check that both stale claims (internal/claim) and abandoned
// temporary files (internal/atomicfile) rest on.
package process
