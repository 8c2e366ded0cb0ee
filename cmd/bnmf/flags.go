package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
)

// flagSet is a subcommand's flags together with its usage text. Its usage
// goes to standard output for --help and to standard error after a
// mistake, so that "bnmf X --help | less" works and errors are not lost.
type flagSet struct {
	*flag.FlagSet
	name           string
	head           func(io.Writer)
	stdout, stderr io.Writer
}

// newFlagSet returns the flag set of subcommand name (such as "run" or
// "data fetch"), whose usage is head followed by the flags' defaults.
func newFlagSet(name, head string, stdout, stderr io.Writer) *flagSet {
	return newFlagSetFunc(name, func(w io.Writer) { fmt.Fprint(w, head) }, stdout, stderr)
}

// newFlagSetFunc is newFlagSet with a usage head that is written by a
// function.
func newFlagSetFunc(name string, head func(io.Writer), stdout, stderr io.Writer) *flagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard) // usage is printed by usage, to the right stream
	return &flagSet{FlagSet: fs, name: name, head: head, stdout: stdout, stderr: stderr}
}

// usage writes the usage text and the flags to w.
func (f *flagSet) usage(w io.Writer) {
	f.head(w)
	hasFlags := false
	f.VisitAll(func(*flag.Flag) { hasFlags = true })
	if hasFlags {
		fmt.Fprintln(w, "\nFlags:")
		f.SetOutput(w)
		f.PrintDefaults()
		f.SetOutput(io.Discard)
	}
}

// parse parses args. For --help it prints the usage to standard output and
// returns flag.ErrHelp; for a bad flag it prints the usage to standard
// error and returns the error prefixed with the subcommand's name.
func (f *flagSet) parse(args []string) error {
	if err := f.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			f.usage(f.stdout)
			return err
		}
		return f.fail("%v", err)
	}
	return nil
}

// fail prints the usage to standard error and returns an error prefixed
// with the subcommand's name.
func (f *flagSet) fail(format string, args ...any) error {
	f.usage(f.stderr)
	return fmt.Errorf(f.name+": "+format, args...)
}
