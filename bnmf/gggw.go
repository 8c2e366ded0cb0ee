package bnmf

import (
	"fmt"
	"math"
	"math/rand/v2"
)

var _ Model = GGGW{}

// GGGW is Bayesian probabilistic matrix factorisation (Salakhutdinov and
// Mnih 2008), GGG with Normal-inverse-Wishart hyperpriors on the mean and
// covariance of the rows of W and, separately, of Z (Brouwer and Lio 2017,
// "GGGW"):
//
//	w_i ~ N(mu_W, Sigma_W), (mu_W, Sigma_W) ~ NIW(Mu0 1, Beta0, V0, W0 I),
//
// that is Sigma_W ~ InvWishart(V0, W0 I) (V0 degrees of freedom, scale
// matrix W0 I) and mu_W | Sigma_W ~ N(Mu0 1, Sigma_W/Beta0), and the same
// for Z, with the Gaussian likelihood and sigma^2 prior of GGG. Before
// each side's rows are drawn, its (mu, Sigma) is drawn from the full
// conditional NIW(mu_n, Beta0 + n, V0 + n, Psi_n) given the side's n rows
// x_i with mean xbar:
//
//	mu_n = (Beta0 Mu0 1 + n xbar)/(Beta0 + n),
//	Psi_n = W0 I + sum_i (x_i - xbar)(x_i - xbar)^T
//	        + Beta0 n/(Beta0 + n) (xbar - Mu0 1)(xbar - Mu0 1)^T.
//
// The reference code's Psi_n has the uncentred sum_i x_i x_i^T in place
// of the centred one, which is not the full conditional (it adds
// n xbar xbar^T); this package uses the conjugate update above, which its
// joint-distribution test checks. With HyperDraw set to HyperUpstream
// (hyper_draw: upstream in a study config) it uses the reference code's
// Psi_n, to reproduce upstream's chains: that chain samples no stated
// posterior, so it is for comparisons with upstream only. Rows are drawn
// as in GGG, at the same cost, plus O((M + N) K^2 + K^3) per sweep for
// the hyperparameters.
type GGGW struct {
	// Mu0 is every entry of the hyperprior's mean vector (default 0).
	Mu0 float64
	// Beta0 scales the covariance of mu: mu | Sigma ~ N(Mu0 1,
	// Sigma/Beta0). Zero means 1.
	Beta0 float64
	// V0 is the inverse-Wishart's degrees of freedom; it must exceed
	// K - 1. Zero means K, the reference's default.
	V0 float64
	// W0 is the diagonal of the inverse-Wishart's scale matrix W0 I. Zero
	// means 1.
	W0 float64
	// HyperDraw chooses the scatter in Psi_n: HyperExact (the zero
	// value), centred, as the full conditional has it, or HyperUpstream,
	// uncentred, as the reference code has it.
	HyperDraw HyperDraw
	Likelihood
}

// Name returns "GGGW".
func (GGGW) Name() string { return "GGGW" }

func gggwSpec() Spec {
	return Spec{
		Name: "GGGW", Zero: GGGW{}, RealValued: true,
		Doc: "Gaussian priors with Normal-inverse-Wishart hyperpriors on the rows' mean and covariance (BPMF; Salakhutdinov and Mnih 2008)",
		Params: append([]Param{
			{Key: "mu0", Field: "Mu0", Support: Real, Default: "0", Doc: "each entry of the Normal-inverse-Wishart's mean vector"},
			{Key: "beta0", Field: "Beta0", Support: Positive, Default: "1", Doc: "the mean's covariance is Sigma/beta0"},
			{Key: "v0", Field: "V0", Support: Positive, Default: "K", Doc: "degrees of freedom of the inverse-Wishart; above K - 1"},
			{Key: "w0", Field: "W0", Support: Positive, Default: "1", Doc: "the inverse-Wishart's scale matrix is w0 times the identity"},
			choiceParam("hyper_draw", "HyperDraw",
				"how each side's mean and covariance are drawn: exact, from their full conditional, or upstream, with the reference code's uncentred scatter (not the conditional of the model; for comparisons with upstream only)",
				HyperExact.String(), HyperUpstream.String()),
		}, likelihoodParams()...),
	}
}

func (g GGGW) newChain(train *Matrix, k int) (chain, error) {
	lik, err := g.Likelihood.resolved("GGGW")
	if err != nil {
		return nil, err
	}
	beta0, v0, w0 := orDefault(g.Beta0, 1), orDefault(g.V0, float64(k)), orDefault(g.W0, 1)
	if !isFinite(g.Mu0) {
		return nil, fmt.Errorf("bnmf: GGGW.Mu0 is %v; it must be finite", g.Mu0)
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"Beta0", beta0}, {"V0", v0}, {"W0", w0}} {
		if err := positive("GGGW", f.name, f.v); err != nil {
			return nil, err
		}
	}
	if !(v0 > float64(k-1)) {
		return nil, fmt.Errorf("bnmf: GGGW.V0 is %v; at rank %d it must exceed %d", v0, k, k-1)
	}
	if err := checkChoice(g.HyperDraw, "GGGW", "HyperDraw", "HyperExact", "HyperUpstream"); err != nil {
		return nil, err
	}
	prior := newNIWPrior(k, g.Mu0, beta0, v0, w0)
	prior.uncentred = g.HyperDraw == HyperUpstream
	return newMVNChain(train, k, lik, prior), nil
}

