package bnmf

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/integrate/quad"
	"gonum.org/v1/gonum/mat"
)

// Full-conditional tests of the row-wise Gaussian models (GGG, GGGA,
// GGGW). A row's conditional is K-dimensional; at K = 2 the draws of
// mvnChain.drawRow are checked along three directions e (the two axes and
// their diagonal): the projection x . e must follow the marginal of the
// unnormalised density written out from the model's definition, obtained
// by integrating it numerically over the orthogonal direction
// (mvnMarginal), and normalised as the scalar conditionals are
// (newCondDensity, condCheck). The diagonal direction catches a wrong
// correlation that the axes alone would miss. The hyperparameter steps
// are checked the same way: GGGA's lambda_k against its one-dimensional
// conditional, and GGGW's Normal-inverse-Wishart step at K = 1, where the
// joint conditional of (mu, lambda) is two-dimensional, along mu and
// lambda.

// mvnLogIntegral returns log of the integral of exp(g) over the real
// line, for g log-concave with its mode in [a, b]: the mode by
// golden-section search (60 steps shrink the bracket by 3e-13), the range
// where g is within condLogDrop of its maximum by doubling and 40
// bisections, and a 16-panel 8-point Gauss-Legendre rule on that range. A
// normal's range then spans 18 standard deviations, a panel about one,
// where the rule's error is below 1e-12 (TestMVNLogIntegral).
func mvnLogIntegral(g func(float64) float64, a, b float64, nodes, weights []float64) float64 {
	const phi = 0.6180339887498949
	l, r := a, b
	m1, m2 := r-phi*(r-l), l+phi*(r-l)
	f1, f2 := g(m1), g(m2)
	for range 60 {
		if f1 < f2 {
			l, m1, f1 = m1, m2, f2
			m2 = l + phi*(r-l)
			f2 = g(m2)
		} else {
			r, m2, f2 = m2, m1, f1
			m1 = r - phi*(r-l)
			f1 = g(m1)
		}
	}
	mode, gm := m1, f1
	if f2 > f1 {
		mode, gm = m2, f2
	}
	cut := gm - condLogDrop
	edge := func(dir float64) float64 {
		step := 1e-2
		for range 80 {
			if g(mode+dir*step) < cut {
				break
			}
			step *= 2
		}
		in, out := mode, mode+dir*step
		for range 40 {
			m := (in + out) / 2
			if g(m) > cut {
				in = m
			} else {
				out = m
			}
		}
		return out
	}
	left, right := edge(-1), edge(1)
	const panels = 16
	h := (right - left) / panels
	var sum float64
	for p := range panels {
		for q, u := range nodes {
			sum += weights[q] * h * math.Exp(g(left+(float64(p)+u)*h)-gm)
		}
	}
	return gm + math.Log(sum)
}

// TestMVNLogIntegral checks mvnLogIntegral against closed forms.
func TestMVNLogIntegral(t *testing.T) {
	nodes, weights := make([]float64, condNodes), make([]float64, condNodes)
	quad.Legendre{}.FixedLocations(nodes, weights, 0, 1)
	cases := []struct {
		name string
		g    func(float64) float64
		want float64
	}{
		{"N(3,0.01^2)", func(x float64) float64 { return -(x - 3) * (x - 3) / (2 * 1e-4) }, math.Log(math.Sqrt(2*math.Pi) * 0.01)},
		{"N(-20,7^2)+5", func(x float64) float64 { return 5 - (x+20)*(x+20)/98 }, 5 + math.Log(math.Sqrt(2*math.Pi)*7)},
		// The density of log X for X ~ Gamma(3, 2): exp(3 y - 2 e^y)
		// integrates to Gamma(3)/2^3.
		{"log-Gamma(3,2)", func(y float64) float64 { return 3*y - 2*math.Exp(y) }, math.Log(2.0 / 8)},
	}
	for _, tc := range cases {
		// Tolerance: quadrature error, far below the Monte Carlo error
		// of the tests that use it.
		if got := mvnLogIntegral(tc.g, -60, 60, nodes, weights); math.Abs(got-tc.want) > 1e-10 {
			t.Errorf("%s: log integral %v, want %v", tc.name, got, tc.want)
		}
	}
}

