//go:build !noasm && !gccgo && !safe

package bnmf

import (
	"golang.org/x/sys/cpu"
	"gonum.org/v1/gonum/floats"
)

// These kernels (linekernels_amd64.s) repeat the order of operations of
// gonum's amd64 assembly (gonum.org/v1/gonum/internal/asm/f64, built under
// the same tags): its dot product keeps four partial sums s0..s3 of the
// products of the elements with index 0, 1, 2, 3 mod 4, adds the last
// len mod 4 products to s0 in turn and returns (s0 + s2) + (s1 + s3); its
// axpy rounds alpha*x[i] and then y[i] + alpha*x[i]. Neither fuses a
// product and a sum into one FMA instruction.

// lineDots returns g . g and g . r, with len(r) >= len(g).
func lineDots(g, r []float64) (gg, gr float64) {
	if cpu.X86.HasAVX {
		return lineDotsAVX(g, r[:len(g):len(r)])
	}
	return lineDotsSSE2(g, r[:len(g):len(r)])
}

// lineAxpyDots sets r[q] += alpha*gk[q] for q < len(r), then returns
// gn . gn and gn . r with the updated r, with len(gk), len(gn) >= len(r).
func lineAxpyDots(r []float64, alpha float64, gk, gn []float64) (gg, gr float64) {
	// The full slice expressions check the lengths against len, not cap
	// (the assembly checks nothing), here and in the other wrappers.
	if cpu.X86.HasAVX {
		return lineAxpyDotsAVX(r, alpha, gk[:len(r):len(gk)], gn[:len(r):len(gn)])
	}
	return lineAxpyDotsSSE2(r, alpha, gk[:len(r):len(gk)], gn[:len(r):len(gn)])
}

// lineAxpy sets r[q] += alpha*gk[q] for q < len(r), with len(gk) >= len(r).
func lineAxpy(r []float64, alpha float64, gk []float64) {
	if cpu.X86.HasAVX {
		lineAxpyAVX(r, alpha, gk[:len(r):len(gk)])
		return
	}
	floats.AddScaled(r, alpha, gk[:len(r):len(gk)])
}

// dot returns x . y, summed as floats.Dot sums it, with len(y) >= len(x).
func dot(x, y []float64) float64 {
	if cpu.X86.HasAVX {
		return dotAVX(x, y[:len(x):len(y)])
	}
	return floats.Dot(x, y[:len(x):len(y)])
}

// lineDotsSSE2 is lineDots without the check of the lengths.
//
//go:noescape
func lineDotsSSE2(g, r []float64) (gg, gr float64)

// lineAxpyDotsSSE2 is lineAxpyDots without the check of the lengths.
//
//go:noescape
func lineAxpyDotsSSE2(r []float64, alpha float64, gk, gn []float64) (gg, gr float64)

// residualsFromGather sets r[q] = vals[q] - g_q . x for q < n = len(r),
// where g_q = (g[q], g[n+q], ..., g[(K-1)n+q]) with K = len(x), the
// transposed layout of gatherRows. Each dot product is summed as
// floats.Dot sums it, so that r[q] is the residual exactResiduals computes
// from the rows of the other factor that g holds.
func residualsFromGather(r, vals, g, x []float64) {
	if cpu.X86.HasAVX {
		residualsFromGatherAVX(r, vals[:len(r):len(vals)], g[:len(r)*len(x):len(g)], x)
		return
	}
	residualsFromGatherSSE2(r, vals[:len(r):len(vals)], g[:len(r)*len(x):len(g)], x)
}

// residualsFromGatherSSE2 is residualsFromGather without the check of the
// lengths.
//
//go:noescape
func residualsFromGatherSSE2(r, vals, g, x []float64)

// exactResidualsGathered is exactResiduals computed from the other
// factor's rows as gathered in g for the line's update, which are still
// in cache, rather than from the factor itself; r is scratch of the
// line's length.
func (c *gibbsChain) exactResidualsGathered(side *factorSide, j int, x, g, r []float64) {
	lo := side.start[j]
	_, vals := c.data.Col(j)
	residualsFromGather(r, vals, g, x)
	for q, e := range side.pos[lo : lo+len(r)] {
		c.resid[e] = r[q]
	}
}

