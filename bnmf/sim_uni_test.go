package bnmf

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// Prior simulation for the Geweke and SBC tests of GGGU, GEG, GEEA, GLL
// and GLLI (geweke_uni_test.go, sbc_uni_test.go): an exact sampler of each
// model's joint prior, written from the model's definition with the Geweke
// test's gewekeSampler and without the package's samplers, and the
// reading and writing of a chain's state.

// uniState is one draw of a model's parameters and observed data. hyper
// holds the hyperparameter arrays in the order of uniHyperSlices.
type uniState struct {
	w, zt  []float64
	hyper  [][]float64
	sigma2 float64
	a      []float64 // observed values in row-major order
	// The offsets of a Biased model: mu0 (mu), b, c, tau_b, tau_c; b
	// and c are nil without them.
	mu0, tauB, tauC float64
	b, c            []float64
}

// uniShape is the shape of the matrix, its rank and its number of observed
// entries.
type uniShape struct{ rows, cols, k, observed int }

// newUniState returns a state of model on shape sh.
func newUniState(model Model, sh uniShape) *uniState {
	if bm, ok := model.(Biased); ok {
		st := newUniState(bm.Model, sh)
		st.b, st.c = make([]float64, sh.rows), make([]float64, sh.cols)
		return st
	}
	st := &uniState{
		w:  make([]float64, sh.rows*sh.k),
		zt: make([]float64, sh.cols*sh.k),
		a:  make([]float64, sh.observed),
	}
	switch model.(type) {
	case GLL:
		st.hyper = [][]float64{make([]float64, sh.rows*sh.k), make([]float64, sh.cols*sh.k)}
	case GLLI:
		st.hyper = [][]float64{make([]float64, sh.rows*sh.k), make([]float64, sh.rows*sh.k),
			make([]float64, sh.cols*sh.k), make([]float64, sh.cols*sh.k)}
	case GEEA:
		st.hyper = [][]float64{make([]float64, sh.k)}
	}
	return st
}

func (st *uniState) pred(k, i, j int) float64 {
	var v float64
	if st.b != nil {
		v = st.mu0 + st.b[i] + st.c[j]
	}
	for kk := range k {
		v += st.w[i*k+kk] * st.zt[j*k+kk]
	}
	return v
}

// uniInvGauss draws from IG(mu, shape) by the transformation with
// multiple roots of Michael, Schucany and Haas (1976), in its textbook
// form: independent of invGaussRand's rewritten root, and checked against
// the same closed-form CDF in TestUniInvGauss.
func uniInvGauss(rng *rand.Rand, mu, shape float64) float64 {
	nu := rng.NormFloat64()
	y := nu * nu
	x := mu + mu*mu*y/(2*shape) - mu/(2*shape)*math.Sqrt(4*mu*shape*y+mu*mu*y*y)
	if rng.Float64() <= mu/(mu+x) {
		return x
	}
	return mu * mu / x
}

// TestUniInvGauss checks the test's own inverse-Gaussian sampler.
func TestUniInvGauss(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const n = 20000
	for _, c := range [][2]float64{{math.Sqrt(2), 2}, {4, 16}} {
		u := make([]float64, n)
		for i := range u {
			u[i] = invGaussCDF(uniInvGauss(rng, c[0], c[1]), c[0], c[1])
		}
		if ks, crit := condKS(u), condKSCrit/math.Sqrt(n); !(ks <= crit) {
			t.Errorf("IG(%v, %v): KS %.4f exceeds %.4f", c[0], c[1], ks, crit)
		}
	}
}

