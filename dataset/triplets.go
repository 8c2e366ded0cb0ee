package dataset

import (
	"bytes"
	"io"
	"strconv"
	"unicode"
	"unicode/utf8"
)

// tripletField names field i of a triplet line.
func tripletField(i int) string { return [...]string{"row", "column", "value"}[i] }

// parseTriplets reads "row, column, value" lines from r; file names the
// input in errors.
//
// The separator is a tab if the first non-blank line has one, else a comma
// if it has one, else runs of spaces; every line must use it. Row and
// column identifiers are arbitrary non-empty strings (surrounding spaces
// and double quotes are removed). Blank lines are ignored. Values must be
// finite and nonnegative.
//
// The first non-blank line is a header, and skipped, only when none of its
// three fields is a number and its value field is a name: a letter
// followed by letters, digits, underscores or spaces, such as "rating" or
// "value" (see isHeader). Any other first line is data, so a malformed one
// such as "1,2,3.5x", "1,2," or "a,b,3.5x" is an error naming its line and
// field, like a malformed line anywhere else.
func parseTriplets(file string, r io.Reader) (*raw, error) {
	lr := newLineReader(file, r)
	b := newBuilder(file)
	var sep []byte // nil: runs of white space
	first := true
	var fields [3][]byte
	for {
		line, ok := lr.next()
		if !ok {
			break
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		if first {
			line = bytes.TrimPrefix(line, []byte("\ufeff"))
			switch {
			case bytes.IndexByte(line, '\t') >= 0:
				sep = []byte("\t")
			case bytes.IndexByte(line, ',') >= 0:
				sep = []byte(",")
			}
		}
		n, ok := splitTriplet(line, sep, fields[:])
		if !ok || n != 3 {
			return nil, lr.errorf(lr.line, "", "want 3 fields (row, column, value) separated by %s, found %d",
				sepName(sep), countTripletFields(line, sep))
		}
		if first {
			first = false
			if isHeader(fields) {
				continue
			}
		}
		for i := range 2 {
			if len(fields[i]) == 0 {
				return nil, lr.errorf(lr.line, tripletField(i), "empty identifier")
			}
		}
		v, err := lr.parseValue(tripletField(2), fields[2])
		if err != nil {
			return nil, err
		}
		if err := b.add(fields[0], fields[1], v, lr.line); err != nil {
			return nil, err
		}
	}
	if err := lr.err(); err != nil {
		return nil, err
	}
	return b.finish()
}

// isHeader reports whether the fields of the first line of a triplet file
// are a header: none of them is a number and the value field is a name
// (a letter followed by letters, digits, underscores or spaces). The
// value field decides because identifiers may be any strings; requiring
// also that row and column are not numbers keeps "1,2,three" data.
func isHeader(fields [3][]byte) bool {
	for _, f := range fields {
		if _, err := strconv.ParseFloat(string(f), 64); err == nil {
			return false
		}
	}
	return isName(fields[2])
}

// isName reports whether b is a letter followed by letters, digits,
// underscores or spaces.
func isName(b []byte) bool {
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		switch {
		case unicode.IsLetter(r):
		case i == 0:
			return false
		case unicode.IsDigit(r) || r == '_' || r == ' ':
		default:
			return false
		}
		i += size
	}
	return len(b) > 0
}

// splitTriplet splits line at sep (or at runs of white space when sep is
// nil) into trimmed, unquoted fields, as splitFields does.
func splitTriplet(line, sep []byte, fields [][]byte) (int, bool) {
	var n int
	if sep == nil {
		all := bytes.Fields(line)
		if len(all) > len(fields) {
			return len(all), false
		}
		n = copy(fields, all)
	} else {
		var ok bool
		if n, ok = splitFields(line, sep, fields); !ok {
			return n, false
		}
	}
	for i := range n {
		f := bytes.TrimSpace(fields[i])
		if len(f) >= 2 && f[0] == '"' && f[len(f)-1] == '"' {
			f = f[1 : len(f)-1]
		}
		fields[i] = f
	}
	return n, true
}

func countTripletFields(line, sep []byte) int {
	if sep == nil {
		return len(bytes.Fields(line))
	}
	return countFields(line, sep)
}

func sepName(sep []byte) string {
	switch string(sep) {
	case "\t":
		return "tabs"
	case ",":
		return "commas"
	}
	return "spaces"
}