// gatherRows64 is gatherRows for a float64 factor, with the entries taken
// four at a time in assembly (the last len(idx) mod 4 by gatherRows). It
// panics, as gatherRows would, when an index is out of other's rows.
func gatherRows64(g []float64, idx []int32, other []float64, k int) {
	n := len(idx)
	if k <= 0 || n == 0 {
		return
	}
	g = g[:n*k]
	rows := uint(len(other) / k)
	for _, i := range idx {
		if uint(i) >= rows {
			panic("bnmf: gatherRows64: index out of the other factor's rows")
		}
	}
	gatherQuadsSSE2(g, idx, other, k)
	if q := n &^ 3; q < n {
		for ; q < n; q++ {
			o := other[int(idx[q])*k:][:k]
			for kk, v := range o {
				g[kk*n+q] = v
			}
		}
	}
}

// gatherQuadsSSE2 is gatherRows64 for the entries up to len(idx) rounded
// down to a multiple of 4, without the checks.
//
//go:noescape
func gatherQuadsSSE2(g []float64, idx []int32, other []float64, k int)

// scaledSums sets num[i] += a*o[i] and den[i] += b*o[i] for i < len(num),
// with len(den), len(o) >= len(num): the numbers of two axpys
// (floats.AddScaled) in one pass over o.
func scaledSums(num, den []float64, a, b float64, o []float64) {
	if cpu.X86.HasAVX {
		scaledSumsAVX(num, den[:len(num):len(den)], a, b, o[:len(num):len(o)])
		return
	}
	scaledSumsSSE2(num, den[:len(num):len(den)], a, b, o[:len(num):len(o)])
}

// scaledSumsSSE2 is scaledSums without the check of the lengths.
//
//go:noescape
func scaledSumsSSE2(num, den []float64, a, b float64, o []float64)

// dotsRows4 returns the dot products of x with the four rows
// y[o:o+len(x)] for o = o0, o1, o2, o3, each summed as floats.Dot sums
// it. It panics when a row is out of y[:len(y)].
func dotsRows4(x, y []float64, o0, o1, o2, o3 int) (d0, d1, d2, d3 float64) {
	n := len(x)
	r0, r1, r2, r3 := y[o0:o0+n:len(y)], y[o1:o1+n:len(y)], y[o2:o2+n:len(y)], y[o3:o3+n:len(y)]
	if cpu.X86.HasAVX {
		return dotsRows4AVX(x, y, o0, o1, o2, o3)
	}
	return floats.Dot(x, r0), floats.Dot(x, r1), floats.Dot(x, r2), floats.Dot(x, r3)
}

// The AVX forms of the kernels above (linekernels_avx_amd64.s): the same
// numbers bit for bit, four lanes where SSE2 has two. Each is called only
// when the CPU has AVX (cpu.X86.HasAVX).

// lineDotsAVX is lineDotsSSE2 in AVX.
//
//go:noescape
func lineDotsAVX(g, r []float64) (gg, gr float64)

// lineAxpyDotsAVX is lineAxpyDotsSSE2 in AVX.
//
//go:noescape
func lineAxpyDotsAVX(r []float64, alpha float64, gk, gn []float64) (gg, gr float64)

// lineAxpyAVX is lineAxpy in AVX, without the check of the length.
//
//go:noescape
func lineAxpyAVX(r []float64, alpha float64, gk []float64)

// scaledSumsAVX is scaledSumsSSE2 in AVX.
//
//go:noescape
func scaledSumsAVX(num, den []float64, a, b float64, o []float64)

// residualsFromGatherAVX is residualsFromGatherSSE2 in AVX.
//
//go:noescape
func residualsFromGatherAVX(r, vals, g, x []float64)

// dotAVX is dot in AVX, without the check of the length.
//
//go:noescape
func dotAVX(x, y []float64) float64

// dotsRows4AVX is dotsRows4 in AVX, without the checks of the rows.
//
//go:noescape
func dotsRows4AVX(x, y []float64, o0, o1, o2, o3 int) (d0, d1, d2, d3 float64)
