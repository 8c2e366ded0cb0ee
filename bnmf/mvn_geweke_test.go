package bnmf

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/distmat"
	"gonum.org/v1/gonum/stat/distuv"
)

// Joint-distribution tests (Geweke 2004; see geweke_test.go) of the
// row-wise Gaussian models. The marginal-conditional simulator draws the
// parameters from the prior with gonum's distributions (distuv.Gamma,
// distmat.Wishart, distmv.Normal), independently of the package's
// Cholesky and Bartlett code, and the data given them.

// mvnState is one draw of the parameters and the observed data of a
// row-wise Gaussian model on a rows x cols matrix at rank k: the factors,
// GGGA's lambda (k), GGGW's mean (k) and precision (k x k) of each side,
// sigma^2 and the observed values in row-major order.
type mvnState struct {
	rows, cols, k int
	w, zt         []float64
	lambda        []float64
	mu, prec      [2][]float64
	sigma2        float64
	a             []float64
	// The offsets of a Biased model (b and c nil without them).
	mu0, tauB, tauC float64
	b, c            []float64
}

func newMVNState(rows, cols, k, observed int) *mvnState {
	st := &mvnState{rows: rows, cols: cols, k: k,
		w: make([]float64, rows*k), zt: make([]float64, cols*k),
		lambda: make([]float64, k), a: make([]float64, observed)}
	for s := range st.mu {
		st.mu[s] = make([]float64, k)
		st.prec[s] = make([]float64, k*k)
	}
	return st
}

func (st *mvnState) pred(i, j int) float64 {
	var v float64
	if st.b != nil {
		v = st.mu0 + st.b[i] + st.c[j]
	}
	for kk := range st.k {
		v += st.w[i*st.k+kk] * st.zt[j*st.k+kk]
	}
	return v
}

// mvnDrawParams draws the parameters of model exactly from its prior.
func mvnDrawParams(t testing.TB, g gewekeSampler, model Model, st *mvnState) {
	if bm, ok := model.(Biased); ok {
		mvnDrawParams(t, g, bm.Model, st)
		if st.b == nil {
			st.b, st.c = make([]float64, st.rows), make([]float64, st.cols)
		}
		st.mu0, st.tauB, st.tauC = g.drawOffsets(bm.Offsets, st.b, st.c)
		return
	}
	k := st.k
	var lik Likelihood
	switch m := model.(type) {
	case GGG:
		lik = m.Likelihood
		for _, x := range [2][]float64{st.w, st.zt} {
			for e := range x {
				x[e] = g.rng.NormFloat64() / math.Sqrt(m.Lambda)
			}
		}
	case GGGA:
		lik = m.Likelihood
		for a := range st.lambda {
			st.lambda[a] = g.gamma(m.Alpha0, m.Beta0)
		}
		for _, x := range [2][]float64{st.w, st.zt} {
			for e := range x {
				x[e] = g.rng.NormFloat64() / math.Sqrt(st.lambda[e%k])
			}
		}
	case GGGW:
		lik = m.Likelihood
		// Sigma ~ InvWishart(V0, W0 I) is Lambda = Sigma^-1 ~
		// Wishart(V0, I/W0).
		scale := mat.NewSymDense(k, nil)
		for a := range k {
			scale.SetSym(a, a, 1/m.W0)
		}
		wish, ok := distmat.NewWishart(scale, m.V0, g.src)
		if !ok {
			t.Fatal("Wishart scale is not positive definite")
		}
		for s, x := range [2][]float64{st.w, st.zt} {
			var lam mat.SymDense
			wish.RandSymTo(&lam)
			var sigma mat.SymDense
			var ch mat.Cholesky
			if !ch.Factorize(&lam) {
				t.Fatal("drawn precision is not positive definite")
			}
			if err := ch.InverseTo(&sigma); err != nil {
				t.Fatal(err)
			}
			mu0 := make([]float64, k)
			for a := range mu0 {
				mu0[a] = m.Mu0
			}
			// Normal draws mean + C e with Sigma = C C^T (gonum's
			// Cholesky of Sigma) and e standard normal.
			var sc mat.Cholesky
			if !sc.Factorize(&sigma) {
				t.Fatal("drawn covariance is not positive definite")
			}
			var c mat.TriDense
			sc.LTo(&c)
			normal := func(dst, mean []float64, scale float64) {
				e := mat.NewVecDense(k, nil)
				for a := range k {
					e.SetVec(a, g.rng.NormFloat64())
				}
				e.MulVec(&c, e)
				for a := range k {
					dst[a] = mean[a] + scale*e.AtVec(a)
				}
			}
			mu := make([]float64, k)
			normal(mu, mu0, 1/math.Sqrt(m.Beta0))
			for i := 0; i < len(x); i += k {
				normal(x[i:i+k], mu, 1)
			}
			copy(st.mu[s], mu)
			for a := range k {
				for b := range k {
					st.prec[s][a*k+b] = lam.At(a, b)
				}
			}
		}
	default:
		t.Fatalf("no prior sampler for %T", model)
	}
	st.sigma2 = 1 / g.gamma(lik.AlphaSigma, lik.BetaSigma)
}

