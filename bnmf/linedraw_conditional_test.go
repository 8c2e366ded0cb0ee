package bnmf

import (
	"math"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// Tests of a single block draw of a line (ZDraw and Draw DrawRows)
// against the closed form of its Gaussian conditional; the chains that
// use the block draws are tested in linedraw_test.go.

const (
	// blockCondDraws is the number of draws per case of
	// TestConditionalBlockDraw.
	blockCondDraws = 20000
	// blockCondZ bounds |z| for each of the 63 statistics of a correct
	// draw (a mean or a covariance of 7 cases at K = 3, each near normal
	// at 20000 draws): P(|z| > 4.5) is 6.8e-6 each, below 4.3e-4 for
	// all.
	blockCondZ = 4.5
)

// TestConditionalBlockDraw checks the block draws against the closed form
// of their conditional N(P^-1 b, P^-1), P = diag(prior precisions) +
// G G^T / sigma^2 and b = G a / sigma^2 (G the other factor's lines at the
// observed entries, a their values), computed here with gonum's Cholesky:
// the mean and covariance of 20000 draws through the chain's own line
// update, from a fixed state at K = 3 whose rows of W are nearly
// parallel, so that a column of Z is strongly correlated. A mean's z is
// its error over sqrt(Sigma_aa/n), a covariance's over
// sqrt((Sigma_aa Sigma_bb + Sigma_ab^2)/n), the standard error of a
// Gaussian sample covariance. The same draws with the data's precision
// counted twice (uniWrongBlocks) must give some |z| above gewekeMutantZ.
func TestConditionalBlockDraw(t *testing.T) {
	const k = 3
	data, err := NewMatrix(4, 5, []Entry{
		{Row: 0, Col: 0, Value: 1.2}, {Row: 1, Col: 0, Value: 0.7}, {Row: 2, Col: 0, Value: 2.0}, {Row: 3, Col: 0, Value: -0.4},
		{Row: 0, Col: 1, Value: 0.3}, {Row: 2, Col: 1, Value: 1.1},
		{Row: 1, Col: 2, Value: -0.8},
		{Row: 0, Col: 4, Value: 0.5}, {Row: 1, Col: 4, Value: 1.4}, {Row: 3, Col: 4, Value: 0.9},
	})
	if err != nil {
		t.Fatal(err)
	}
	w := []float64{0.9, 0.85, 0.8, 0.5, 0.55, 0.45, 1.2, 1.1, 1.25, 0.3, 0.35, 0.3}
	zt := []float64{0.4, -0.2, 0.7, 1.1, 0.3, -0.5, -0.6, 0.9, 0.2, 0.1, 0.1, 0.1, 0.8, -0.3, 0.4}
	precW := []float64{1.5, 0.7, 2.0, 1.2, 0.9, 3.0, 0.8, 1.6, 2.2, 0.5, 1.0, 1.3}
	precZ := []float64{0.8, 1.6, 2.2, 0.5, 1.0, 1.3, 0.6, 2.5, 1.2, 0.4, 0.9, 1.7, 0.3, 1.1, 0.7}
	cases := []struct {
		name   string
		model  Model
		side   int
		line   int
		sigma2 float64
	}{
		{"GEG/Z0/correlated", GEG{Lambda: 0.5, ZDraw: DrawRows}, 1, 0, 0.3},
		{"GEG/Z2/one-entry", GEG{Lambda: 0.5, ZDraw: DrawRows}, 1, 2, 0.3},
		{"GEG/Z3/unobserved-is-prior", GEG{Lambda: 0.5, ZDraw: DrawRows}, 1, 3, 0.3},
		{"GLL/W1", GLL{Draw: DrawRows}, 0, 1, 0.2},
		{"GLL/Z4", GLL{Draw: DrawRows}, 1, 4, 0.2},
		{"GLLI/W1", GLLI{Draw: DrawRows}, 0, 1, 0.2},
		{"GLLI/Z4", GLLI{Draw: DrawRows}, 1, 4, 0.2},
		{"GVnG/Z0/correlated", GVnG{ZDraw: DrawRows}, 1, 0, 0.3},
		{"GVG/Z4", GVG{Lambda: 0.5, ZDraw: DrawRows}, 1, 4, 0.3},
	}
	var maxZ, maxWrong float64
	for ci, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := gibbsChainOf(t, tc.model, data, k)
			var wBlocks bool
			switch tc.model.(type) {
			case GLL, GLLI:
				wBlocks = true
			}
			if c.sides[0].block != wBlocks || !c.sides[1].block {
				t.Fatalf("blocks: W %v, Z %v; want Z by blocks and W only for GLL and GLLI", c.sides[0].block, c.sides[1].block)
			}
			copy(c.w, w)
			copy(c.zt, zt)
			prec, etas := [2][]float64{}, [2][]float64{}
			for s, p := range [2][]float64{precW, precZ} {
				if lp, ok := c.sides[s].prior.(*laplacePrior); ok {
					copy(lp.prec, p)
					prec[s] = lp.prec
					if lp.etas != nil {
						// GLLI: each entry's eta, which the draw of the
						// line's variances after its block reads.
						for e := range lp.etas {
							lp.etas[e] = 0.5 + 0.25*float64(e%5)
						}
						etas[s] = lp.etas
					}
				}
			}
			c.sigma2, c.invSigma2 = tc.sigma2, 1/tc.sigma2
			p := newPool(1, 1, c.scratchSize())
			defer p.close()
			if err := c.recomputeResiduals(p, 0); err != nil {
				t.Fatal(err)
			}
			mean, cov := blockClosedForm(t, c, tc.side, tc.line)
			side := &c.sides[tc.side]
			wk := p.workers[0]
			saved, savedEtas := slices.Clone(prec[tc.side]), slices.Clone(etas[tc.side])
			draws := func(update lineFunc) [][]float64 {
				out := make([][]float64, blockCondDraws)
				for d := range out {
					copy(prec[tc.side], saved) // the line's variances as fixed
					copy(etas[tc.side], savedEtas)
					wk.pcg.Seed(uint64(900+ci), uint64(d))
					if err := update(wk, tc.line); err != nil {
						t.Fatal(err)
					}
					out[d] = slices.Clone(side.x[tc.line*k : (tc.line+1)*k])
				}
				return out
			}
			z := blockMomentZ(draws(side.line), mean, cov)
			if tc.side == 1 {
				condCheckResiduals(t, c)
			}
			uniWrongBlocks(c)
			wrong := blockMomentZ(draws(side.line), mean, cov)
			t.Logf("largest |z| %.2f; with the data's precision doubled %.2f", z, wrong)
			if !(z < blockCondZ) {
				t.Errorf("largest |z| of the draws' mean and covariance is %.2f, above %v", z, blockCondZ)
			}
			maxZ, maxWrong = max(maxZ, z), max(maxWrong, wrong)
		})
	}
	t.Logf("over the cases: largest |z| %.2f; with the data's precision doubled %.2f", maxZ, maxWrong)
	if !(maxWrong > gewekeMutantZ) {
		t.Errorf("the doubled precision went undetected: largest |z| %.2f, want > %v", maxWrong, gewekeMutantZ)
	}
}

