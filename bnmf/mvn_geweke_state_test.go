package bnmf

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/distmat"
)

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
