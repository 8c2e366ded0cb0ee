//go:build !amd64 || noasm || gccgo || safe

package bnmf

import "gonum.org/v1/gonum/floats"

// lineDots returns g . g and g . r, with len(r) >= len(g).
func lineDots(g, r []float64) (gg, gr float64) {
	return floats.Dot(g, g), floats.Dot(g, r[:len(g):len(r)])
}

// lineAxpyDots sets r[q] += alpha*gk[q] for q < len(r), then returns
// gn . gn and gn . r with the updated r, with len(gk), len(gn) >= len(r).
func lineAxpyDots(r []float64, alpha float64, gk, gn []float64) (gg, gr float64) {
	floats.AddScaled(r, alpha, gk[:len(r):len(gk)])
	return lineDots(gn[:len(r):len(gn)], r)
}

// lineAxpy sets r[q] += alpha*gk[q] for q < len(r), with len(gk) >= len(r).
func lineAxpy(r []float64, alpha float64, gk []float64) {
	floats.AddScaled(r, alpha, gk[:len(r):len(gk)])
}

// exactResidualsGathered is exactResiduals; g and r are unused.
func (c *gibbsChain) exactResidualsGathered(side *factorSide, j int, x, _, _ []float64) {
	c.exactResiduals(side, j, x)
}

// residualsFromGather sets r[q] = vals[q] - g_q . x for q < n = len(r),
// where g_q = (g[q], g[n+q], ..., g[(K-1)n+q]) with K = len(x), with each
// dot product computed by floats.Dot.
func residualsFromGather(r, vals, g, x []float64) {
	n := len(r)
	row := make([]float64, len(x))
	for q := range r {
		for kk := range row {
			row[kk] = g[kk*n+q]
		}
		r[q] = vals[q] - floats.Dot(row, x)
	}
}

// gatherRows64 is gatherRows for a float64 factor.
func gatherRows64(g []float64, idx []int32, other []float64, k int) {
	gatherRows(g, idx, other, k)
}

// scaledSums sets num[i] += a*o[i] and den[i] += b*o[i] for i < len(num),
// with len(den), len(o) >= len(num).
func scaledSums(num, den []float64, a, b float64, o []float64) {
	floats.AddScaled(num, a, o[:len(num):len(o)])
	floats.AddScaled(den[:len(num):len(den)], b, o[:len(num):len(o)])
}

// dot returns x . y, with len(y) >= len(x).
func dot(x, y []float64) float64 {
	return floats.Dot(x, y[:len(x):len(y)])
}

// dotsRows4 returns the dot products of x with the four rows
// y[o:o+len(x)] for o = o0, o1, o2, o3, by floats.Dot.
func dotsRows4(x, y []float64, o0, o1, o2, o3 int) (d0, d1, d2, d3 float64) {
	n := len(x)
	return floats.Dot(x, y[o0:o0+n:len(y)]), floats.Dot(x, y[o1:o1+n:len(y)]), floats.Dot(x, y[o2:o2+n:len(y)]), floats.Dot(x, y[o3:o3+n:len(y)])
}
