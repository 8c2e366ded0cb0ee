package dataset

import (
	"bufio"
	"cmp"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/bnmf-lab/bnmf/internal/fileerr"
	"github.com/bnmf-lab/bnmf/sparse"
)

// Errors that a ParseError may wrap, for use with errors.Is.
var (
	// ErrNoRatings means a file holds no ratings at all.
	ErrNoRatings = errors.New("no ratings")
	// ErrDuplicate means a (row, column) pair is given twice.
	ErrDuplicate = errors.New("duplicate entry")
	// ErrNegative means a value is below zero, which nonnegative matrix
	// factorisation cannot fit.
	ErrNegative = errors.New("negative value")
	// ErrNonFinite means a value is NaN or infinite.
	// It is sparse.ErrNonFinite, which the samplers wrap too.
	ErrNonFinite = sparse.ErrNonFinite
)

// ParseError reports a problem in an input file. Line counts from 1; it is
// 0 for a problem with the whole file, such as an empty one. Field names
// the offending field ("rating", "user id", ...) or is empty when the line
// as a whole is wrong. Its message reads "file:line: field: message". It
// is the one file:line error type of the module, which configs report
// too (experiments.ConfigError).
type ParseError = fileerr.Error

// maxLine is the longest line a loader accepts, in bytes.
const maxLine = 1 << 20

// lineReader yields the lines of a file without their line endings (LF or
// CRLF), counting them from 1. A last line without a newline is returned
// like any other.
type lineReader struct {
	file string
	sc   *bufio.Scanner
	line int
}

func newLineReader(file string, r io.Reader) *lineReader {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), maxLine)
	return &lineReader{file: file, sc: sc}
}

// next returns the next line, or false at the end of the input or on a
// read error, which err then reports. The piece of a line read before a
// read error (a cancelled context, a failing disk) is not returned as a
// line: parsed, it would give a misleading error of its own.
func (lr *lineReader) next() ([]byte, bool) {
	if !lr.sc.Scan() || lr.sc.Err() != nil {
		return nil, false
	}
	lr.line++
	return lr.sc.Bytes(), true
}

// err returns the read error that stopped next, if any.
func (lr *lineReader) err() error {
	err := lr.sc.Err()
	if err == nil {
		return nil
	}
	if errors.Is(err, bufio.ErrTooLong) {
		return lr.errorf(lr.line+1, "", "line longer than %d bytes", maxLine)
	}
	return fmt.Errorf("%s: %w", lr.file, err)
}

// errorf returns a ParseError for the given line and field.
func (lr *lineReader) errorf(line int, field, format string, args ...any) error {
	return &ParseError{File: lr.file, Line: line, Field: field, Err: fmt.Errorf(format, args...)}
}

// wrap returns a ParseError for the given line and field that wraps err.
func (lr *lineReader) wrap(line int, field string, err error) error {
	return &ParseError{File: lr.file, Line: line, Field: field, Err: err}
}

// parseValue parses a finite, nonnegative rating or matrix value.
func (lr *lineReader) parseValue(field string, b []byte) (float64, error) {
	v, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		return 0, lr.errorf(lr.line, field, "%q is not a number", b)
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, lr.wrap(lr.line, field, fmt.Errorf("%w %q", ErrNonFinite, b))
	}
	if v < 0 {
		return 0, lr.wrap(lr.line, field, fmt.Errorf("%w %q", ErrNegative, b))
	}
	return v, nil
}

// cell is one parsed entry: row and column as indices into the builder's
// identifier lists, and the line it came from.
type cell struct {
	row, col int32
	line     int32
	value    float64
}

// raw holds a parsed file before cleaning: a rows x cols matrix whose
// cells are sorted by row and then column and free of duplicates. Rows and
// columns are ordered by their identifiers (see compareIDs).
type raw struct {
	file       string
	rows, cols int
	// rowIDs and colIDs hold the identifiers; nil means the identifiers are
	// the 1-based indices, as in a MatrixMarket file.
	rowIDs, colIDs []string
	cells          []cell
}

// rowID returns the identifier of row i.
func (r *raw) rowID(i int32) string { return id(r.rowIDs, i) }

// colID returns the identifier of column j.
func (r *raw) colID(j int32) string { return id(r.colIDs, j) }