// niwPrior is GGGW's prior: N(mu_s, Lambda_s^-1) on the rows of side s,
// with (mu_s, Lambda_s^-1) ~ NIW(mu0 1, beta0, v0, w0 I).
type niwPrior struct {
	k                   int
	mu0, beta0, v0, w0  float64
	mu, lambda          [2][]float64 // each side's mean (K) and precision (K x K)
	mean, psi, bt, chol []float64    // scratch: K, K x K, K x K, K x K
	dev                 []float64    // scratch: a row's deviation from the centre (K)
	// uncentred sums the rows' uncentred scatter into Psi_n, as the
	// reference code does (HyperUpstream): the scatter about zeros (K
	// zeros) in place of the rows' mean.
	uncentred bool
	zeros     []float64
}

func newNIWPrior(k int, mu0, beta0, v0, w0 float64) *niwPrior {
	p := &niwPrior{k: k, mu0: mu0, beta0: beta0, v0: v0, w0: w0,
		mean: make([]float64, k), psi: make([]float64, k*k), bt: make([]float64, k*k), chol: make([]float64, k*k),
		zeros: make([]float64, k), dev: make([]float64, k)}
	for s := range p.mu {
		p.mu[s] = make([]float64, k)
		p.lambda[s] = make([]float64, k*k)
	}
	return p
}

// init draws each side's (mu, Sigma) from the hyperprior.
func (p *niwPrior) init(prec, lin *[2][]float64, rng *rand.Rand) error {
	for s := range p.mu {
		if err := p.beforeSide(s, nil, prec, lin, rng); err != nil {
			return err
		}
	}
	return nil
}

// beforeSide draws side s's (mu, Sigma) from its full conditional given
// the side's rows x (none at initialisation); see conditional and draw.
func (p *niwPrior) beforeSide(s int, x []float64, prec, lin *[2][]float64, rng *rand.Rand) error {
	return p.draw(s, p.conditional(x), prec, lin, rng)
}

// conditional sets p.mean to mu_n and the lower triangle of p.psi to
// Psi_n of the full conditional given the rows x (see GGGW) and returns
// the number n of rows. The sums run in row order.
func (p *niwPrior) conditional(x []float64) int {
	k := p.k
	n := len(x) / k
	fn := float64(n)
	// mean: xbar; psi: the centred scatter.
	clear(p.mean)
	clear(p.psi)
	for i := range n {
		for a, v := range x[i*k : (i+1)*k] {
			p.mean[a] += v
		}
	}
	if n > 0 {
		for a := range p.mean {
			p.mean[a] /= fn
		}
	}
	// The scatter about the centre: the rows' mean, or zeros (x - 0 is
	// x exactly, so the uncentred sums are row[a] * row[b]).
	centre := p.mean
	if p.uncentred {
		centre = p.zeros
	}
	// Each row's deviations once, then per a the axpy of row a of the
	// lower triangle (lineAxpy: the rounded product d_b d_a, then the
	// rounded sum, the numbers of the loop psi[a][b] += d_a d_b).
	d := p.dev
	for i := range n {
		row := x[i*k : (i+1)*k]
		for b := range k {
			d[b] = row[b] - centre[b]
		}
		for a := range k {
			lineAxpy(p.psi[a*k:a*k+a+1], d[a], d[:a+1])
		}
	}
	shrink := p.beta0 * fn / (p.beta0 + fn)
	for a := range k {
		da := p.mean[a] - p.mu0
		for b := 0; b <= a; b++ {
			p.psi[a*k+b] += shrink * da * (p.mean[b] - p.mu0)
		}
		p.psi[a*k+a] += p.w0
	}
	for a := range p.mean {
		p.mean[a] = (p.beta0*p.mu0 + fn*p.mean[a]) / (p.beta0 + fn)
	}
	return n
}

