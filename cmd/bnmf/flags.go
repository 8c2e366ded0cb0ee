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

// parse parses args, flags and arguments in any order: "bnmf run c.yaml
// --workers 1" is "bnmf run --workers 1 c.yaml". After "--" everything is
// an argument. For --help it prints the usage to standard output and
// returns flag.ErrHelp; for a bad flag it prints the usage to standard
// error and returns the error prefixed with the subcommand's name. The
// arguments are then in Args.
func (f *flagSet) parse(args []string) error {
	var positional []string
	for {
		if err := f.parseHead(args); err != nil {
			return err
		}
		rest := f.Args()
		if len(rest) == 0 {
			break
		}
		if consumed := len(args) - len(rest); consumed > 0 && args[consumed-1] == "--" {
			positional = append(positional, rest...)
			break
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
	// Parse stops at "--", leaving every argument after it as it stands.
	return f.Parse(append([]string{"--"}, positional...))
}

// parseHead parses the flags that come before the first argument and
// leaves the rest, from that argument on, in Args; a command that passes
// them on to a subcommand of its own (bnmf data) parses with it.
func (f *flagSet) parseHead(args []string) error {
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
