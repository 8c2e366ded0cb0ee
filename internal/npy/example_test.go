package npy_test

import (
	"bytes"
	"fmt"

	"github.com/bnmf-lab/bnmf/internal/npy"
)

func Example() {
	var b bytes.Buffer
	// A 2 x 3 matrix in C (row-major) order; numpy.load reads it back as
	// array([[1., 2., 3.], [4., 5., 6.]]).
	if err := npy.Write(&b, []int{2, 3}, []float64{1, 2, 3, 4, 5, 6}); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(b.Len(), "bytes")
	shape, data, err := npy.Read[float64](&b)
	fmt.Println(shape, data, err)
	// Output:
	// 176 bytes
	// [2 3] [1 2 3 4 5 6] <nil>
}