func id(ids []string, i int32) string {
	if ids == nil {
		return strconv.Itoa(int(i) + 1)
	}
	return ids[i]
}

// builder collects the entries of a file, interning identifiers.
type builder struct {
	raw
	rowIndex, colIndex map[string]int32
}

func newBuilder(file string) *builder {
	return &builder{
		raw:      raw{file: file},
		rowIndex: make(map[string]int32),
		colIndex: make(map[string]int32),
	}
}

// intern returns the index of id in ids, adding it if it is new.
func intern(index map[string]int32, ids *[]string, id []byte) int32 {
	if i, ok := index[string(id)]; ok {
		return i
	}
	i := int32(len(*ids))
	s := string(id)
	index[s] = i
	*ids = append(*ids, s)
	return i
}

// add records the entry (row, col, value) read on line.
func (b *builder) add(row, col []byte, value float64, line int) error {
	if len(b.rowIDs) >= math.MaxInt32-1 || len(b.colIDs) >= math.MaxInt32-1 || line > math.MaxInt32 {
		return &ParseError{File: b.file, Line: line, Err: errors.New("file too large")}
	}
	r := intern(b.rowIndex, &b.rowIDs, row)
	c := intern(b.colIndex, &b.colIDs, col)
	b.cells = append(b.cells, cell{row: r, col: c, line: int32(line), value: value})
	return nil
}

// finish sorts the identifiers and the cells and rejects duplicates and
// empty files.
func (b *builder) finish() (*raw, error) {
	if len(b.cells) == 0 {
		return nil, &ParseError{File: b.file, Err: ErrNoRatings}
	}
	rowRank := sortIDs(b.rowIDs)
	colRank := sortIDs(b.colIDs)
	for i := range b.cells {
		c := &b.cells[i]
		c.row, c.col = rowRank[c.row], colRank[c.col]
	}
	r := &b.raw
	r.rows, r.cols = len(r.rowIDs), len(r.colIDs)
	if err := r.sortCells(); err != nil {
		return nil, err
	}
	return r, nil
}

// sortCells sorts the cells by row and then column and reports the first
// duplicate (row, column) pair by the lines that give it.
func (r *raw) sortCells() error {
	slices.SortFunc(r.cells, func(a, b cell) int {
		if a.row != b.row {
			return cmp.Compare(a.row, b.row)
		}
		if a.col != b.col {
			return cmp.Compare(a.col, b.col)
		}
		return cmp.Compare(a.line, b.line)
	})
	for i := 1; i < len(r.cells); i++ {
		p, c := r.cells[i-1], r.cells[i]
		if p.row == c.row && p.col == c.col {
			return &ParseError{File: r.file, Line: int(c.line), Err: fmt.Errorf(
				"%w: row %q, column %q already given on line %d", ErrDuplicate, r.rowID(c.row), r.colID(c.col), p.line)}
		}
	}
	return nil
}

// sortIDs sorts ids in place by compareIDs and returns, for each original
// position, the new one.
func sortIDs(ids []string) []int32 {
	order := make([]int32, len(ids))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int { return compareIDs(ids[a], ids[b]) })
	rank := make([]int32, len(ids))
	sorted := make([]string, len(ids))
	for pos, i := range order {
		rank[i] = int32(pos)
		sorted[pos] = ids[i]
	}
	copy(ids, sorted)
	return rank
}

// compareIDs orders identifiers: strings of decimal digits come first,
// ordered by numeric value (so "9" < "10"), ties broken by the string;
// all other strings follow in byte order.
func compareIDs(a, b string) int {
	na, nb := isDigits(a), isDigits(b)
	switch {
	case na && nb:
		ta, tb := trimZeros(a), trimZeros(b)
		if len(ta) != len(tb) {
			return len(ta) - len(tb)
		}
		if c := strings.Compare(ta, tb); c != 0 {
			return c
		}
	case na:
		return -1
	case nb:
		return 1
	}
	return strings.Compare(a, b)
}

func isDigits[T string | []byte](s T) bool {
	if len(s) == 0 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func trimZeros(s string) string {
	for len(s) > 1 && s[0] == '0' {
		s = s[1:]
	}
	return s
}