// mvnMarginal returns the log marginal density (up to a constant) of
// s = x . e under the two-dimensional log density logf, for a unit vector
// e: the integral of exp(logf(s e + t f)) over t, with f orthogonal to e.
func mvnMarginal(logf func(x0, x1 float64) float64, e [2]float64) func(float64) float64 {
	f := [2]float64{-e[1], e[0]}
	nodes, weights := make([]float64, condNodes), make([]float64, condNodes)
	quad.Legendre{}.FixedLocations(nodes, weights, 0, 1)
	return func(s float64) float64 {
		g := func(t float64) float64 { return logf(s*e[0]+t*f[0], s*e[1]+t*f[1]) }
		return mvnLogIntegral(g, -60, 60, nodes, weights)
	}
}

// mvnCondChain builds model's chain on the conditional fixture (K = 2),
// with the fixture's factors, sigma^2 and, for side s, the row prior with
// precision prec and mean mu.
func mvnCondChain(t *testing.T, f *condFixture, model Model, sigma2 float64) (*mvnChain, *pool) {
	t.Helper()
	ch, err := model.newChain(f.data, condK)
	if err != nil {
		t.Fatal(err)
	}
	c, ok := ch.(*mvnChain)
	if !ok {
		t.Fatalf("%s chain is %T, not *mvnChain", model.Name(), ch)
	}
	copy(c.w, f.w)
	copy(c.zt, f.zt)
	c.sigma2, c.invSigma2 = sigma2, 1/sigma2
	p := newPool(1, 1, c.scratchSize())
	t.Cleanup(p.close)
	if err := c.recomputeResiduals(p, 0); err != nil {
		t.Fatal(err)
	}
	return c, p
}

// TestConditionalRowMVN checks the draw of a whole row of W (or column of
// Z) against its full conditional along three directions.
func TestConditionalRowMVN(t *testing.T) {
	f := newCondFixture(t)
	cases := []struct {
		name   string
		model  Model
		side   int
		line   int
		sigma2 float64
		prec   [4]float64 // the row prior's precision Lambda (2 x 2)
		mu     [2]float64 // and mean
	}{
		{"GGG/W0", GGG{Lambda: 0.5}, 0, 0, 0.5, [4]float64{0.5, 0, 0, 0.5}, [2]float64{}},
		{"GGG/W1/negative-row", GGG{Lambda: 0.5}, 0, 1, 0.05, [4]float64{0.5, 0, 0, 0.5}, [2]float64{}},
		{"GGG/W2/unobserved-is-prior", GGG{Lambda: 0.5}, 0, 2, 0.5, [4]float64{0.5, 0, 0, 0.5}, [2]float64{}},
		{"GGG/Z3", GGG{Lambda: 0.5}, 1, 3, 0.5, [4]float64{0.5, 0, 0, 0.5}, [2]float64{}},
		{"GGGA/W0", GGGA{}, 0, 0, 0.5, [4]float64{2.5, 0, 0, 0.3}, [2]float64{}},
		{"GGGW/W0", GGGW{}, 0, 0, 0.5, [4]float64{1.5, -0.6, -0.6, 0.8}, [2]float64{0.7, -0.4}},
		{"GGGW/W2/unobserved-is-prior", GGGW{}, 0, 2, 0.5, [4]float64{1.5, 0.6, 0.6, 0.8}, [2]float64{0.7, -0.4}},
		{"GGGW/Z1/one-entry", GGGW{}, 1, 1, 0.2, [4]float64{1.5, -0.6, -0.6, 0.8}, [2]float64{-0.2, 0.9}},
	}
	dirs := []struct {
		name string
		e    [2]float64
	}{{"x0", [2]float64{1, 0}}, {"x1", [2]float64{0, 1}}, {"diagonal", [2]float64{1 / math.Sqrt2, 1 / math.Sqrt2}}}
	for ci, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, p := mvnCondChain(t, f, tc.model, tc.sigma2)
			copy(c.prec[tc.side], tc.prec[:])
			lin := c.lin[tc.side]
			lin[0] = tc.prec[0]*tc.mu[0] + tc.prec[1]*tc.mu[1]
			lin[1] = tc.prec[2]*tc.mu[0] + tc.prec[3]*tc.mu[1]
			logf := mvnRowLogDensity(f, tc.side, tc.line, tc.sigma2, tc.prec, tc.mu)
			side := &c.sides[tc.side]
			saved, savedResid := slices.Clone(side.x), slices.Clone(c.resid)
			wk := p.workers[0]
			draws := make([][2]float64, condDraws)
			for d := range draws {
				copy(side.x, saved)
				copy(c.resid, savedResid)
				wk.pcg.Seed(uint64(ci)+101, uint64(d))
				if err := c.updateRow(side, tc.side, wk, tc.line); err != nil {
					t.Fatal(err)
				}
				x := side.x[tc.line*condK:]
				draws[d] = [2]float64{x[0], x[1]}
				if d == 0 && tc.side == 1 {
					condCheckResiduals(t, c.gibbsChain)
				}
			}
			for _, dir := range dirs {
				t.Run(dir.name, func(t *testing.T) {
					if testing.Short() && dir.name != "diagonal" {
						t.Skip("each direction integrates numerically for every draw: about a second")
					}
					dens := newCondDensity(t, mvnMarginal(logf, dir.e), math.Inf(-1), -40, 40)
					var chk condCheck
					for _, x := range draws {
						chk.add(dens, x[0]*dir.e[0]+x[1]*dir.e[1])
					}
					chk.assert(t)
				})
			}
		})
	}
}

// mvnRowLogDensity is the unnormalised log full conditional of row line
// of side s at x = (x0, x1), from the model's definition: the Gaussian
// likelihood of the line's observed entries times the row's prior
// N(mu, prec^-1).
func mvnRowLogDensity(f *condFixture, s, line int, sigma2 float64, prec [4]float64, mu [2]float64) func(x0, x1 float64) float64 {
	return func(x0, x1 float64) float64 {
		var lp float64
		for _, en := range f.entries {
			var other []float64
			switch {
			case s == 0 && en.Row == line:
				other = f.zt[en.Col*condK:]
			case s == 1 && en.Col == line:
				other = f.w[en.Row*condK:]
			default:
				continue
			}
			r := en.Value - x0*other[0] - x1*other[1]
			lp -= r * r / (2 * sigma2)
		}
		d0, d1 := x0-mu[0], x1-mu[1]
		return lp - (prec[0]*d0*d0+2*prec[1]*d0*d1+prec[3]*d1*d1)/2
	}
}

// TestConditionalARDLambda checks GGGA's draw of lambda_0 given W and Z
// against its conditional, the Gamma(Alpha0, Beta0) prior times the
// N(0, 1/lambda_0) densities of the first entries of every row of W and Z.
func TestConditionalARDLambda(t *testing.T) {
	f := newCondFixture(t)
	model := GGGA{Alpha0: 2, Beta0: 1.5}
	c, p := mvnCondChain(t, f, model, 0.5)
	ard := c.hyper.(*ardPrior)
	logf := func(l float64) float64 {
		if l <= 0 {
			return math.Inf(-1)
		}
		lp := (model.Alpha0-1)*math.Log(l) - model.Beta0*l
		for _, x := range [][]float64{f.w, f.zt} {
			for i := 0; i < len(x); i += condK {
				lp += math.Log(l)/2 - l*x[i]*x[i]/2
			}
		}
		return lp
	}
	dens := newCondDensity(t, logf, 0, 0, 60)
	wk := p.workers[0]
	var chk condCheck
	for d := range condDraws {
		wk.pcg.Seed(7, uint64(d))
		if err := ard.afterSides(c.w, c.zt, &c.prec, &c.lin, wk.rng); err != nil {
			t.Fatal(err)
		}
		if c.prec[0][0] != ard.lambda[0] || c.prec[1][0] != ard.lambda[0] || c.prec[1][3] != ard.lambda[1] {
			t.Fatalf("row precisions %v, %v do not hold lambda %v", c.prec[0], c.prec[1], ard.lambda)
		}
		chk.add(dens, ard.lambda[0])
	}
	chk.assert(t)
}