// mvnWrite sets the chain's parameters to st and its data to st.a, and
// refreshes the residuals.
func mvnWrite(t testing.TB, c *mvnChain, p *pool, st *mvnState, sweep int) {
	copy(c.w, st.w)
	copy(c.zt, st.zt)
	switch h := c.hyper.(type) {
	case isotropicPrior:
		if err := h.init(&c.prec, &c.lin, nil); err != nil { // fixed: no draw
			t.Fatal(err)
		}
	case *ardPrior:
		copy(h.lambda, st.lambda)
		if err := h.set(&c.prec); err != nil {
			t.Fatal(err)
		}
	case *niwPrior:
		for s := range h.mu {
			copy(h.mu[s], st.mu[s])
			copy(h.lambda[s], st.prec[s])
			h.setRowPrior(s, &c.prec, &c.lin)
		}
	case mvnUncentredNIW:
		for s := range h.mu {
			copy(h.mu[s], st.mu[s])
			copy(h.lambda[s], st.prec[s])
			h.setRowPrior(s, &c.prec, &c.lin)
		}
	}
	c.sigma2 = st.sigma2
	if c.off != nil {
		c.off.mu, c.off.tauB, c.off.tauC = st.mu0, st.tauB, st.tauC
		copy(c.off.b, st.b)
		copy(c.off.c, st.c)
	}
	mvnWriteData(t, c, p, st, sweep)
}

func mvnWriteData(t testing.TB, c *mvnChain, p *pool, st *mvnState, sweep int) {
	c.data = c.data.WithValues(st.a)
	if err := c.recomputeResiduals(p, sweep); err != nil {
		t.Fatal(err)
	}
}

// mvnRead copies the chain's parameters into st.
func mvnRead(c *mvnChain, st *mvnState) {
	copy(st.w, c.w)
	copy(st.zt, c.zt)
	switch h := c.hyper.(type) {
	case *ardPrior:
		copy(st.lambda, h.lambda)
	case *niwPrior:
		for s := range h.mu {
			copy(st.mu[s], h.mu[s])
			copy(st.prec[s], h.lambda[s])
		}
	case mvnUncentredNIW:
		for s := range h.mu {
			copy(st.mu[s], h.mu[s])
			copy(st.prec[s], h.lambda[s])
		}
	}
	st.sigma2 = c.sigma2
	if c.off != nil {
		st.mu0, st.tauB, st.tauC = c.off.mu, c.off.tauB, c.off.tauC
		copy(st.b, c.off.b)
		copy(st.c, c.off.c)
	}
}

// mvnUncentredNIW is GGGW's hyperprior with the reference code's scale
// matrix: Psi_n with the uncentred sum_i x_i x_i^T, that is with
// n xbar xbar^T added to the conjugate one. The sampler the tests must
// reject.
type mvnUncentredNIW struct{ *niwPrior }

func (p mvnUncentredNIW) beforeSide(s int, x []float64, prec, lin *[2][]float64, rng *rand.Rand) error {
	n := p.conditional(x)
	k := p.k
	xbar := make([]float64, k)
	for i := range n {
		for a := range k {
			xbar[a] += x[i*k+a] / float64(n)
		}
	}
	for a := range k {
		for b := 0; b <= a; b++ {
			p.psi[a*k+b] += float64(n) * xbar[a] * xbar[b]
		}
	}
	return p.draw(s, n, prec, lin, rng)
}

func (p mvnUncentredNIW) init(prec, lin *[2][]float64, rng *rand.Rand) error {
	for s := range p.mu {
		if err := p.beforeSide(s, nil, prec, lin, rng); err != nil {
			return err
		}
	}
	return nil
}

