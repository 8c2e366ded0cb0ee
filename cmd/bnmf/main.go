// Command bnmf runs Bayesian nonnegative matrix factorisation experiments:
// it fetches and describes datasets, runs studies described in YAML, merges
// sharded result stores and renders reports. It also fits a model to a
// matrix of the user's own (bnmf fit) and predicts from it (bnmf
// predict).
//
// Usage:
//
//	bnmf <command> [flags] [arguments]
//
// Run "bnmf help" for the list of commands and "bnmf <command> --help" for
// each command's flags.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"
)

// buildRevision is the source revision recorded in every result, set at
// link time by build.sh (-ldflags "-X main.buildRevision=REV"); when empty,
// the revision Go stamps into the build is recorded instead. It is never
// assigned at run time.
var buildRevision string

// command is one subcommand of bnmf.
type command struct {
	name    string
	summary string
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) error
	// stop says what the command does at a first signal and at a second
	// (see watchSignals); the zero value says it generally.
	stop stopNotes
}

// stopNotes are the messages of watchSignals: first follows the signal's
// name at the first signal, second the word "quitting" at the second.
type stopNotes struct{ first, second string }

// stopping returns the messages of the command named by args[0], or the
// general ones.
func stopping(args []string) stopNotes {
	for _, c := range commands() {
		if len(args) > 0 && c.name == args[0] && c.stop != (stopNotes{}) {
			return c.stop
		}
	}
	return stopNotes{first: "stopping (signal again to quit at once)"}
}

func commands() []command {
	cells := stopNotes{
		first:  "stopping within a sweep; finished cells are kept (signal again to quit at once)",
		second: "the chains that were running are lost, finished cells are kept",
	}
	return []command{
		{"run", "run the studies described by YAML configs", runRun, cells},
		{"merge", "merge shard result stores into one", runMerge, stopNotes{}},
		{"verify", "rerun stored cells and check that they are reproduced exactly", runVerify, stopNotes{}},
		{"report", "render figures and tables from stored results", runReport, stopNotes{}},
		{"data", "fetch and describe datasets", runData, stopNotes{}},
		{"fit", "fit a Bayesian NMF model to a matrix of your own", runFit, stopNotes{
			first:  "stopping the fit within a sweep; it writes nothing (signal again to quit at once)",
			second: "the fit writes nothing",
		}},
		{"predict", "predict entries from a model that fit wrote", runPredict, stopNotes{}},
	}
}

func main() {
	setGCPercent(os.Getenv)
	ctx, cancel := context.WithCancelCause(context.Background())
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go watchSignals(sigs, cancel, stopping(os.Args[1:]), os.Stderr, os.Exit)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	signal.Stop(sigs)
	cause := context.Cause(ctx)
	cancel(nil)
	if err != nil && !errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(os.Stderr, "bnmf:", err)
	}
	os.Exit(exitCode(err, cause))
}

// gcPercent is the garbage collector's target that bnmf sets when the
// environment does not (GOGC): the heap may grow by half its live size
// between collections, not by all of it (Go's default, 100). bnmf's heap
// is mostly large arrays of floats, which a collection does not scan, so
// collecting more often costs little time; with the default, the peak
// resident memory of a GRRN cell at the MovieLens 25M shape
// (TestLargeRun) was 4.35-4.37 GiB in two runs, twice the 2.1 GB live at
// the last collection, and with 50 it was 3.07 GiB, with loading as fast.
const gcPercent = 50

// setGCPercent sets the collector's target to gcPercent unless the GOGC
// environment variable (read with getenv) chooses one, and returns a
// function that restores the previous target.
func setGCPercent(getenv func(string) string) (restore func()) {
	if getenv("GOGC") != "" {
		return func() {}
	}
	prev := debug.SetGCPercent(gcPercent)
	return func() { debug.SetGCPercent(prev) }
}

// watchSignals cancels the commands' context at the first signal on sigs
// (SIGINT from Ctrl-C, or SIGTERM from kill, a scheduler or a container
// runtime), with a cause that records the signal, so that a run stops
// within a sweep and keeps every finished cell, and loading stops within
// a read (or while it waits for a named pipe's writer); it calls exit
// with 128 + the signal's number at the second, for a user who will not
// wait for that: records are written atomically, so quitting at once
// loses only the chains that were running. notes says so on stderr in
// the command's terms.
func watchSignals(sigs <-chan os.Signal, cancel context.CancelCauseFunc, notes stopNotes, stderr io.Writer, exit func(int)) {
	sig, ok := <-sigs
	if !ok {
		return
	}
	fmt.Fprintf(stderr, "bnmf: %s: %s\n", signalName(sig), notes.first)
	cancel(signalError{sig})
	if sig, ok = <-sigs; !ok {
		return
	}
	if notes.second != "" {
		fmt.Fprintf(stderr, "bnmf: quitting; %s\n", notes.second)
	} else {
		fmt.Fprintln(stderr, "bnmf: quitting")
	}
	exit(signalError{sig}.code())
}

// run dispatches args to a subcommand.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" || args[0] == "-help" {
		usage(stdout)
		if len(args) == 0 {
			return errors.New("no command given")
		}
		return nil
	}
	for _, c := range commands() {
		if c.name == args[0] {
			err := c.run(ctx, args[1:], stdout, stderr)
			if errors.Is(err, flag.ErrHelp) {
				return nil
			}
			return err
		}
	}
	usage(stderr)
	return fmt.Errorf("unknown command %q", args[0])
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "Usage: bnmf <command> [flags] [arguments]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Commands:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-8s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, `Run "bnmf <command> --help" for a command's flags. Flags may come before or`)
	fmt.Fprintln(w, `after the arguments; "--" ends them.`)
}
