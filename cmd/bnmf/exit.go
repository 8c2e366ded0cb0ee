package main

import (
	"context"
	"errors"
	"flag"
	"os"
	"syscall"
)

// Exit statuses of bnmf, as "bnmf run --help" documents them.
const (
	// exitError is the status of any error: a bad flag or config, data
	// that cannot be loaded, a failed write.
	exitError = 1
	// exitCellsFailed is the status of a run that finished but stored
	// cells whose chains failed (their records hold the error).
	exitCellsFailed = 3
	// exitCellsHeld is the status of a run that finished but left cells
	// that other live processes hold (their claims) and had not stored
	// when it ended; it goes before exitCellsFailed.
	exitCellsHeld = 4
)

// statusError is an error with its own exit status.
type statusError struct {
	status int
	err    error
}

func (e *statusError) Error() string { return e.err.Error() }
func (e *statusError) Unwrap() error { return e.err }

// signalError is the cause of a cancellation by a signal. It is a
// context.Canceled, so that code which checks for one sees it.
type signalError struct{ sig os.Signal }

func (e signalError) Error() string { return "stopped by " + signalName(e.sig) }

// Is reports whether target is context.Canceled.
func (e signalError) Is(target error) bool { return target == context.Canceled }

// signalName returns "SIGINT" or "SIGTERM", else what the signal says of
// itself.
func signalName(sig os.Signal) string {
	switch sig {
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	}
	return sig.String()
}

// code returns the shell's status for a process ended by the signal:
// 128 + its number (130 for SIGINT, 143 for SIGTERM).
func (e signalError) code() int {
	if s, ok := e.sig.(syscall.Signal); ok {
		return 128 + int(s)
	}
	return 128 + int(syscall.SIGINT)
}

// exitCode returns the exit status for err, the outcome of a command, and
// cause, the cause of its context's cancellation (nil if none): 0 for
// success or --help; 128 + n when signal n stopped a command that then
// failed; a statusError's status; 1 for any other error.
func exitCode(err, cause error) int {
	if err == nil || errors.Is(err, flag.ErrHelp) {
		return 0
	}
	var sig signalError
	if errors.As(cause, &sig) {
		return sig.code()
	}
	var se *statusError
	if errors.As(err, &se) {
		return se.status
	}
	return exitError
}
