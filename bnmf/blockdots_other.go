//go:build !amd64 || noasm || gccgo || safe

package bnmf

import "gonum.org/v1/gonum/floats"

// dots4 returns the dot products of x with the four vectors of len(x) at
// y[0:], y[stride:], y[2*stride:] and y[3*stride:], by floats.Dot, with
// len(y) >= 3*stride + len(x).
func dots4(x, y []float64, stride int) (d0, d1, d2, d3 float64) {
	n := len(x)
	y = y[: 3*stride+n : len(y)]
	return floats.Dot(x, y[:n]), floats.Dot(x, y[stride:stride+n]), floats.Dot(x, y[2*stride:2*stride+n]), floats.Dot(x, y[3*stride:3*stride+n])
}

// dots2x4 returns d_rc = x[r*stride:][:n] . y[c*stride:][:n] for r = 0, 1
// and c = 0..3, by floats.Dot, with len(x) >= stride + n and len(y) >=
// 3*stride + n.
func dots2x4(x, y []float64, n, stride int) (d00, d01, d02, d03, d10, d11, d12, d13 float64) {
	d00, d01, d02, d03 = dots4(x[:n], y, stride)
	d10, d11, d12, d13 = dots4(x[stride:stride+n:len(x)], y, stride)
	return
}
