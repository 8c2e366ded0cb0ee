package dataset

import (
	"bytes"
	"errors"
	"io"
	"math"
	"strconv"
)

// parseMatrixMarket reads a MatrixMarket coordinate file from r; file names
// the input in errors.
//
// The banner must read "%%MatrixMarket matrix coordinate F general" with F
// one of real, integer or double (case does not matter); pattern, complex
// and symmetric matrices are rejected. Comment lines start with '%' and
// may appear, like blank lines, anywhere before the size line "M N L". The
// L entry lines "i j value" that follow use 1-based indices; blank lines
// among them are ignored. Row i has the identifier "i". Rows and columns
// without entries are kept, but at most maxEmptyLines of each beyond the
// L that entries can fill (see checkEmptyLines).
func parseMatrixMarket(file string, r io.Reader) (*raw, error) {
	lr := newLineReader(file, r)
	line, ok := lr.next()
	if !ok {
		if err := lr.err(); err != nil {
			return nil, err
		}
		return nil, &ParseError{File: file, Err: ErrNoRatings}
	}
	if err := checkBanner(lr, line); err != nil {
		return nil, err
	}

	var size [][]byte
	for {
		line, ok = lr.next()
		if !ok {
			if err := lr.err(); err != nil {
				return nil, err
			}
			return nil, lr.errorf(lr.line, "", "no size line \"rows columns entries\"")
		}
		if t := bytes.TrimSpace(line); len(t) > 0 && t[0] != '%' {
			size = bytes.Fields(t)
			break
		}
	}
	if len(size) != 3 {
		return nil, lr.errorf(lr.line, "", "size line has %d fields, want 3 (rows columns entries)", len(size))
	}
	sizeNames := [3]string{"rows", "columns", "entries"}
	var dims [3]int
	for i, f := range size {
		v, err := strconv.ParseInt(string(f), 10, 32)
		if err != nil || v < 0 || (i < 2 && v == 0) {
			return nil, lr.errorf(lr.line, sizeNames[i], "%q is not a positive integer below 2^31", f)
		}
		dims[i] = int(v)
	}
	rows, cols, want := dims[0], dims[1], dims[2]
	if int64(want) > int64(rows)*int64(cols) {
		return nil, lr.errorf(lr.line, sizeNames[2], "%d entries do not fit in %d x %d", want, rows, cols)
	}
	if err := checkEmptyLines(lr, rows, cols, want); err != nil {
		return nil, err
	}
	out := &raw{file: file, rows: rows, cols: cols, cells: make([]cell, 0, min(want, 1<<20))}
	entryNames := [3]string{"row", "column", "value"}
	for {
		line, ok = lr.next()
		if !ok {
			break
		}
		f := bytes.Fields(line)
		if len(f) == 0 {
			continue
		}
		if len(out.cells) == want {
			return nil, lr.errorf(lr.line, "", "more entries than the %d the size line declares", want)
		}
		if len(f) != 3 {
			return nil, lr.errorf(lr.line, "", "want 3 fields (row column value), found %d", len(f))
		}
		var idx [2]int32
		for k, limit := range [2]int{rows, cols} {
			v, err := strconv.ParseInt(string(f[k]), 10, 64)
			if err != nil || v < 1 || v > int64(limit) {
				return nil, lr.errorf(lr.line, entryNames[k], "%q is not an index from 1 to %d", f[k], limit)
			}
			idx[k] = int32(v - 1)
		}
		v, err := lr.parseValue(entryNames[2], f[2])
		if err != nil {
			return nil, err
		}
		if lr.line > math.MaxInt32 {
			return nil, lr.errorf(lr.line, "", "file too large")
		}
		out.cells = append(out.cells, cell{row: idx[0], col: idx[1], line: int32(lr.line), value: v})
	}
	if err := lr.err(); err != nil {
		return nil, err
	}
	if len(out.cells) < want {
		return nil, lr.errorf(lr.line, "", "the size line declares %d entries, but the file has %d", want, len(out.cells))
	}
	if want == 0 {
		return nil, &ParseError{File: file, Err: ErrNoRatings}
	}
	if err := out.sortCells(); err != nil {
		return nil, err
	}
	return out, nil
}

// checkBanner checks the "%%MatrixMarket" first line.
func checkBanner(lr *lineReader, line []byte) error {
	f := bytes.Fields(bytes.ToLower(bytes.TrimPrefix(line, []byte("\ufeff"))))
	if len(f) != 5 || string(f[0]) != "%%matrixmarket" || string(f[1]) != "matrix" {
		return lr.errorf(1, "", "not a MatrixMarket banner %q; want \"%%%%MatrixMarket matrix coordinate real general\"", line)
	}
	if string(f[2]) != "coordinate" {
		return lr.wrap(1, "format", errors.New(`only "coordinate" (sparse) files are supported, not `+strconv.Quote(string(f[2]))))
	}
	switch string(f[3]) {
	case "real", "integer", "double":
	case "pattern":
		return lr.wrap(1, "value type", errors.New(`"pattern" files have no values to factorise`))
	default:
		return lr.wrap(1, "value type", errors.New(`want "real" or "integer", not `+strconv.Quote(string(f[3]))))
	}
	if string(f[4]) != "general" {
		return lr.wrap(1, "symmetry", errors.New(`only "general" matrices are supported, not `+strconv.Quote(string(f[4]))))
	}
	return nil
}

// maxEmptyLines is how many rows (and, separately, columns) beyond its
// number of entries a MatrixMarket file may declare. Every declared row
// and column is kept, with an identifier, so without a bound a size line
// of a few bytes ("2000000000 2000000000 3") would make the loader
// allocate tens of gigabytes. 65,536 empty lines cost a few megabytes.
const maxEmptyLines = 1 << 16

// checkEmptyLines refuses a size line that declares more rows or columns
// than want entries can fill plus maxEmptyLines, so that the memory a
// file takes follows its entries (the entry count itself is checked
// against the entries found).
func checkEmptyLines(lr *lineReader, rows, cols, want int) error {
	for _, d := range []struct {
		field string
		n     int
	}{{"rows", rows}, {"columns", cols}} {
		if d.n-want > maxEmptyLines {
			return lr.errorf(lr.line, d.field, "%d %s declared for %d entries: at most %d of them can have an entry, and more than %d %s without entries are refused "+
				"(they would take memory and add no data); declare the %s the entries use, or give the file as triplets, which keep only rows and columns with entries",
				d.n, d.field, want, want, maxEmptyLines, d.field, d.field)
		}
	}
	return nil
}
