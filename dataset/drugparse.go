package dataset

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
)

// The parsers of upstream's drug-sensitivity files: the label files (one
// identifier per line) and the dense tab-separated matrix with "nan" for
// a missing value.

// parseLabels reads one identifier per line, the first tab-separated field,
// from data; file names it in errors. Blank lines are errors, as they
// would shift every label after them, and so are names given twice.
func parseLabels(file string, data []byte) ([]string, error) {
	lr := newLineReader(file, bytes.NewReader(data))
	var ids []string
	seen := make(map[string]int)
	for {
		line, ok := lr.next()
		if !ok {
			break
		}
		id, _, _ := bytes.Cut(line, []byte("\t"))
		if len(bytes.TrimSpace(id)) == 0 {
			return nil, lr.errorf(lr.line, "name", "empty; want one name per line")
		}
		if prev, ok := seen[string(id)]; ok {
			return nil, lr.errorf(lr.line, "name", "%q already given on line %d", id, prev)
		}
		seen[string(id)] = lr.line
		ids = append(ids, string(id))
	}
	if err := lr.err(); err != nil {
		return nil, err
	}
	if len(ids) == 0 {
		return nil, &ParseError{File: file, Err: errors.New("no names")}
	}
	return ids, nil
}

// denseStats counts what parseDense saw.
type denseStats struct {
	// tokens counts the entries other than "nan", subnormal ones included.
	tokens int
	// subnormal counts the entries dropped as missing for being subnormal.
	subnormal int
}

// parseDense reads a dense tab-separated matrix, "nan" marking a missing
// entry, whose rows and columns are named by rowIDs and colIDs; file names
// it in errors, which give the line (the row) and the column (counting
// from 1, with its name). Values must be finite and nonnegative. With
// subnormalMissing a positive value below the smallest normal float64 is
// dropped as missing.
func parseDense(ctx context.Context, file string, r io.Reader, rowIDs, colIDs []string, subnormalMissing bool) (*raw, denseStats, error) {
	var st denseStats
	lr := newLineReader(file, readerContext(ctx, r))
	out := &raw{file: file, rowIDs: rowIDs, colIDs: colIDs, rows: len(rowIDs), cols: len(colIDs)}
	for {
		line, ok := lr.next()
		if !ok {
			break
		}
		if lr.line > len(rowIDs) {
			return nil, st, lr.errorf(lr.line, "", "more rows than the %d names of rows", len(rowIDs))
		}
		if len(out.cells) >= math.MaxInt32 {
			return nil, st, lr.errorf(lr.line, "", "file too large")
		}
		col := 0
		for field := range bytes.SplitSeq(line, []byte("\t")) {
			col++
			if col > len(colIDs) {
				return nil, st, lr.errorf(lr.line, "", "%d values, want %d (one per column name)", bytes.Count(line, []byte("\t"))+1, len(colIDs))
			}
			if string(field) == "nan" {
				continue
			}
			name := fmt.Sprintf("column %d (%s)", col, colIDs[col-1])
			v, err := strconv.ParseFloat(string(field), 64)
			if err != nil {
				return nil, st, lr.errorf(lr.line, name, "%q is not a number or nan", field)
			}
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, st, lr.wrap(lr.line, name, fmt.Errorf("%w %q (write nan for a missing value)", ErrNonFinite, field))
			}
			if v < 0 {
				return nil, st, lr.wrap(lr.line, name, fmt.Errorf("%w %q", ErrNegative, field))
			}
			st.tokens++
			if subnormalMissing && v > 0 && v < minNormal {
				st.subnormal++
				continue
			}
			out.cells = append(out.cells, cell{row: int32(lr.line - 1), col: int32(col - 1), line: int32(lr.line), value: v})
		}
		if col < len(colIDs) {
			return nil, st, lr.errorf(lr.line, "", "%d values, want %d (one per column name)", col, len(colIDs))
		}
	}
	if err := lr.err(); err != nil {
		return nil, st, err
	}
	if lr.line < len(rowIDs) {
		return nil, st, &ParseError{File: file, Line: lr.line, Err: fmt.Errorf("%d rows, want %d (one per row name)", lr.line, len(rowIDs))}
	}
	if len(out.cells) == 0 {
		return nil, st, &ParseError{File: file, Err: ErrNoRatings}
	}
	// Index rows and columns by their sorted identifiers, as every other
	// loader does.
	out.rowIDs, out.colIDs = slices.Clone(rowIDs), slices.Clone(colIDs)
	rowRank, colRank := sortIDs(out.rowIDs), sortIDs(out.colIDs)
	for i := range out.cells {
		c := &out.cells[i]
		c.row, c.col = rowRank[c.row], colRank[c.col]
	}
	if err := out.sortCells(); err != nil {
		return nil, st, err
	}
	return out, st, nil
}

// minNormal is the smallest positive normal float64, 2^-1022.
const minNormal = 0x1p-1022