// mvnTestChain returns model's chain on data at rank k, or with mutant
// GGGW's chain with the reference code's uncentred scale matrix.
func mvnTestChain(t testing.TB, model Model, data *Matrix, k int, mutant bool) *mvnChain {
	ch, err := model.newChain(data, k)
	if err != nil {
		t.Fatal(err)
	}
	c, ok := ch.(*mvnChain)
	if !ok {
		t.Fatalf("%s chain is %T, not *mvnChain", model.Name(), ch)
	}
	if mutant {
		c.hyper = mvnUncentredNIW{c.hyper.(*niwPrior)}
	}
	return c
}

// mvnFunc is a bounded test function of a draw of a row-wise Gaussian
// model, or a quantity ranked by TestSBCRowwise.
type mvnFunc = stateFunc[mvnState]

func mvnGewekeFuncs(model Model, sigmaMedian float64) []mvnFunc {
	ratio := func(v float64) float64 { return v / (1 + math.Abs(v)) }
	if bm, ok := model.(Biased); ok {
		return append(mvnGewekeFuncs(bm.Model, sigmaMedian),
			mvnFunc{"mu", func(s *mvnState) float64 { return ratio(s.mu0) }},
			mvnFunc{"b[0]", func(s *mvnState) float64 { return ratio(s.b[0]) }},
			mvnFunc{"c[2]", func(s *mvnState) float64 { return ratio(s.c[2]) }},
			mvnFunc{"tau_b", func(s *mvnState) float64 { return ratio(s.tauB) }},
			mvnFunc{"tau_c", func(s *mvnState) float64 { return ratio(s.tauC) }},
			mvnFunc{"b[1]*W[1][0]", func(s *mvnState) float64 { return ratio(s.b[1] * s.w[s.k]) }},
		)
	}
	k := gewekeK
	fs := []mvnFunc{
		{"W[0][0]", func(s *mvnState) float64 { return ratio(s.w[0]) }},
		{"W[0][0]^2", func(s *mvnState) float64 { return ratio(s.w[0] * s.w[0]) }},
		{"W[0][0]W[0][1]", func(s *mvnState) float64 { return ratio(s.w[0] * s.w[1]) }},
		{"W[2][1]", func(s *mvnState) float64 { return ratio(s.w[2*k+1]) }},
		{"Z[1][1]^2", func(s *mvnState) float64 { return ratio(s.zt[k+1] * s.zt[k+1]) }},
		{"Z[1][0]Z[1][1]", func(s *mvnState) float64 { return ratio(s.zt[k] * s.zt[k+1]) }},
		{"1{sigma2<median}", func(s *mvnState) float64 {
			if s.sigma2 < sigmaMedian {
				return 1
			}
			return 0
		}},
		{"pred(0,0) observed", func(s *mvnState) float64 { return ratio(s.pred(0, 0)) }},
		{"pred(1,1)^2 unobserved", func(s *mvnState) float64 { return ratio(s.pred(1, 1) * s.pred(1, 1)) }},
		{"a(2,2)^2", func(s *mvnState) float64 { return ratio(s.a[len(s.a)-1] * s.a[len(s.a)-1]) }},
	}
	switch model.(type) {
	case GGGA:
		fs = append(fs,
			mvnFunc{"lambda[0]", func(s *mvnState) float64 { return ratio(s.lambda[0]) }},
			mvnFunc{"lambda[1]", func(s *mvnState) float64 { return ratio(s.lambda[1]) }},
		)
	case GGGW:
		fs = append(fs,
			mvnFunc{"muW[0]", func(s *mvnState) float64 { return ratio(s.mu[0][0]) }},
			mvnFunc{"muZ[1]", func(s *mvnState) float64 { return ratio(s.mu[1][1]) }},
			mvnFunc{"LambdaW[0][0]", func(s *mvnState) float64 { return ratio(s.prec[0][0]) }},
			mvnFunc{"LambdaW[0][1]", func(s *mvnState) float64 { return ratio(s.prec[0][1]) }},
			mvnFunc{"LambdaZ[1][1]", func(s *mvnState) float64 { return ratio(s.prec[1][k*k-1]) }},
		)
	}
	return fs
}

// mvnGewekeMarginal runs the marginal-conditional simulator.
func mvnGewekeMarginal(t *testing.T, model Model, fs []mvnFunc, n int, seed uint64) (mean, se []float64) {
	g := newGewekeSampler(seed)
	st := newMVNState(gewekeRows, gewekeCols, gewekeK, len(gewekeObserved()))
	return gewekeMarginalMoments(fs, st, n, func() {
		mvnDrawParams(t, g, model, st)
		mvnDrawData(g, st)
	})
}

