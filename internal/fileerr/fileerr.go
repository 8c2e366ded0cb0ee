// Package fileerr holds the one error type for a problem in a file a user
// wrote or gave: a data file (dataset.ParseError) or a config
// (experiments.ConfigError), both aliases of Error. Its message names the
// file, the line and the field, as "file:line: field: message".
package fileerr

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Error is a problem in a file, located by file, line and field.
type Error struct {
	File string
	// Line counts from 1; it is 0 for a problem with the whole file (an
	// empty one) or with a setting not written in it (a default).
	Line int
	// Field names the offending field of a data line ("rating", "user
	// id") or a config key path ("models[2].name"); it is empty when the
	// problem is with the line or the file as a whole.
	Field string
	// Err is the problem itself, which errors.Is and errors.As see
	// through Unwrap.
	Err error
}

// New returns an Error whose problem is the message msg.
func New(file string, line int, field, msg string) *Error {
	return &Error{File: file, Line: line, Field: field, Err: errors.New(msg)}
}

// Errorf returns an Error whose problem is formatted as fmt.Errorf
// formats it (so %w wraps).
func Errorf(file string, line int, field, format string, args ...any) *Error {
	return &Error{File: file, Line: line, Field: field, Err: fmt.Errorf(format, args...)}
}

// Error formats the error as "file:line: field: message", leaving out the
// line and the field when they are unknown.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		b.WriteString(":")
		b.WriteString(strconv.Itoa(e.Line))
	}
	if e.Field != "" {
		b.WriteString(": ")
		b.WriteString(e.Field)
	}
	b.WriteString(": ")
	if e.Err != nil {
		b.WriteString(e.Err.Error())
	} else {
		b.WriteString("<nil>")
	}
	return b.String()
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }
