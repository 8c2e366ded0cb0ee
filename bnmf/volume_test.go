package bnmf

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// Tests of the volume prior of GVG and GVnG. The prior is improper, so
// there is no prior to simulate for Geweke or SBC tests; instead the
// natural parameters are checked against det(W^T W) computed afresh, each
// draw of an entry against its conditional density normalised by
// numerical integration, and a long run of passes over W (Z and sigma^2
// fixed) against exact draws of p(W | Z, sigma^2, A) by rejection.

// gramDet returns det(W^T W) for W (rows x k, row-major), by gonum's LU.
func gramDet(w []float64, k int) float64 {
	wm := mat.NewDense(len(w)/k, k, slices.Clone(w))
	var g mat.Dense
	g.Mul(wm.T(), wm)
	return mat.Det(&g)
}

// TestVolumeNatural checks, row after row as a pass goes, the natural
// parameters of every entry against the quadratic that det(W^T W) is in
// that entry: with f(t) = det(W^T W) at w_ik = t, the prior exp(-Gamma f)
// has precision Gamma (f(1) + f(-1) - 2 f(0)) and linear term
// -Gamma (f(1) - f(-1))/2. Row 3 of W is large, so that removing it leaves
// a leverage near one and the pass takes the refactorising path.
func TestVolumeNatural(t *testing.T) {
	const k, rows, gamma = 3, 6, 0.37
	rng := rand.New(rand.NewPCG(1, 2))
	w := make([]float64, rows*k)
	for e := range w {
		w[e] = rng.NormFloat64()
	}
	for kk := range k {
		w[3*k+kk] *= 1e4
	}
	p := newVolumePrior(k, gamma, true)
	p.x = w
	if err := p.beginPass(w); err != nil {
		t.Fatal(err)
	}
	for i := range rows {
		if i == 3 {
			// Row 3's leverage w_3^T G^-1 w_3 is within 1e-4 of one, so
			// removing it takes the refactorising path.
			wm := mat.NewDense(rows, k, slices.Clone(w))
			var g, gi mat.Dense
			g.Mul(wm.T(), wm)
			if err := gi.Inverse(&g); err != nil {
				t.Fatal(err)
			}
			u := mat.NewVecDense(k, slices.Clone(w[3*k:4*k]))
			if h := mat.Inner(u, &gi, u); !(1-h < 1e-4) {
				t.Fatalf("row 3's leverage is %v, want within 1e-4 of one", h)
			}
		}
		for kk := range k {
			e := i*k + kk
			old := w[e]
			f := func(v float64) float64 { w[e] = v; return gramDet(w, k) }
			f0, f1, fm := f(0), f(1), f(-1)
			w[e] = old
			wantPrec, wantLin := gamma*(f1+fm-2*f0), -gamma*(f1-fm)/2
			prec, lin := p.natural(i, kk)
			// Upstream's precision, Gamma det(A) (1 - r^T A^-1 r) with A
			// the Gram matrix of W without column k and r row i without
			// entry k, is half the prior's. (For the large row 3,
			// 1 - r^T A^-1 r is about 1e-8 and that form loses the
			// digits to cancellation; it is skipped there.)
			if up := upstreamVolumePrec(w, k, i, kk, gamma); i != 3 && math.Abs(prec-2*up) > 1e-6*scaleOf(prec) {
				t.Errorf("row %d entry %d: precision %.10g, want twice upstream's %.10g", i, kk, prec, up)
			}
			// The finite differences of f lose digits to its size: allow
			// a relative error of 1e-6 of the largest term (f at 1e4
			// scale reaches 1e8 times the other terms).
			scale := gamma * (math.Abs(f0) + math.Abs(f1) + math.Abs(fm))
			if math.Abs(prec-wantPrec) > 1e-6*scale || math.Abs(lin-wantLin) > 1e-6*scale {
				t.Errorf("row %d entry %d: natural (%.10g, %.10g), want (%.10g, %.10g)", i, kk, prec, lin, wantPrec, wantLin)
			}
			// A new value, as the chain would draw.
			w[e] = old + 0.5*rng.NormFloat64()
		}
		p.updateLine(i, w[i*k:(i+1)*k], nil)
	}
}

// upstreamVolumePrec is the prior part of upstream's precision for
// w_ik, Gamma det(A) (1 - r^T A^-1 r), with A = W_-k^T W_-k (W without
// column k) and r row i of W without entry k, computed with gonum.
func upstreamVolumePrec(w []float64, k, i, kk int, gamma float64) float64 {
	rows := len(w) / k
	wk := mat.NewDense(rows, k-1, nil)
	for r := range rows {
		c := 0
		for q := range k {
			if q != kk {
				wk.Set(r, c, w[r*k+q])
				c++
			}
		}
	}
	var a, ai mat.Dense
	a.Mul(wk.T(), wk)
	if err := ai.Inverse(&a); err != nil {
		return math.NaN()
	}
	r := mat.NewVecDense(k-1, slices.Clone(wk.RawRowView(i)))
	return gamma * mat.Det(&a) * (1 - mat.Inner(r, &ai, r))
}

func scaleOf(x float64) float64 { return math.Max(math.Abs(x), 1) }

// volumeCondModels are GVG and GVnG with the hyperparameters of the
// conditional tests: Gamma 0.7 makes the prior's precision for the
// fixture's W of order one, comparable with the likelihood's.
func volumeCondModels() []Model {
	return []Model{GVG{Gamma: 0.7, Lambda: 0.8}, GVnG{Gamma: 0.7, Lambda: 0.8}}
}

// TestConditionalVolumeEntry checks the draw of W[i][0] and W[i][1] by
// the chain's own update of row i (after beginPass, as a pass does)
// against the conditional density: the Gaussian likelihood of the row's
// observed entries times exp(-Gamma det(W^T W)), on x >= 0 for GVnG.
func TestConditionalVolumeEntry(t *testing.T) {
	f := newCondFixture(t)
	cases := []struct {
		line   int
		sigma2 float64
	}{{0, 0.5}, {1, 0.05}, {2, 0.5}}
	for mi, model := range volumeCondModels() {
		real := model.Name() == "GVG"
		gamma := 0.7
		for ci, tc := range cases {
			t.Run(fmt.Sprintf("%s/W%d", model.Name(), tc.line), func(t *testing.T) {
				c, p := condChain(t, f, model, tc.sigma2)
				side := &c.sides[0]
				if side.real != real || side.seq == nil {
					t.Fatalf("side W: real %v sequential %v, want %v true", side.real, side.seq != nil, real)
				}
				e := tc.line * condK
				w := slices.Clone(f.w)
				logf := func(v float64) float64 {
					if v < 0 && !real {
						return math.Inf(-1)
					}
					w[e] = v
					lp := -gamma * gramDet(w, condK)
					for _, en := range f.entries {
						if en.Row != tc.line {
							continue
						}
						var pred float64
						for k := range condK {
							pred += w[en.Row*condK+k] * f.zt[en.Col*condK+k]
						}
						r := en.Value - pred
						lp -= r * r / (2 * tc.sigma2)
					}
					return lp
				}
				var dens *condDensity
				if real {
					dens = newCondDensity(t, logf, math.Inf(-1), -40, 40)
				} else {
					dens = newCondDensity(t, logf, 0, 0, 40)
				}
				saved, savedResid := slices.Clone(side.x), slices.Clone(c.resid)
				wk := p.workers[0]
				var chk condCheck
				for d := range condDraws {
					copy(side.x, saved)
					copy(c.resid, savedResid)
					if err := side.seq.beginPass(side.x); err != nil {
						t.Fatal(err)
					}
					wk.pcg.Seed(uint64(600+10*mi+ci), uint64(d))
					if err := c.updateLine(side, wk, tc.line); err != nil {
						t.Fatal(err)
					}
					chk.add(dens, side.x[e])
					if d == 0 {
						condCheckResiduals(t, c)
					}
				}
				chk.assert(t)
			})
		}
	}
}

// volumeTarget is the fixed part of the invariance test: a fully observed
// 4 x 6 matrix, Z (6 x 2, stored transposed) and sigma^2, and the
// Gaussian of each row of W under a flat prior, N(m_i, C) with
// C = sigma^2 (Z^T Z)^-1 and m_i = C Z^T a_i / sigma^2, with chol the
// lower Cholesky factor of C.
type volumeTarget struct {
	data   *Matrix
	zt     []float64
	sigma2 float64
	mean   [][2]float64
	chol   [3]float64 // l00, l10, l11
}

const volumeRows, volumeCols = 4, 6

