package bnmf

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
)

// volumePrior is the volume prior of GVG (real) and GVnG (nonnegative) on
// W (M x K):
//
//	p(W) ∝ exp(-Gamma det(W^T W))   [times 1{W >= 0} for GVnG].
//
// With G = W^T W and G_-i = G - w_i w_i^T the Gram matrix of the other
// rows, det(G) = det(G_-i) (1 + w_i^T G_-i^-1 w_i) (the matrix determinant
// lemma), so given the other rows the prior of row i is Gaussian with
// precision 2 Gamma adj(G_-i) = 2 Gamma det(G_-i) G_-i^-1, and entry
// w_ik has precision 2 Gamma adj(G_-i)_kk and linear term
// -2 Gamma sum_{k' != k} adj(G_-i)_kk' w_ik'. That is the exact full
// conditional of w_ik; see GVG for how it differs from upstream's.
//
// The rows are updated in order (sequentialPrior). The prior keeps G,
// G^-1 and log det G, computed afresh by a Cholesky factorisation at the
// start of each pass (O(M K^2 + K^3)), and moves them from row to row by
// rank-one updates (Sherman-Morrison): at natural(i, 0) it removes the old
// row, at updateLine(i, w_i) it adds the new one, O(K^2) each, so the
// prior's share of a sweep is O(M K^2 + K^3) beside the likelihood's
// O(|Omega| K). A removal whose leverage w_i^T G^-1 w_i is within 1e-4 of
// one would lose too many digits, and G_-i is then factorised afresh.
// adj(G_-i) needs G_-i nonsingular, so W needs at least K + 1 rows.
type volumePrior struct {
	k     int
	gamma float64
	// x is the side's factor (W), bound once the chain exists.
	x []float64
	// real marks GVG's prior on the real line; GVnG's is on x >= 0.
	real bool

	g, ginv []float64 // K x K: G and G^-1, of all rows or, between natural(i, 0) and updateLine(i, .), of the rows but i
	logdet  float64   // log det of g
	scale   float64   // 2 Gamma det(G_-i) for the current row
	t       []float64 // K scratch: G^-1 w
	chol    []float64 // K x K scratch for factorisations
}

// errVolumeSingular reports a Gram matrix W^T W that is not positive
// definite.
var errVolumeSingular = errors.New("Gram matrix W^T W is not positive definite")

// volumeRealPrior is GVG's volume prior, on the real line.
type volumeRealPrior struct{ *volumePrior }

func (volumeRealPrior) realValued() {}

var (
	_ sequentialPrior = (*volumePrior)(nil)
	_ realPrior       = volumeRealPrior{}
	_ sequentialPrior = volumeRealPrior{}
)

func newVolumePrior(k int, gamma float64, real bool) *volumePrior {
	return &volumePrior{k: k, gamma: gamma, real: real,
		g: make([]float64, k*k), ginv: make([]float64, k*k), t: make([]float64, k), chol: make([]float64, k*k)}
}

// initLine draws the row from N(0, 1) (GVG) or TN(0, 1) on [0, inf)
// (GVnG), as upstream does: the volume prior is improper for K >= 2
// (det(W^T W) is zero on the unbounded set of rank-deficient W), so it
// cannot be sampled.
func (p *volumePrior) initLine(_ int, x []float64, rng *rand.Rand) int {
	for k := range x {
		v := rng.NormFloat64()
		if !p.real {
			v = math.Abs(v)
		}
		x[k] = v
	}
	return -1
}

// beginPass computes G, G^-1 and log det G from x afresh.
func (p *volumePrior) beginPass(x []float64) error {
	k := p.k
	if len(x)/k < k+1 {
		return fmt.Errorf("the volume prior needs at least K + 1 = %d rows, W has %d", k+1, len(x)/k)
	}
	clear(p.g)
	for i := 0; i < len(x); i += k {
		row := x[i : i+k]
		for a, va := range row {
			ga := p.g[a*k : a*k+k]
			for b := 0; b <= a; b++ {
				ga[b] += va * row[b]
			}
		}
	}
	for a := range k {
		for b := 0; b < a; b++ {
			p.g[b*k+a] = p.g[a*k+b]
		}
	}
	return p.invert()
}