// uniDrawParams draws the parameters of model exactly from its joint
// prior (the definitions in the models' doc comments), and for a Biased
// model its offsets after them (drawOffsets).
func uniDrawParams(g gewekeSampler, model Model, k int, st *uniState) {
	if bm, ok := model.(Biased); ok {
		uniDrawParams(g, bm.Model, k, st)
		st.mu0, st.tauB, st.tauC = g.drawOffsets(bm.Offsets, st.b, st.c)
		return
	}
	gauss := func(x []float64, prec float64) {
		for e := range x {
			x[e] = g.rng.NormFloat64() / math.Sqrt(prec)
		}
	}
	expo := func(x []float64, rate func(e int) float64) {
		for e := range x {
			x[e] = g.rng.ExpFloat64() / rate(e)
		}
	}
	// laplace draws x_e ~ N(0, lambda_e) with lambda_e ~ Exp(eta_e/2),
	// storing 1/lambda_e in prec.
	laplace := func(x, prec []float64, eta func(e int) float64) {
		for e := range x {
			lambda := g.rng.ExpFloat64() / (eta(e) / 2)
			prec[e] = 1 / lambda
			x[e] = math.Sqrt(lambda) * g.rng.NormFloat64()
		}
	}
	var lik Likelihood
	switch m := model.(type) {
	case GGGU:
		gauss(st.w, m.Lambda)
		gauss(st.zt, m.Lambda)
		lik = m.Likelihood
	case GEG:
		expo(st.w, func(int) float64 { return m.Lambda })
		gauss(st.zt, m.Lambda)
		lik = m.Likelihood
	case GEEA:
		lambda := st.hyper[0]
		for kk := range lambda {
			lambda[kk] = g.gamma(m.Alpha0, m.Beta0)
		}
		expo(st.w, func(e int) float64 { return lambda[e%k] })
		expo(st.zt, func(e int) float64 { return lambda[e%k] })
		lik = m.Likelihood
	case GLL:
		laplace(st.w, st.hyper[0], func(int) float64 { return m.Eta })
		laplace(st.zt, st.hyper[1], func(int) float64 { return m.Eta })
		lik = m.Likelihood
	case GLLI:
		for s, x := range [][]float64{st.w, st.zt} {
			eta := st.hyper[2*s+1]
			for e := range eta {
				eta[e] = uniInvGauss(g.rng, math.Sqrt(m.B/m.A), m.B)
			}
			laplace(x, st.hyper[2*s], func(e int) float64 { return eta[e] })
		}
		lik = m.Likelihood
	case GL21:
		// Each line: Lambda s^2 is chi-square with K degrees of freedom
		// (a sum of K squared normals) and the line is s times the
		// spacings of K-1 sorted uniforms, a uniform point of the simplex.
		for _, x := range [][]float64{st.w, st.zt} {
			u := make([]float64, k+1)
			for i := 0; i < len(x); i += k {
				var chi2 float64
				for range k {
					n := g.rng.NormFloat64()
					chi2 += n * n
				}
				s := math.Sqrt(chi2 / m.Lambda)
				u[0], u[k] = 0, 1
				for kk := 1; kk < k; kk++ {
					u[kk] = g.rng.Float64()
				}
				slices.Sort(u)
				for kk := range k {
					x[i+kk] = s * (u[kk+1] - u[kk])
				}
			}
		}
		lik = m.Likelihood
	default:
		panic("no prior sampler for " + model.Name())
	}
	st.sigma2 = 1 / g.gamma(lik.AlphaSigma, lik.BetaSigma)
}

// uniWrongARD is GEEA's rate update with a deliberately wrong shape,
// Alpha0 + M instead of Alpha0 + M + N (the entries of Z forgotten): the
// sampler the Geweke and SBC tests must reject.
type uniWrongARD struct {
	ardExponentialLast
	rows int
}

func (p uniWrongARD) updateGlobal(w, zt []float64, rng *rand.Rand) error {
	k := p.k
	for kk := range p.lambda {
		var sum float64
		for i := kk; i < len(w); i += k {
			sum += w[i]
		}
		for j := kk; j < len(zt); j += k {
			sum += zt[j]
		}
		p.lambda[kk] = gammaRand(rng, p.alpha0+float64(p.rows), p.beta0+sum) // wrong: N entries of Z missing
	}
	return nil
}

// uniWrongLaplace is GLL's prior with a deliberately wrong variance
// conditional: 1/v ~ IG(sqrt(2 Eta)/|x|, 2 Eta), the conditional for
// v ~ Exp(Eta) rather than the model's Exp(Eta/2), the slip of reading
// Eta as the rate of the mixing distribution.
type uniWrongLaplace struct{ *laplacePrior }