func newVolumeTarget(t *testing.T) *volumeTarget {
	t.Helper()
	zt := []float64{1.0, 0.2, 0.4, 0.9, 0.8, 0.5, 0.3, 1.1, 0.7, 0.6, 1.2, 0.1}
	wTrue := []float64{0.9, 0.3, 0.2, 1.0, 0.7, 0.6, 1.1, 0.1}
	rng := rand.New(rand.NewPCG(3, 4))
	var entries []Entry
	for i := range volumeRows {
		for j := range volumeCols {
			v := wTrue[2*i]*zt[2*j] + wTrue[2*i+1]*zt[2*j+1] + 0.5*rng.NormFloat64()
			entries = append(entries, Entry{Row: i, Col: j, Value: v})
		}
	}
	data, err := NewMatrix(volumeRows, volumeCols, entries)
	if err != nil {
		t.Fatal(err)
	}
	vt := &volumeTarget{data: data, zt: zt, sigma2: 0.5}
	var g00, g01, g11 float64
	for j := range volumeCols {
		g00 += zt[2*j] * zt[2*j]
		g01 += zt[2*j] * zt[2*j+1]
		g11 += zt[2*j+1] * zt[2*j+1]
	}
	det := g00*g11 - g01*g01
	c00, c01, c11 := vt.sigma2*g11/det, -vt.sigma2*g01/det, vt.sigma2*g00/det
	for i := range volumeRows {
		var b0, b1 float64
		for j := range volumeCols {
			a := entries[i*volumeCols+j].Value
			b0 += zt[2*j] * a / vt.sigma2
			b1 += zt[2*j+1] * a / vt.sigma2
		}
		vt.mean = append(vt.mean, [2]float64{c00*b0 + c01*b1, c01*b0 + c11*b1})
	}
	l00 := math.Sqrt(c00)
	l10 := c01 / l00
	vt.chol = [3]float64{l00, l10, math.Sqrt(c11 - l10*l10)}
	return vt
}

// exact draws W from p(W | Z, sigma^2, A) ∝ prod_i N(w_i | m_i, C)
// exp(-gamma det(W^T W)) [1{W >= 0}] by rejection: the proposal is the
// product of Gaussians and the acceptance probability the rest, which is
// at most one since det(W^T W) >= 0.
func (vt *volumeTarget) exact(rng *rand.Rand, gamma float64, nonneg bool, w []float64) {
	for {
		ok := true
		for i, m := range vt.mean {
			n0, n1 := rng.NormFloat64(), rng.NormFloat64()
			w[2*i] = m[0] + vt.chol[0]*n0
			w[2*i+1] = m[1] + vt.chol[1]*n0 + vt.chol[2]*n1
			if nonneg && (w[2*i] < 0 || w[2*i+1] < 0) {
				ok = false
			}
		}
		if ok && rng.Float64() < math.Exp(-gamma*gram2Det(w)) {
			return
		}
	}
}

// volumeFuncs are the test functions of W: entries, a product and the
// bounded transform of the volume itself.
var volumeFuncs = []struct {
	name string
	f    func(w []float64) float64
}{
	{"W[0][0]", func(w []float64) float64 { return w[0] }},
	{"W[1][1]", func(w []float64) float64 { return w[3] }},
	{"W[3][0]", func(w []float64) float64 { return w[6] }},
	{"W[0][1]*W[2][0]", func(w []float64) float64 { return w[1] * w[4] }},
	{"det/(1+det)", func(w []float64) float64 { d := gram2Det(w); return d / (1 + d) }},
}

// gram2Det returns det(W^T W) for W with two columns, as
// |w_0|^2 |w_1|^2 - (w_0 . w_1)^2.
func gram2Det(w []float64) float64 {
	var a, b, c float64
	for i := 0; i < len(w); i += 2 {
		a += w[i] * w[i]
		b += w[i] * w[i+1]
		c += w[i+1] * w[i+1]
	}
	return a*c - b*b
}