// invert sets ginv and logdet from g by a Cholesky factorisation.
func (p *volumePrior) invert() error {
	k := p.k
	l := p.chol
	copy(l, p.g)
	// Cholesky G = L L^T, L in the lower triangle of l.
	var logdet float64
	for j := range k {
		d := l[j*k+j]
		for q := range j {
			d -= l[j*k+q] * l[j*k+q]
		}
		if !(d > 0) || math.IsInf(d, 0) {
			return errVolumeSingular
		}
		d = math.Sqrt(d)
		l[j*k+j] = d
		logdet += 2 * math.Log(d)
		for i := j + 1; i < k; i++ {
			s := l[i*k+j]
			for q := range j {
				s -= l[i*k+q] * l[j*k+q]
			}
			l[i*k+j] = s / d
		}
	}
	// G^-1 column by column: solve L y = e_c, then L^T x = y.
	inv := p.ginv
	y := p.t
	for c := range k {
		for i := range c {
			y[i] = 0
		}
		for i := c; i < k; i++ {
			s := 0.0
			if i == c {
				s = 1
			}
			for q := c; q < i; q++ {
				s -= l[i*k+q] * y[q]
			}
			y[i] = s / l[i*k+i]
		}
		for i := k - 1; i >= 0; i-- {
			s := y[i]
			for q := i + 1; q < k; q++ {
				s -= l[q*k+i] * inv[q*k+c]
			}
			inv[i*k+c] = s / l[i*k+i]
		}
	}
	p.logdet = logdet
	return nil
}

// rankOne adds sign u u^T to G and updates G^-1 and log det G: with
// t = G^-1 u and h = u^T t, (G + sign u u^T)^-1 = G^-1 - sign t t^T /
// (1 + sign h) and det(G + sign u u^T) = det(G) (1 + sign h). It reports
// false, leaving G^-1 and log det G to be recomputed, when 1 + sign h is
// below 1e-4 (or not a number).
func (p *volumePrior) rankOne(u []float64, sign float64) bool {
	k := p.k
	// Each entry of G and of G^-1 below is updated on its own, so the
	// vector kernel (lineAxpy: one multiplication and one addition per
	// entry, as the scalar loop) gives the same numbers bit for bit.
	for a, va := range u {
		lineAxpy(p.g[a*k:a*k+k], sign*va, u)
	}
	// t = G^-1 u, each entry summed in the order of b; four rows at a
	// time, each with its own sum, so that the four chains of additions
	// overlap: every t[a] and h are the numbers one row at a time gives.
	var h float64
	a := 0
	for ; a+4 <= k; a += 4 {
		r0 := p.ginv[a*k : a*k+k][:len(u)]
		r1 := p.ginv[(a+1)*k : (a+1)*k+k][:len(u)]
		r2 := p.ginv[(a+2)*k : (a+2)*k+k][:len(u)]
		r3 := p.ginv[(a+3)*k : (a+3)*k+k][:len(u)]
		var s0, s1, s2, s3 float64
		for b, vb := range u {
			s0 += r0[b] * vb
			s1 += r1[b] * vb
			s2 += r2[b] * vb
			s3 += r3[b] * vb
		}
		p.t[a], p.t[a+1], p.t[a+2], p.t[a+3] = s0, s1, s2, s3
		h += s0 * u[a]
		h += s1 * u[a+1]
		h += s2 * u[a+2]
		h += s3 * u[a+3]
	}
	for ; a < k; a++ {
		ia := p.ginv[a*k : a*k+k]
		ia = ia[:len(u)]
		var s float64
		for b, vb := range u {
			s += ia[b] * vb
		}
		p.t[a] = s
		h += s * u[a]
	}
	d := 1 + sign*h
	if !(d >= 1e-4) || math.IsInf(d, 0) {
		return false
	}
	f := sign / d
	for a, ta := range p.t {
		// ia[b] -= fa*tb, as ia[b] + (-fa)*tb: the same number.
		lineAxpy(p.ginv[a*k:a*k+k], -(f * ta), p.t)
	}
	p.logdet += math.Log(d)
	return true
}

// natural returns the natural parameters of w_ik given the other rows
// and the row's other entries (see volumePrior). At k = 0 it removes row
// i's old values from G.
func (p *volumePrior) natural(i, k int) (prec, lin float64) {
	row := p.x[i*p.k : (i+1)*p.k]
	if k == 0 {
		if !p.rankOne(row, -1) && p.invert() != nil {
			// G_-i is singular: its adjugate is not computed here, and
			// the non-finite parameters stop the chain with an error.
			p.scale = math.NaN()
		} else {
			p.scale = math.Exp(math.Log(2*p.gamma) + p.logdet)
		}
	}
	ik := p.ginv[k*p.k : (k+1)*p.k]
	ik = ik[:len(row)]
	// The sum over kk != k, in the order of kk, without a test per term.
	var s float64
	for kk, v := range row[:k] {
		s += ik[kk] * v
	}
	for kk := k + 1; kk < len(row); kk++ {
		s += ik[kk] * row[kk]
	}
	return p.scale * ik[k], -p.scale * s
}

// updateLine adds row i's new values to G.
func (p *volumePrior) updateLine(_ int, x []float64, _ *rand.Rand) int {
	if !p.rankOne(x, 1) {
		// Adding a row cannot make 1 + h small; only a non-finite row
		// gets here, and it stops the chain.
		return 0
	}
	return -1
}