// mvnDrawData draws every observed entry of the Geweke matrix from
// N(w_i . z_j, sigma^2).
func mvnDrawData(g gewekeSampler, st *mvnState) {
	sd := math.Sqrt(st.sigma2)
	for q, ij := range gewekeObserved() {
		st.a[q] = st.pred(ij[0], ij[1]) + sd*g.rng.NormFloat64()
	}
}

// mvnGewekeSuccessive runs the successive-conditional simulator from an
// exact prior draw, with batch-means standard errors.
func mvnGewekeSuccessive(t *testing.T, model Model, mutant bool, fs []mvnFunc, n int, seed uint64) (mean, se []float64) {
	g := newGewekeSampler(seed)
	st := newMVNState(gewekeRows, gewekeCols, gewekeK, len(gewekeObserved()))
	mvnDrawParams(t, g, model, st)
	mvnDrawData(g, st)
	data := observedMatrix(t, gewekeRows, gewekeCols, gewekeObserved(), st.a)
	c := mvnTestChain(t, model, data, gewekeK, mutant)
	p := newPool(1, seed, c.scratchSize())
	defer p.close()
	mvnWrite(t, c, p, st, 0)
	return gewekeBatchMoments(fs, st, n, func(s int) {
		if err := c.sweep(p, s); err != nil {
			t.Fatal(err)
		}
		mvnRead(c, st)
		mvnDrawData(g, st)
		mvnWriteData(t, c, p, st, s)
	})
}

// mvnGewekeModels returns the row-wise Gaussian models with the
// hyperparameters of the joint-distribution and calibration tests, chosen
// so that factors and hyperparameters stay of order one: GGG Lambda 2;
// GGGA Alpha0 = 3, Beta0 = 4 (lambda of mean 0.75 whose inverse has a
// mean); GGGW Mu0 0.2, Beta0 2, V0 5 (K + 3, so that Sigma has a mean),
// W0 2; sigma^2 ~ InvGamma(3, 2) for all.
func mvnGewekeModels() []Model {
	return []Model{
		GGG{Lambda: 2, Likelihood: gewekeLik()},
		GGGA{Alpha0: 3, Beta0: 4, Likelihood: gewekeLik()},
		GGGW{Mu0: 0.2, Beta0: 2, V0: 5, W0: 2, Likelihood: gewekeLik()},
	}
}

// TestGewekeRowwise compares the two simulators for GGG, GGGA and GGGW on
// the Geweke test's 3 x 3 matrix at K = 2, and shows on GGGW with the
// reference code's uncentred Normal-inverse-Wishart scale matrix that the
// comparison has power. Sizes, limits and their reasons are those of
// TestGewekeJointDistribution; there are 74 comparisons here (37 of them
// for GGG and GGGW with offsets), for a false alarm probability below
// 3e-3. It takes about 7 s, and runs under
// -short too: it is the one test of every step of a sweep together.
func TestGewekeRowwise(t *testing.T) {
	skipUnderRace(t)
	models := mvnGewekeModels()
	cases := []struct {
		name   string
		model  Model
		mutant bool
	}{
		{"GGG", models[0], false},
		{"GGGA", models[1], false},
		{"GGGW", models[2], false},
		{"GGGW/uncentred-scale", models[2], true},
		{"GGG+b", Biased{Model: models[0], Offsets: gewekeOffsets()}, false},
		{"GGGW+b", Biased{Model: models[2], Offsets: gewekeOffsets()}, false},
	}
	const nMarginal, nSuccessive = 100000, 200000
	for ci, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			lik := gewekeLik()
			median := 1 / distuvGammaQuantile(lik.AlphaSigma, lik.BetaSigma, 0.5)
			fs := mvnGewekeFuncs(tc.model, median)
			mm, ms := mvnGewekeMarginal(t, tc.model, fs, nMarginal, uint64(2*ci+101))
			sm, ss := mvnGewekeSuccessive(t, tc.model, tc.mutant, fs, nSuccessive, uint64(2*ci+102))
			gewekeCompare(t, stateFuncNames(fs), mm, ms, sm, ss, tc.mutant, "the uncentred scale matrix")
		})
	}
}

// distuvGammaQuantile returns the p-quantile of Gamma(shape, rate).
func distuvGammaQuantile(shape, rate, p float64) float64 {
	return distuv.Gamma{Alpha: shape, Beta: rate}.Quantile(p)
}
