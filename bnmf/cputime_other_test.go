//go:build !unix

package bnmf

import "time"

// processCPUTime returns false: the CPU time is not read on this system.
func processCPUTime() (time.Duration, bool) { return 0, false }