// draw draws side s's hyperparameters from NIW(p.mean, beta0 + n, v0 + n,
// p.psi): the precision Lambda = Sigma^-1 ~ Wishart(v0 + n, Psi_n^-1) by
// Bartlett's decomposition (drawWishart), then
// mu ~ N(mu_n, (beta_n Lambda)^-1), and sets the side's row prior to the
// precision Lambda and the linear term Lambda mu. It does not allocate.
func (p *niwPrior) draw(s, n int, prec, lin *[2][]float64, rng *rand.Rand) error {
	k := p.k
	betaN, vN := p.beta0+float64(n), p.v0+float64(n)
	if err := p.drawWishart(s, vN, rng); err != nil {
		return err
	}
	// mu = mu_n + (beta_n Lambda)^-1/2 e: with Lambda = R R^T, R^-T e
	// has covariance Lambda^-1.
	lam, mu := p.lambda[s], p.mu[s]
	for a := range k {
		copy(p.chol[a*k:a*k+a+1], lam[a*k:a*k+a+1])
	}
	if !choleskyLower(p.chol, k) {
		return fmt.Errorf("the drawn precision of %s is not positive definite: %w", sideName(s), ErrNonFinite)
	}
	for a := range mu {
		mu[a] = rng.NormFloat64()
	}
	solveLowerT(p.chol, k, mu)
	sd := 1 / math.Sqrt(betaN)
	for a := range mu {
		mu[a] = p.mean[a] + sd*mu[a]
		if !isFinite(mu[a]) {
			return fmt.Errorf("mu of %s[%d] is %v: %w", sideName(s), a, mu[a], ErrNonFinite)
		}
	}
	p.setRowPrior(s, prec, lin)
	return nil
}

// setRowPrior sets side s's row prior from its mu and Lambda.
func (p *niwPrior) setRowPrior(s int, prec, lin *[2][]float64) {
	k := p.k
	lam, mu := p.lambda[s], p.mu[s]
	copy(prec[s], lam)
	l := lin[s]
	for a := range k {
		var v float64
		for b := range k {
			v += lam[a*k+b] * mu[b]
		}
		l[a] = v
	}
}

// drawWishart sets lambda[s] to a draw from Wishart(v, Psi^-1) (v degrees
// of freedom, scale matrix Psi^-1, mean v Psi^-1) for the Psi whose lower
// triangle is in p.psi, by Bartlett's decomposition (Bartlett 1933; Odell
// and Feiveson 1966): with Psi = L L^T and A lower triangular with
// A_aa^2 ~ chi^2(v - a) (a counted from 0) and A_ab ~ N(0, 1) below the
// diagonal, B = L^-T A gives Lambda = B B^T ~ Wishart(v, L^-T L^-1). The
// chi-square draws are Gamma((v - a)/2, 1/2). It does not allocate, where
// gonum's distmat.Wishart allocates a triangular matrix for every draw;
// the tests draw from gonum's to check this one.
func (p *niwPrior) drawWishart(s int, v float64, rng *rand.Rand) error {
	k := p.k
	if !choleskyLower(p.psi, k) {
		return fmt.Errorf("the scale matrix of %s's Wishart conditional is not positive definite: %w", sideName(s), ErrNonFinite)
	}
	// bt holds A^T, then B^T row by row (row b of B^T is column b of A
	// solved with L^T).
	clear(p.bt)
	for a := range k {
		p.bt[a*k+a] = math.Sqrt(gammaRand(rng, (v-float64(a))/2, 0.5))
		for b := 0; b < a; b++ {
			p.bt[b*k+a] = rng.NormFloat64() // A_ab, column b of A
		}
	}
	for b := range k {
		solveLowerT(p.psi, k, p.bt[b*k:(b+1)*k])
	}
	lam := p.lambda[s]
	for a := range k {
		for c := 0; c <= a; c++ {
			var sum float64
			for b := range k {
				sum += p.bt[b*k+a] * p.bt[b*k+c]
			}
			if !isFinite(sum) {
				return fmt.Errorf("precision of %s[%d][%d] is %v: %w", sideName(s), a, c, sum, ErrNonFinite)
			}
			lam[a*k+c], lam[c*k+a] = sum, sum
		}
	}
	return nil
}

func (*niwPrior) afterSides([]float64, []float64, *[2][]float64, *[2][]float64, *rand.Rand) error {
	return nil
}

// sideName names side s for error messages.
func sideName(s int) string { return [2]string{"W", "Z"}[s] }

// HyperDraw chooses how GGGW draws each side's mean and covariance.
type HyperDraw int

const (
	// HyperExact draws them from their full conditional, the
	// Normal-inverse-Wishart with the rows' centred scatter. It is the
	// zero value.
	HyperExact HyperDraw = iota
	// HyperUpstream puts the rows' uncentred scatter in its place, as the
	// reference code does: not a conditional of the model.
	HyperUpstream
)

// String returns the draw's name, as a study config spells it: "exact"
// or "upstream".
func (d HyperDraw) String() string { return choiceName(d, "HyperDraw", "exact", "upstream") }

// UnmarshalText sets d from its name, as String returns it.
func (d *HyperDraw) UnmarshalText(text []byte) error {
	c, err := parseChoice[HyperDraw](text, "hyperparameter draw", HyperExact.String(), HyperUpstream.String())
	if err == nil {
		*d = c
	}
	return err
}
