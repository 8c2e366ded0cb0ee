package bnmf

import "github.com/bnmf-lab/bnmf/sparse"

// Entry is one observed entry of a matrix: the value at (Row, Col), both
// zero-based. It is sparse.Entry.
type Entry = sparse.Entry

// Matrix is a sparse matrix of observed entries, stored both row-wise and
// column-wise so that a row of W and a column of Z can each be updated by
// visiting only their own observed entries. It is sparse.Matrix.
type Matrix = sparse.Matrix

// NewMatrix builds a rows x cols Matrix from its observed entries, given in
// any order; see sparse.NewMatrix.
func NewMatrix(rows, cols int, entries []Entry) (*Matrix, error) {
	return sparse.NewMatrix(rows, cols, entries)
}
