package mcmcdiag

import (
	"fmt"
	"math"
)

// matrix holds draws chain after chain: chain j is x[j*n : (j+1)*n].
type matrix struct {
	x []float64
	m int // chains
	n int // draws per chain
}

// chain returns chain j of d.
func (d matrix) chain(j int) []float64 { return d.x[j*d.n : (j+1)*d.n] }

// dims checks that chains is a non-empty rectangle and returns its number
// of chains and draws per chain. It panics otherwise: ragged input is a
// programmer error.
func dims(chains [][]float64) (m, n int) {
	m = len(chains)
	if m == 0 {
		panic("mcmcdiag: no chains")
	}
	n = len(chains[0])
	if n == 0 {
		panic("mcmcdiag: chain 0 has no draws")
	}
	for j, c := range chains {
		if len(c) != n {
			panic(fmt.Sprintf("mcmcdiag: ragged chains: chain %d has %d draws, chain 0 has %d", j, len(c), n))
		}
	}
	return m, n
}

// flatten copies chains into dst (grown as needed) chain after chain.
func flatten(dst []float64, chains [][]float64, m, n int) matrix {
	dst = grow(dst, m*n)
	for j, c := range chains {
		copy(dst[j*n:], c)
	}
	return matrix{x: dst, m: m, n: n}
}

// split copies each chain of d into two chains, its first and its last
// floor(n/2) draws, into dst (grown as needed): the first halves of all
// chains come first, then the second halves, matching posterior's
// .split_chains. With an odd n the middle draw is dropped. A chain of one
// draw is copied unsplit.
func split(dst []float64, d matrix) matrix {
	if d.n == 1 {
		dst = grow(dst, len(d.x))
		copy(dst, d.x)
		return matrix{x: dst, m: d.m, n: 1}
	}
	h := d.n / 2
	dst = grow(dst, 2*d.m*h)
	for j := 0; j < d.m; j++ {
		c := d.chain(j)
		copy(dst[j*h:], c[:h])
		copy(dst[(d.m+j)*h:], c[d.n-h:])
	}
	return matrix{x: dst, m: 2 * d.m, n: h}
}

// grow returns a slice of length n, reusing buf's storage when it is large
// enough.
func grow(buf []float64, n int) []float64 {
	if cap(buf) >= n {
		return buf[:n]
	}
	return make([]float64, n)
}

// constantTol is posterior's tolerance for a constant quantity: R's
// .Machine$double.eps, used as an absolute difference.
const constantTol = 0x1p-52

// undefined reports whether posterior's should_return_NA holds for x: a
// non-finite value, or all values within constantTol of each other.
func undefined(x []float64) bool {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return true
		}
		lo = min(lo, v)
		hi = max(hi, v)
	}
	return math.Abs(hi-lo) < constantTol
}

// hasNaN reports whether x holds a NaN.
func hasNaN(x []float64) bool {
	for _, v := range x {
		if math.IsNaN(v) {
			return true
		}
	}
	return false
}

// mean returns the arithmetic mean of x, refined by a second pass over the
// residuals as R's mean does.
func mean(x []float64) float64 {
	var s float64
	for _, v := range x {
		s += v
	}
	mu := s / float64(len(x))
	if math.IsInf(mu, 0) || math.IsNaN(mu) {
		return mu
	}
	var r float64
	for _, v := range x {
		r += v - mu
	}
	return mu + r/float64(len(x))
}

// variance returns the sample variance of x (divisor len(x)-1), NaN for
// fewer than two values, as R's var.
func variance(x []float64) float64 {
	if len(x) < 2 {
		return math.NaN()
	}
	mu := mean(x)
	var s float64
	for _, v := range x {
		d := v - mu
		s += d * d
	}
	return s / float64(len(x)-1)
}

// plainMean is the mean as matrixStats' colMeans2 and rowMeans2 compute
// it: one pass, summing in order. Using the same summation as the
// reference keeps near-degenerate cases (chains stuck at one value) equal
// to it.
func plainMean(x []float64) float64 {
	var s float64
	for _, v := range x {
		s += v
	}
	return s / float64(len(x))
}
