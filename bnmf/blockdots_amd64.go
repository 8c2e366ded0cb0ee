//go:build !noasm && !gccgo && !safe

package bnmf

import "golang.org/x/sys/cpu"

// dots4 returns the dot products of x with the four vectors of len(x) at
// y[0:], y[stride:], y[2*stride:] and y[3*stride:], each summed as
// floats.Dot sums it (SSE2 in blockdots_amd64.s; with AVX, dotsRows4AVX
// of linekernels_avx_amd64.s with the rows at 0, stride, 2*stride and
// 3*stride), with len(y) >=
// 3*stride + len(x). The precision of a block draw (drawBlock) and its
// Cholesky factorisation (choleskyLower) take their dot products four at
// a time with it: the four sums run side by side and share the loads of
// x, where one floats.Dot at a time waits on its own additions.
func dots4(x, y []float64, stride int) (d0, d1, d2, d3 float64) {
	// The full slice expression checks the length against len, not cap
	// (the assembly checks nothing).
	y = y[: 3*stride+len(x) : len(y)]
	if cpu.X86.HasAVX {
		return dotsRows4AVX(x, y, 0, stride, 2*stride, 3*stride)
	}
	return dots4SSE2(x, y, stride)
}

// dots4SSE2 is dots4 without the check of the length.
//
//go:noescape
func dots4SSE2(x, y []float64, stride int) (d0, d1, d2, d3 float64)

// dots2x4 returns d_rc = x[r*stride:][:n] . y[c*stride:][:n] for r = 0, 1
// and c = 0..3, each summed as floats.Dot sums it, with len(x) >=
// stride + n and len(y) >= 3*stride + n: two rows of the precision's
// lower triangle against four columns at once, each load of y serving
// both rows (with AVX; two dots4 otherwise).
func dots2x4(x, y []float64, n, stride int) (d00, d01, d02, d03, d10, d11, d12, d13 float64) {
	x, y = x[:stride+n:len(x)], y[:3*stride+n:len(y)]
	if cpu.X86.HasAVX {
		return dots2x4AVX(x, y, n, stride)
	}
	d00, d01, d02, d03 = dots4SSE2(x[:n], y, stride)
	d10, d11, d12, d13 = dots4SSE2(x[stride:], y, stride)
	return
}

// dots2x4AVX is dots2x4 without the checks of the lengths.
//
//go:noescape
func dots2x4AVX(x, y []float64, n, stride int) (d00, d01, d02, d03, d10, d11, d12, d13 float64)