// blockClosedForm returns the mean and covariance (K x K) of the
// conditional of line i of side s of c, from the chain's state: the
// prior's natural parameters and the data, through gonum.
func blockClosedForm(t *testing.T, c *gibbsChain, s, i int) (mean []float64, cov *mat.SymDense) {
	t.Helper()
	k := c.k
	side := &c.sides[s]
	prec := mat.NewSymDense(k, nil)
	b := mat.NewVecDense(k, nil)
	for a := range k {
		pa, la := side.prior.natural(i, a)
		prec.SetSym(a, a, pa)
		b.SetVec(a, la)
	}
	for _, en := range c.data.Entries() {
		line, other := en.Row, en.Col
		if s == 1 {
			line, other = en.Col, en.Row
		}
		if line != i {
			continue
		}
		g := side.other[other*k : (other+1)*k]
		for a := range k {
			b.SetVec(a, b.AtVec(a)+g[a]*en.Value/c.sigma2)
			for bb := 0; bb <= a; bb++ {
				prec.SetSym(a, bb, prec.At(a, bb)+g[a]*g[bb]/c.sigma2)
			}
		}
	}
	var ch mat.Cholesky
	if !ch.Factorize(prec) {
		t.Fatal("the conditional's precision is not positive definite")
	}
	cov = mat.NewSymDense(k, nil)
	if err := ch.InverseTo(cov); err != nil {
		t.Fatal(err)
	}
	var m mat.VecDense
	m.MulVec(cov, b)
	return m.RawVector().Data, cov
}

// blockMomentZ returns the largest |z| of the sample mean and covariance
// of draws against mean and cov (see TestConditionalBlockDraw).
func blockMomentZ(draws [][]float64, mean []float64, cov *mat.SymDense) float64 {
	k := len(mean)
	n := float64(len(draws))
	xbar := make([]float64, k)
	for _, x := range draws {
		for a, v := range x {
			xbar[a] += v / n
		}
	}
	var worst float64
	for a := range k {
		worst = max(worst, math.Abs(xbar[a]-mean[a])/math.Sqrt(cov.At(a, a)/n))
		for bb := 0; bb <= a; bb++ {
			var s float64
			for _, x := range draws {
				s += (x[a] - xbar[a]) * (x[bb] - xbar[bb])
			}
			s /= n - 1
			want := cov.At(a, bb)
			se := math.Sqrt((cov.At(a, a)*cov.At(bb, bb) + want*want) / n)
			worst = max(worst, math.Abs(s-want)/se)
		}
	}
	return worst
}