func (p uniWrongLaplace) updateLine(i int, x []float64, rng *rand.Rand) int {
	for k, xk := range x {
		e := i*p.k + k
		p.prec[e] = invGaussRand(rng, math.Sqrt(2*p.eta)/math.Abs(xk), 2*p.eta) // wrong: Eta, not 2 Eta
	}
	return -1
}

// uniWrongL21 is GL21's prior with a deliberately wrong linear term: the
// coupling -Lambda sum_{k' != k} x_ik' forgotten, as if the prior were
// sum_k x_ik^2 (independent half-normals) rather than (sum_k x_ik)^2.
type uniWrongL21 struct{ *l21Prior }

func (p uniWrongL21) natural(int, int) (prec, lin float64) {
	return p.lambda, 0 // wrong: the line's other entries left out
}

// uniChain returns model's chain on data at rank k or, with mutant, the
// GEEA chain with uniWrongARD (model GEEA), the GLL chain with
// uniWrongLaplace (model GLL), the chain of a model with block draws
// (GEG's ZDraw, GLL's and GLLI's Draw) with uniWrongBlocks, or that of
// such a model with offsets (Biased) with uniBlocksIgnoreOffsets.
func uniChain(t *testing.T, model Model, data *Matrix, k int, mutant bool) *gibbsChain {
	t.Helper()
	c := gibbsChainOf(t, model, data, k)
	if mutant {
		if c.blocks && c.off != nil {
			uniBlocksIgnoreOffsets(c)
			return c
		}
		if c.blocks {
			uniWrongBlocks(c)
			return c
		}
		switch m := model.(type) {
		case GEEA:
			rows, _ := data.Dims()
			last := c.sides[1].prior.(ardExponentialLast)
			c = newGibbsChain(data, k, m.Likelihood, ardExponentialPrior{last.ardRates}, uniWrongARD{last, rows})
		case GLL:
			pw, pz := c.sides[0].prior.(*laplacePrior), c.sides[1].prior.(*laplacePrior)
			c = newGibbsChain(data, k, m.Likelihood, uniWrongLaplace{pw}, uniWrongLaplace{pz})
		case GL21:
			pw, pz := c.sides[0].prior.(*l21Prior), c.sides[1].prior.(*l21Prior)
			c = newGibbsChain(data, k, m.Likelihood, uniWrongL21{pw}, uniWrongL21{pz})
			pw.x, pz.x = c.w, c.zt
		default:
			t.Fatalf("no mutant of %s", model.Name())
		}
	}
	return c
}

// uniChainHyper returns the chain's hyperparameter arrays, as
// uniHyperSlices does, for the mutant too.
func uniChainHyper(c *gibbsChain) [][]float64 {
	if p, ok := c.sides[1].prior.(uniWrongARD); ok {
		return [][]float64{p.lambda}
	}
	if p, ok := c.sides[0].prior.(uniWrongLaplace); ok {
		return [][]float64{p.prec, c.sides[1].prior.(uniWrongLaplace).prec}
	}
	return uniHyperSlices(c)
}

// uniWrite sets the chain's parameters and data to st and refreshes the
// residuals.
func uniWrite(t *testing.T, c *gibbsChain, p *pool, st *uniState, sweep int) {
	t.Helper()
	copy(c.w, st.w)
	copy(c.zt, st.zt)
	condRestoreAll(uniChainHyper(c), st.hyper)
	c.sigma2 = st.sigma2
	if c.off != nil {
		c.off.mu, c.off.tauB, c.off.tauC = st.mu0, st.tauB, st.tauC
		copy(c.off.b, st.b)
		copy(c.off.c, st.c)
	}
	gibbsWriteData(t, c, p, st.a, sweep)
}

// uniRead copies the chain's parameters and data into st.
func uniRead(c *gibbsChain, st *uniState) {
	copy(st.w, c.w)
	copy(st.zt, c.zt)
	condRestoreAll(st.hyper, uniChainHyper(c))
	st.sigma2 = c.sigma2
	if c.off != nil {
		st.mu0, st.tauB, st.tauC = c.off.mu, c.off.tauB, c.off.tauC
		copy(st.b, c.off.b)
		copy(st.c, c.off.c)
	}
	_, _, values := c.data.RowStorage()
	copy(st.a, values)
}
