package bnmf

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/integrate/quad"
	"gonum.org/v1/gonum/stat/distuv"
)

// The Poisson models' split and line update against their definitions:
// the split against the multinomial by exhaustive sums, a row's update
// against its conditional integrated numerically.

// TestPoissonSplit checks splitCount against the multinomial distribution
// by summing over every outcome: Pearson's chi-square of the tallies of
// 200,000 splits of one count, against the multinomial masses, must not
// reject at 1e-4 (a correct split fails with that probability per case).
// A category of weight zero must never be drawn.
func TestPoissonSplit(t *testing.T) {
	cases := []struct {
		name string
		p    []float64
		y    int
	}{
		{"K=1", []float64{2.5}, 3},
		{"K=3", []float64{0.2, 0.5, 0.3}, 4},
		{"K=4/zero-weight", []float64{0.1, 0, 1.3, 0.6}, 3},
		{"K=5/unequal", []float64{1e-3, 0.4, 2, 0.05, 0.7}, 2},
		{"K=20", []float64{0.3, 1, 0.2, 0.7, 0.05, 1.5, 0.4, 0.9, 0.6, 0, 0.8, 1.1, 0.25, 0.5, 2, 0.35, 0.45, 0.1, 1.2, 0.65}, 2},
	}
	const n = 200000
	for ci, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			k := len(c.p)
			cum := make([]float64, k)
			var total float64
			for kk, v := range c.p {
				total += v
				cum[kk] = total
			}
			zero := slices.Index(c.p, 0)
			src := rand.NewPCG(uint64(ci), 9)
			counts := map[string]int{}
			tally, tally2 := make([]float64, k), make([]float64, k)
			for range n {
				clear(tally)
				clear(tally2)
				splitCount(src, cum, c.y, tally, tally2)
				if !slices.Equal(tally, tally2) {
					t.Fatalf("the two tallies differ: %v, %v", tally, tally2)
				}
				if zero >= 0 && tally[zero] != 0 {
					t.Fatal("a category of weight zero was drawn")
				}
				counts[fmt.Sprint(tally)]++
			}
			// Every outcome with positive mass: compositions of y into k
			// parts.
			// Outcomes expected fewer than 5 times are pooled into one
			// bin, as Pearson's approximation needs.
			var stat, restGot, restWant float64
			outcomes, matched := 0, 0
			var walk func(kk, left int, x []float64)
			walk = func(kk, left int, x []float64) {
				if kk == k-1 {
					x[kk] = float64(left)
					logp, _ := math.Lgamma(float64(c.y) + 1)
					for l, v := range x {
						lg, _ := math.Lgamma(v + 1)
						if c.p[l] == 0 {
							if v > 0 {
								return
							}
							continue
						}
						logp += v*math.Log(c.p[l]/total) - lg
					}
					want := n * math.Exp(logp)
					got, ok := counts[fmt.Sprint(x)]
					if ok {
						matched++
					}
					if want < 5 {
						restGot += float64(got)
						restWant += want
						return
					}
					stat += (float64(got) - want) * (float64(got) - want) / want
					outcomes++
					return
				}
				for v := 0; v <= left; v++ {
					x[kk] = float64(v)
					walk(kk+1, left-v, x)
				}
			}
			walk(0, c.y, make([]float64, k))
			if matched != len(counts) {
				t.Errorf("%d of the %d outcomes drawn are impossible", len(counts)-matched, len(counts))
			}
			if restWant > 0 {
				stat += (restGot - restWant) * (restGot - restWant) / restWant
				outcomes++
			}
			if outcomes == 1 {
				return
			}
			p := distuv.ChiSquared{K: float64(outcomes - 1)}.Survival(stat)
			t.Logf("%d outcomes, chi2 = %.2f, p = %.3g", outcomes, stat, p)
			if !(p > 1e-4) {
				t.Errorf("chi2(%d) = %.2f, p = %.3g: the split is not multinomial", outcomes-1, stat, p)
			}
		})
	}
}

