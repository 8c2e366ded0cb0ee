// Package synthetic generates matrices with the shape of real datasets,
// for benchmarks and memory tests at sizes whose data may not be at hand.
package synthetic

import (
	"iter"
	"math/rand/v2"

	"github.com/bnmf-lab/bnmf/sparse"
)

// The shape of MovieLens 25M: users, movies and ratings.
const (
	ML25MRows     = 162541
	ML25MCols     = 59047
	ML25MObserved = 25000095
)

// ML25M returns the entries, in row-major order, of a matrix with the
// shape and number of observed entries of MovieLens 25M and values 1 to 5
// (a fixed seed, so every call gives the same matrix). Each row takes a
// run of distinct columns, the floor or ceiling of the average count, from
// a row-dependent start with a stride coprime to the number of columns,
// so no set of drawn positions is needed at this size.
func ML25M() iter.Seq[sparse.Entry] {
	return func(yield func(sparse.Entry) bool) {
		rng := rand.New(rand.NewPCG(3, 4))
		const stride = 7919 // prime, and 59047 = 137 * 431 is not a multiple of it
		for i := range ML25MRows {
			n := ML25MObserved / ML25MRows
			if i < ML25MObserved%ML25MRows {
				n++
			}
			start := rng.IntN(ML25MCols)
			for j := range n {
				e := sparse.Entry{Row: i, Col: (start + j*stride) % ML25MCols, Value: float64(1 + rng.IntN(5))}
				if !yield(e) {
					return
				}
			}
		}
	}
}
