package sparse

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
)

// ErrNonFinite means a value is NaN or infinite. The loaders of package
// dataset and the samplers of package bnmf wrap it, so that one
// errors.Is test finds a non-finite value wherever it was met.
var ErrNonFinite = errors.New("non-finite value")

// Entry is one observed entry of a matrix: the value at (Row, Col), both
// zero-based.
type Entry struct {
	Row, Col int
	Value    float64
}

// Matrix is a sparse M x N matrix of observed entries, stored both row-wise
// and column-wise so that a row of W and a column of Z can each be updated
// by visiting only their own observed entries. Unobserved entries are absent,
// not zero. A Matrix is immutable once built and safe for concurrent reads.
type Matrix struct {
	rows, cols int

	// Row-major (CSR) storage: the entries of row i are at
	// [rowStart[i], rowStart[i+1]), sorted by column.
	rowStart []int
	rowCol   []int32
	rowVal   []float64

	// Column-major (CSC) storage: the entries of column j are at
	// [colStart[j], colStart[j+1]), sorted by row. colPos maps each
	// column-major position to the row-major position of the same entry.
	colStart []int
	colRow   []int32
	colVal   []float64
	colPos   []int32
}

// NewMatrix builds a rows x cols Matrix from its observed entries, given in
// any order. It returns an error for a non-positive dimension, an entry out
// of range, a non-finite value or a duplicate (row, column) pair; the error
// names the offending entry by its index in entries.
func NewMatrix(rows, cols int, entries []Entry) (*Matrix, error) {
	if rows <= 0 || cols <= 0 {
		return nil, fmt.Errorf("sparse: matrix dimensions %d x %d must be positive", rows, cols)
	}
	if rows > math.MaxInt32 || cols > math.MaxInt32 || len(entries) > math.MaxInt32 {
		return nil, fmt.Errorf("sparse: matrix %d x %d with %d entries is too large", rows, cols, len(entries))
	}
	for i, e := range entries {
		if e.Row < 0 || e.Row >= rows || e.Col < 0 || e.Col >= cols {
			return nil, fmt.Errorf("sparse: entry %d at (%d, %d) is outside the %d x %d matrix", i, e.Row, e.Col, rows, cols)
		}
		if math.IsNaN(e.Value) || math.IsInf(e.Value, 0) {
			return nil, fmt.Errorf("sparse: entry %d at (%d, %d) has %w %v", i, e.Row, e.Col, ErrNonFinite, e.Value)
		}
	}
	order := make([]int, len(entries))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool {
		ea, eb := entries[order[a]], entries[order[b]]
		if ea.Row != eb.Row {
			return ea.Row < eb.Row
		}
		return ea.Col < eb.Col
	})
	m := &Matrix{
		rows:     rows,
		cols:     cols,
		rowStart: make([]int, rows+1),
		rowCol:   make([]int32, len(entries)),
		rowVal:   make([]float64, len(entries)),
		colStart: make([]int, cols+1),
		colRow:   make([]int32, len(entries)),
		colVal:   make([]float64, len(entries)),
		colPos:   make([]int32, len(entries)),
	}
	for p, i := range order {
		e := entries[i]
		if p > 0 {
			prev := entries[order[p-1]]
			if prev.Row == e.Row && prev.Col == e.Col {
				return nil, fmt.Errorf("sparse: entries %d and %d both give (%d, %d)", order[p-1], i, e.Row, e.Col)
			}
		}
		m.rowCol[p] = int32(e.Col)
		m.rowVal[p] = e.Value
		m.rowStart[e.Row+1]++
		m.colStart[e.Col+1]++
	}
	for i := 0; i < rows; i++ {
		m.rowStart[i+1] += m.rowStart[i]
	}
	for j := 0; j < cols; j++ {
		m.colStart[j+1] += m.colStart[j]
	}
	next := make([]int, cols)
	copy(next, m.colStart[:cols])
	for i := 0; i < rows; i++ {
		for p := m.rowStart[i]; p < m.rowStart[i+1]; p++ {
			j := m.rowCol[p]
			q := next[j]
			next[j]++
			m.colRow[q] = int32(i)
			m.colVal[q] = m.rowVal[p]
			m.colPos[q] = int32(p)
		}
	}
	return m, nil
}

