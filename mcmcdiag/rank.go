package mcmcdiag

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/mathext"
)

// ranked is one draw and its position, sorted to find ranks.
type ranked struct {
	v float64
	i int
}

// blomOffset is the c of Blom's (1958) normal scores (r - c)/(S - 2c + 1),
// the fractional offset posterior's z_scale uses for rank normalisation.
const blomOffset = 3.0 / 8

// rankNormalize writes into dst (grown as needed) the rank-normalised
// draws of d: every draw is replaced by its rank r among all S draws of all
// chains (ties get their average rank), then by the standard normal
// quantile of (r - 3/8)/(S + 1/4). It reports false, leaving dst unset, if
// d holds a NaN, where posterior's z_scale gives NA.
func (w *Workspace) rankNormalize(dst []float64, d matrix) (matrix, bool) {
	if hasNaN(d.x) {
		return matrix{}, false
	}
	s := len(d.x)
	if cap(w.pairs) < s {
		w.pairs = make([]ranked, s)
	}
	p := w.pairs[:s]
	for i, v := range d.x {
		p[i] = ranked{v: v, i: i}
	}
	slices.SortFunc(p, func(a, b ranked) int {
		// No NaN is left, so plain comparisons order the draws.
		switch {
		case a.v < b.v:
			return -1
		case a.v > b.v:
			return 1
		}
		return 0
	})
	dst = grow(dst, s)
	denom := float64(s) - 2*blomOffset + 1
	for a := 0; a < s; {
		b := a + 1
		for b < s && p[b].v == p[a].v {
			b++
		}
		// Positions a..b-1 (0-based) share ranks a+1..b; their average:
		r := float64(a+1+b) / 2
		z := mathext.NormalQuantile((r - blomOffset) / denom)
		for k := a; k < b; k++ {
			dst[p[k].i] = z
		}
		a = b
	}
	return matrix{x: dst, m: d.m, n: d.n}, true
}

// sortedCopy writes into dst (grown as needed) the values of x in
// increasing order. x must not hold a NaN.
func sortedCopy(dst, x []float64) []float64 {
	dst = grow(dst, len(x))
	copy(dst, x)
	slices.Sort(dst)
	return dst
}

// median returns the median of the sorted values s, the mean of the two
// middle values when len(s) is even, as R's median.
func median(s []float64) float64 {
	k := len(s) / 2
	if len(s)%2 == 1 {
		return s[k]
	}
	a, b := s[k-1], s[k]
	m := (a + b) / 2
	if math.IsInf(m, 0) && !math.IsInf(a, 0) && !math.IsInf(b, 0) {
		m = a/2 + b/2 // a+b overflowed
	}
	return m
}

// quantile7 returns the p-quantile of the sorted values s by R's default
// definition (type 7): linear interpolation between order statistics at
// 1 + (len(s)-1)*p. The arithmetic follows R's quantile.default step by
// step (and the explicit conversions stop fused multiply-adds) so that the
// result is bit-identical, since draws are later compared with it.
func quantile7(s []float64, p float64) float64 {
	index := 1 + float64(float64(len(s)-1)*p)
	lo := math.Floor(index)
	hi := math.Ceil(index)
	q := s[int(lo)-1]
	if index > lo && s[int(hi)-1] != q {
		h := index - lo
		q = float64((1-h)*q) + float64(h*s[int(hi)-1])
	}
	return q
}

// fold writes |x - med| into dst (grown as needed) for every draw of d:
// posterior's fold_draws, which turns spread into location so that R-hat
// can see chains that differ in scale.
func fold(dst []float64, d matrix, med float64) matrix {
	dst = grow(dst, len(d.x))
	for i, v := range d.x {
		dst[i] = math.Abs(v - med)
	}
	return matrix{x: dst, m: d.m, n: d.n}
}

// indicator writes 1 into dst (grown as needed) where a draw of d is at
// most q and 0 elsewhere: the draws whose split-ESS is the ESS of the
// quantile q.
func indicator(dst []float64, d matrix, q float64) matrix {
	dst = grow(dst, len(d.x))
	for i, v := range d.x {
		if v <= q {
			dst[i] = 1
		} else {
			dst[i] = 0
		}
	}
	return matrix{x: dst, m: d.m, n: d.n}
}