// TestConditionalNIW checks GGGW's draw of (mu, lambda) for the rows of W
// at K = 1, where Sigma = 1/lambda, against the unnormalised joint
// conditional
//
//	lambda^((V0-2)/2) exp(-W0 lambda/2)                  Wishart(V0, 1/W0)
//	* lambda^(1/2) exp(-Beta0 lambda (mu - Mu0)^2/2)    N(Mu0, 1/(Beta0 lambda))
//	* prod_i lambda^(1/2) exp(-lambda (w_i - mu)^2/2),
//
// written in eta = log lambda (with the Jacobian lambda), where it is
// log-concave: the draws of eta against its marginal, integrated
// numerically over mu, and each draw of mu against its slice of the joint
// at the drawn eta (a Student-t marginal of mu has tails too heavy for the
// quadrature). The two together are the joint.
func TestConditionalNIW(t *testing.T) {
	data, err := NewMatrix(4, 2, []Entry{{Row: 0, Col: 0, Value: 1}})
	if err != nil {
		t.Fatal(err)
	}
	model := GGGW{Mu0: 0.3, Beta0: 2, V0: 3, W0: 1.5}
	ch, err := model.newChain(data, 1)
	if err != nil {
		t.Fatal(err)
	}
	c := ch.(*mvnChain)
	copy(c.w, []float64{0.9, -0.4, 2.2, 1.1})
	niw := c.hyper.(*niwPrior)
	logf := func(mu, eta float64) float64 {
		l := math.Exp(eta)
		lp := (model.V0-2)/2*eta - model.W0*l/2 + eta/2 - model.Beta0*l*(mu-model.Mu0)*(mu-model.Mu0)/2 + eta
		for _, w := range c.w {
			lp += eta/2 - l*(w-mu)*(w-mu)/2
		}
		return lp
	}
	var muChk, etaChk condCheck
	etaDens := newCondDensity(t, mvnMarginal(logf, [2]float64{0, 1}), math.Inf(-1), -40, 40)
	rng := rand.New(rand.NewPCG(3, 4))
	for range condDraws {
		if err := niw.beforeSide(0, c.w, &c.prec, &c.lin, rng); err != nil {
			t.Fatal(err)
		}
		mu, l := niw.mu[0][0], niw.lambda[0][0]
		if c.prec[0][0] != l || math.Abs(c.lin[0][0]-l*mu) > 1e-12*math.Abs(l*mu) {
			t.Fatalf("row prior (%v, %v) is not (lambda, lambda mu) = (%v, %v)", c.prec[0][0], c.lin[0][0], l, l*mu)
		}
		eta := math.Log(l)
		etaChk.add(etaDens, eta)
		slice := newCondDensity(t, func(m float64) float64 { return logf(m, eta) }, math.Inf(-1), -1e3, 1e3)
		muChk.add(slice, mu)
	}
	t.Run("log-lambda", func(t *testing.T) { etaChk.assert(t) })
	t.Run("mu-given-lambda", func(t *testing.T) { muChk.assert(t) })
}

// TestCholeskyHelpers checks choleskyLower and the triangular solves
// against gonum's Cholesky on a random 7 x 7 positive definite matrix, and
// that an indefinite matrix is reported.
func TestCholeskyHelpers(t *testing.T) {
	const k = 7
	rng := rand.New(rand.NewPCG(1, 1))
	g := mat.NewDense(k, k, nil)
	for i := range k {
		for j := range k {
			g.Set(i, j, rng.NormFloat64())
		}
	}
	var a mat.SymDense
	a.SymOuterK(1, g)
	for i := range k {
		a.SetSym(i, i, a.At(i, i)+0.1)
	}
	l := make([]float64, k*k)
	for i := range k {
		for j := range k {
			l[i*k+j] = a.At(i, j)
			if j > i {
				l[i*k+j] = math.NaN() // the upper triangle must not be read
			}
		}
	}
	if !choleskyLower(l, k) {
		t.Fatal("choleskyLower reports a positive definite matrix as not")
	}
	var ch mat.Cholesky
	if !ch.Factorize(&a) {
		t.Fatal("gonum's Cholesky failed")
	}
	var want mat.TriDense
	ch.LTo(&want)
	// Tolerance: rounding of a 7 x 7 factorisation with condition number
	// of order 1e3.
	const tol = 1e-11
	for i := range k {
		for j := 0; j <= i; j++ {
			if d := math.Abs(l[i*k+j] - want.At(i, j)); d > tol {
				t.Errorf("L[%d][%d] = %v, gonum %v", i, j, l[i*k+j], want.At(i, j))
			}
		}
	}
	b := make([]float64, k)
	for i := range b {
		b[i] = rng.NormFloat64()
	}
	// x = L^-T L^-1 b solves A x = b.
	x := slices.Clone(b)
	solveLower(l, k, x)
	solveLowerT(l, k, x)
	var wantX mat.VecDense
	if err := ch.SolveVecTo(&wantX, mat.NewVecDense(k, slices.Clone(b))); err != nil {
		t.Fatal(err)
	}
	for i := range k {
		if d := math.Abs(x[i] - wantX.AtVec(i)); d > 1e-9*math.Max(1, math.Abs(wantX.AtVec(i))) {
			t.Errorf("solution[%d] = %v, gonum %v", i, x[i], wantX.AtVec(i))
		}
	}
	indefinite := []float64{1, 0, 2, 1} // [[1, 2], [2, 1]] has eigenvalue -1
	if choleskyLower(indefinite, 2) {
		t.Error("choleskyLower accepted an indefinite matrix")
	}
}
