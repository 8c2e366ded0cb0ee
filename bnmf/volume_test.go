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
