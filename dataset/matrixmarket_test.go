package dataset

import (
	"errors"
	"fmt"
	"runtime"
	"testing"
)

// TestMatrixMarketDeclaredSizeMemory checks that the memory a MatrixMarket
// file takes follows its entries, not the size its size line declares: a
// file of three entries declaring billions of rows and columns is refused
// without allocating per declared row or column.
func TestMatrixMarketDeclaredSizeMemory(t *testing.T) {
	// The bound: the file and its three entries take a few kilobytes and
	// the line reader a 64 KB buffer; 4 MB leaves room for the runtime's
	// own allocations, and is below one byte per declared row (2 MB at
	// the smaller size, 2 GB at the larger).
	const bound = 4 << 20
	for _, n := range []int{2_000_000, 2_000_000_000} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			content := fmt.Sprintf("%%%%MatrixMarket matrix coordinate real general\n%d %d 3\n1 1 1\n2 2 2\n%d %d 3\n", n, n, n, n)
			path := writeFile(t, "huge.mtx", content)
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			_, err := OpenFile(path, "matrix-market", Options{})
			runtime.ReadMemStats(&after)
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > bound {
				t.Errorf("loading allocated %d bytes, want at most %d", alloc, bound)
			}
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Line != 2 || pe.Field != "rows" {
				t.Errorf("got error %v, want a ParseError for the rows of line 2", err)
			}
		})
	}
}