// TestVolumeInvariance runs passes over W (the chain's own sweepInOrder,
// Z and sigma^2 fixed) from an exact draw of p(W | Z, sigma^2, A) and
// compares the means of volumeFuncs along the run (batch means) with
// their means over independent exact draws. A correct pass leaves the
// target invariant; upstream's conditional, that of Gamma/2, must be
// rejected. At |z| < gewekeZLimit for 5 functions a correct sampler fails
// with probability about 3e-5 per model.
func TestVolumeInvariance(t *testing.T) {
	const gamma = 0.3
	// Sizes: the mutants' largest |z| is about 140 at full size and 30
	// under -short.
	nExact, nPasses := 100000, 200000
	if testing.Short() {
		nExact, nPasses = 20000, 40000
	}
	const batches = 50
	vt := newVolumeTarget(t)
	cases := []struct {
		name   string
		model  Model
		nonneg bool
		mutant bool
	}{
		{"GVG", GVG{Gamma: gamma}, false, false},
		{"GVnG", GVnG{Gamma: gamma}, true, false},
		{"GVG/upstream-half-gamma", GVG{Gamma: gamma / 2}, false, true},
		{"GVnG/upstream-half-gamma", GVnG{Gamma: gamma / 2}, true, true},
	}
	for ci, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(700+ci), 1))
			w := make([]float64, 2*volumeRows)
			nf := len(volumeFuncs)
			sum, sum2 := make([]float64, nf), make([]float64, nf)
			for range nExact {
				vt.exact(rng, gamma, tc.nonneg, w)
				for q, fn := range volumeFuncs {
					v := fn.f(w)
					sum[q] += v
					sum2[q] += v * v
				}
			}
			ch, err := tc.model.newChain(vt.data, 2)
			if err != nil {
				t.Fatal(err)
			}
			c := ch.(*gibbsChain)
			copy(c.zt, vt.zt)
			vt.exact(rng, gamma, tc.nonneg, c.w)
			c.sigma2, c.invSigma2 = vt.sigma2, 1/vt.sigma2
			p := newPool(1, uint64(800+ci), c.scratchSize())
			defer p.close()
			if err := c.recomputeResiduals(p, 0); err != nil {
				t.Fatal(err)
			}
			batch := nPasses / batches
			bsum := make([][]float64, nf)
			for q := range bsum {
				bsum[q] = make([]float64, batches)
			}
			for s := range batch * batches {
				if err := c.sweepInOrder(p, &c.sides[0], s+1, 0); err != nil {
					t.Fatal(err)
				}
				for q, fn := range volumeFuncs {
					bsum[q][s/batch] += fn.f(c.w)
				}
			}
			var maxZ float64
			for q, fn := range volumeFuncs {
				n := float64(nExact)
				em := sum[q] / n
				ese := math.Sqrt((sum2[q] - sum[q]*em) / (n - 1) / n)
				var bs, bs2 float64
				for _, v := range bsum[q] {
					m := v / float64(batch)
					bs += m
					bs2 += m * m
				}
				cm := bs / batches
				cse := math.Sqrt((bs2 - bs*cm) / (batches - 1) / batches)
				z := (cm - em) / math.Hypot(ese, cse)
				t.Logf("%-16s exact %.4f±%.4f chain %.4f±%.4f z=%+.2f", fn.name, em, ese, cm, cse, z)
				maxZ = max(maxZ, math.Abs(z))
				if !tc.mutant && !(math.Abs(z) < gewekeZLimit) {
					t.Errorf("%s: chain mean %.4f and exact mean %.4f differ by z = %.2f (limit %v)", fn.name, cm, em, z, gewekeZLimit)
				}
			}
			if tc.mutant && !(maxZ > gewekeMutantZ) {
				t.Errorf("upstream's conditional went undetected: largest |z| is %.2f, want > %v", maxZ, gewekeMutantZ)
			}
		})
	}
}

// TestVolumeTooFewRows checks that a W with K rows or fewer, whose
// Gram matrix without one row is singular, is refused with an error that
// says why, not a non-finite draw.
func TestVolumeTooFewRows(t *testing.T) {
	train, _, _ := planted(t, 3, 8, 2, 0.9, 0.1, 1)
	for _, model := range []Model{GVG{}, GVnG{}} {
		_, err := Run(context.Background(), model, train, Settings{Rank: 3, Sweeps: 2, Seed: 1})
		if err == nil || !strings.Contains(err.Error(), "at least K + 1 = 4 rows, W has 3") {
			t.Errorf("%s: error %v, want one saying W needs at least K + 1 rows", model.Name(), err)
		}
	}
}

// BenchmarkVolumeRow measures the volume prior's own work for one row of W
// at K = 50: G over the other rows (a rank-one downdate), the natural
// parameters of the K entries and the rank-one update with the row's
// values, without the likelihood's part of the line update.
func BenchmarkVolumeRow(b *testing.B) {
	const k, rows = 50, 400
	rng := rand.New(rand.NewPCG(3, 4))
	p := newVolumePrior(k, 1, true)
	p.x = make([]float64, rows*k)
	for i := range p.x {
		p.x[i] = rng.NormFloat64()
	}
	if err := p.beginPass(p.x); err != nil {
		b.Fatal(err)
	}
	var sink float64
	i := 0
	for b.Loop() {
		for kk := range k {
			prec, lin := p.natural(i, kk)
			sink += prec + lin
		}
		if p.updateLine(i, p.x[i*k:(i+1)*k], nil) >= 0 {
			b.Fatal("rank-one update failed")
		}
		i = (i + 1) % rows
	}
	if math.IsNaN(sink) {
		b.Fatal("natural parameters are not numbers")
	}
}