// TestPoissonConditionalLine checks the update of one row of W, with Z
// fixed, against the conditional of that row given Z and the data with
// the split integrated out. The update (split, then the factors given
// it) is a data-augmentation step that leaves this conditional invariant,
// not a direct draw from it, so each of condDraws (1000 under -short)
// independent chains runs
// 40 updates from w = 1 and its last value is compared with the
// conditional's marginal, found by integrating the joint density over the
// row's other unknown with a 200-point Gauss-Legendre rule on [0, 30]
// (the densities there are below e^-40 of their peaks). PGG at K = 2 checks w_00 (integrating
// over w_01); PGGG at K = 1 checks w_00 and the row's rate h_0 (each
// integrating over the other).
func TestPoissonConditionalLine(t *testing.T) {
	// Row 0 has counts 3, 0 and 5; row 1 one count.
	entries := []Entry{{Row: 0, Col: 0, Value: 3}, {Row: 0, Col: 1, Value: 0}, {Row: 0, Col: 2, Value: 5}, {Row: 1, Col: 0, Value: 1}}
	data, err := NewMatrix(2, 3, entries)
	if err != nil {
		t.Fatal(err)
	}
	zt := map[int][]float64{
		2: {0.8, 0.3, 0.5, 1.2, 1.5, 0.6},
		1: {0.8, 0.5, 1.5},
	}
	cases := []struct {
		name  string
		model Model
		k     int
		h     bool // check h_0 rather than w_00
	}{
		{"PGG/w00", PGG{A: 1.5, B: 2}, 2, false},
		{"PGGG/w00", PGGG{A: 1.5, APrime: 2, BPrime: 1.5}, 1, false},
		{"PGGG/h0", PGGG{A: 1.5, APrime: 2, BPrime: 1.5}, 1, true},
	}
	for ci, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a, b, _, ap, bp := poissonHyper(tc.model)
			z := zt[tc.k]
			// logJoint is the log density of (u, v) given Z and row 0's
			// counts: u, v are (w_00, w_01) for PGG and (w_00, h_0) for
			// PGGG.
			logJoint := func(u, v float64) float64 {
				if u <= 0 || v <= 0 {
					return math.Inf(-1)
				}
				w := []float64{u, v}
				rate := b
				if tc.k == 1 {
					w, rate = []float64{u}, v
				}
				var lp float64
				for _, e := range entries[:3] {
					var mu float64
					for kk := range tc.k {
						mu += w[kk] * z[e.Col*tc.k+kk]
					}
					lp += e.Value*math.Log(mu) - mu
				}
				for _, x := range w {
					lp += a*math.Log(rate) + (a-1)*math.Log(x) - rate*x
				}
				if tc.k == 1 {
					lp += (ap-1)*math.Log(v) - ap/bp*v
				}
				return lp
			}
			marginal := func(x float64) float64 {
				f := func(y float64) float64 {
					if tc.h {
						return math.Exp(logJoint(y, x))
					}
					return math.Exp(logJoint(x, y))
				}
				return math.Log(quad.Fixed(f, 0, 30, 200, nil, 0))
			}
			dens := newCondDensity(t, marginal, 0, 0, 25)
			ch, err := tc.model.newChain(data, tc.k)
			if err != nil {
				t.Fatal(err)
			}
			c := ch.(*poissonChain)
			copy(c.zt, z)
			p := newPool(1, 1, c.scratchSize())
			defer p.close()
			wk := p.workers[0]
			side := &c.sides[0]
			draws := condDraws
			if testing.Short() {
				draws = 1000
			}
			var chk condCheck
			for d := range draws {
				for kk := range tc.k {
					c.w[kk] = 1
				}
				if side.h != nil {
					side.h[0] = 1
				}
				for step := range 40 {
					wk.pcg.Seed(streamSeed(uint64(ci), d, step, 0))
					if err := c.updateLine(side, wk, 0); err != nil {
						t.Fatal(err)
					}
				}
				x := c.w[0]
				if tc.h {
					x = side.h[0]
				}
				chk.add(dens, x)
			}
			chk.assert(t)
		})
	}
}