// Dims returns the number of rows and columns.
func (m *Matrix) Dims() (rows, cols int) { return m.rows, m.cols }

// Len returns the number of observed entries.
func (m *Matrix) Len() int { return len(m.rowVal) }

// Row returns the column indices and values of the observed entries of row
// i, sorted by column. The slices alias the matrix and must not be modified.
func (m *Matrix) Row(i int) (cols []int32, values []float64) {
	lo, hi := m.rowStart[i], m.rowStart[i+1]
	return m.rowCol[lo:hi], m.rowVal[lo:hi]
}

// Col returns the row indices and values of the observed entries of column
// j, sorted by row. The slices alias the matrix and must not be modified.
func (m *Matrix) Col(j int) (rows []int32, values []float64) {
	lo, hi := m.colStart[j], m.colStart[j+1]
	return m.colRow[lo:hi], m.colVal[lo:hi]
}

// Entries returns a copy of the observed entries in row-major order.
func (m *Matrix) Entries() []Entry {
	out := make([]Entry, 0, m.Len())
	for i := 0; i < m.rows; i++ {
		cols, vals := m.Row(i)
		for p, j := range cols {
			out = append(out, Entry{Row: i, Col: int(j), Value: vals[p]})
		}
	}
	return out
}

// EntryAt returns the entry at row-major position p, in [0, Len()).
func (m *Matrix) EntryAt(p int) Entry {
	i := sort.Search(m.rows, func(i int) bool { return m.rowStart[i+1] > p })
	return Entry{Row: i, Col: int(m.rowCol[p]), Value: m.rowVal[p]}
}

// RowStorage returns the row-major (CSR) arrays: the entries of row i are
// at positions [start[i], start[i+1]) of cols (their column indices, in
// increasing order) and values. The slices alias the matrix and must not
// be modified.
func (m *Matrix) RowStorage() (start []int, cols []int32, values []float64) {
	return m.rowStart, m.rowCol, m.rowVal
}

// ColStorage returns the column-major (CSC) arrays: the entries of column
// j are at positions [start[j], start[j+1]) of rows (their row indices, in
// increasing order), and pos maps each column-major position to the
// row-major position of the same entry. The slices alias the matrix and
// must not be modified.
func (m *Matrix) ColStorage() (start []int, rows []int32, pos []int32) {
	return m.colStart, m.colRow, m.colPos
}

// WithValues returns a matrix with the same observed positions as m and
// the given values, in the row-major order of RowStorage. The new matrix
// shares m's index arrays, not its values. It panics with a "sparse: ..."
// message if len(values) differs from m.Len().
func (m *Matrix) WithValues(values []float64) *Matrix {
	if len(values) != m.Len() {
		panic(fmt.Sprintf("sparse: WithValues got %d values for a matrix of %d entries", len(values), m.Len()))
	}
	out := *m
	out.rowVal = slices.Clone(values)
	out.colVal = make([]float64, len(values))
	for q, p := range m.colPos {
		out.colVal[q] = values[p]
	}
	return &out
}

// Mean returns the mean of the observed values (m0 in the paper), or 0 for
// a matrix with no observed entries.
func (m *Matrix) Mean() float64 {
	if m.Len() == 0 {
		return 0
	}
	var s float64
	for _, v := range m.rowVal {
		s += v
	}
	return s / float64(m.Len())
}

// Variance returns the population variance of the observed values, or 0
// for a matrix with fewer than one observed entry.
func (m *Matrix) Variance() float64 {
	if m.Len() == 0 {
		return 0
	}
	mean := m.Mean()
	var s float64
	for _, v := range m.rowVal {
		d := v - mean
		s += d * d
	}
	return s / float64(m.Len())
}
