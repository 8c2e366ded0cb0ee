//go:build !unix

package bnmf

import "time"

// cpuTime reports that the CPU time is not available here.
func cpuTime() (time.Duration, bool) { return 0, false }
