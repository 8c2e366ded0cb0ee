package bnmf

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestConditionalOffsets checks the offsets' conditionals against their
// densities normalised by numerical integration: a line's offset (b_i or
// c_j) given its residuals, including a line with no entries, whose
// conditional is the prior; mu given all residuals; tau_b given b and
// tau_c given c. Each case draws condDraws times from the same state,
// with the uniformity of the probability integral transforms and the
// mean checked as in TestConditionalFactorEntry.
func TestConditionalOffsets(t *testing.T) {
	t.Run("line", func(t *testing.T) {
		cases := []struct {
			name      string
			r         []float64
			old, tau  float64
			invSigma2 float64
		}{
			{"four-entries", []float64{0.3, -1.2, 0.8, 2.1}, 0.4, 2, 1 / 0.5},
			{"one-entry-precise", []float64{-0.7}, -0.1, 0.5, 1 / 0.05},
			{"many-entries-weak-prior", []float64{1, 1.5, 0.2, 0.9, 1.1, 1.3, 0.7, 0.4}, 2, 0.01, 1},
			{"no-entries-is-the-prior", nil, 0.9, 3, 1},
		}
		for ci, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				logf := func(x float64) float64 {
					l := -tc.tau * x * x / 2
					for _, v := range tc.r {
						d := v + tc.old - x
						l -= tc.invSigma2 * d * d / 2
					}
					return l
				}
				dens := newCondDensity(t, logf, math.Inf(-1), -40, 40)
				rng := rand.New(rand.NewPCG(uint64(ci), 7))
				r := make([]float64, len(tc.r))
				var chk condCheck
				for range condDraws {
					copy(r, tc.r)
					x := tc.old
					v := drawLineOffset(r, &x, tc.tau, tc.invSigma2, rng)
					if x != v {
						t.Fatalf("drawLineOffset returned %v but stored %v", v, x)
					}
					for q := range r {
						// The residuals move by the change of the offset.
						if want := tc.r[q] - (v - tc.old); math.Abs(r[q]-want) > 1e-12 {
							t.Fatalf("residual %d is %v after the draw, want %v", q, r[q], want)
						}
					}
					chk.add(dens, v)
				}
				chk.assert(t)
			})
		}
	})

	// mu, tau_b, tau_c: a chain's state after a few sweeps, its exact
	// residuals recomputed and their column sums stored, as the Z update
	// leaves them.
	train, _, _, _ := plantedBiased(t, 12, 15, 2, 0.5, 11)
	model := Biased{Model: GRRN{}, Offsets: Offsets{M0: 2.5, TauMu: 0.5, AlphaB: 2, BetaB: 0.3, AlphaC: 1.5, BetaC: 0.8}}
	ch, err := model.newChain(train, 2)
	if err != nil {
		t.Fatal(err)
	}
	c := ch.(*gibbsChain)
	p := newPool(1, 3, c.scratchSize())
	defer p.close()
	if err := c.init(p); err != nil {
		t.Fatal(err)
	}
	for s := 1; s <= 3; s++ {
		if err := c.sweep(p, s); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.recomputeResiduals(p, 0); err != nil {
		t.Fatal(err)
	}
	o := c.off
	clear(o.colSum)
	for q, e := range train.Entries() {
		o.colSum[e.Col] += c.resid[q]
	}
	c.invSigma2 = 1 / c.sigma2
	mu0 := o.mu
	var sumE float64
	for _, v := range c.resid {
		sumE += v + mu0
	}
	n := float64(len(c.resid))
	sumB2, sumC2 := sumSquares(o.b), sumSquares(o.c)
	m, nc := train.Dims()
	gammaLog := func(shape, rate float64) func(float64) float64 {
		return func(x float64) float64 {
			if x <= 0 {
				return math.Inf(-1)
			}
			return (shape-1)*math.Log(x) - rate*x
		}
	}
	dens := []*condDensity{
		// mu: N(M0, 1/TauMu) times prod_q N(e_q | mu, sigma^2), written
		// out entry by entry.
		newCondDensity(t, func(x float64) float64 {
			l := -o.TauMu * (x - o.M0) * (x - o.M0) / 2
			for _, v := range c.resid {
				d := v + mu0 - x
				l -= c.invSigma2 * d * d / 2
			}
			return l
		}, math.Inf(-1), mu0-20, mu0+20),
		// tau_b: Gamma(AlphaB, BetaB) times prod_i N(b_i | 0, 1/tau).
		newCondDensity(t, func(x float64) float64 {
			return gammaLog(o.AlphaB, o.BetaB)(x) + float64(m)/2*math.Log(x) - x*sumB2/2
		}, 0, 0, 200),
		newCondDensity(t, func(x float64) float64 {
			return gammaLog(o.AlphaC, o.BetaC)(x) + float64(nc)/2*math.Log(x) - x*sumC2/2
		}, 0, 0, 200),
	}
	t.Logf("mu conditional mean %.4f from %d entries; tau_b %.3f, tau_c %.3f", dens[0].mean, int(n), dens[1].mean, dens[2].mean)
	var chk [3]condCheck
	for d := range condDraws {
		o.mu = mu0
		if err := c.drawShared(p, 1000+d); err != nil {
			t.Fatal(err)
		}
		if o.shift != o.mu-mu0 {
			t.Fatalf("shift %v, want the change of mu %v", o.shift, o.mu-mu0)
		}
		for i, v := range []float64{o.mu, o.tauB, o.tauC} {
			chk[i].add(dens[i], v)
		}
	}
	for i, name := range []string{"mu", "tau_b", "tau_c"} {
		t.Run(name, func(t *testing.T) { chk[i].assert(t) })
	}
}
