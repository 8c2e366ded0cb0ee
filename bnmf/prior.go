package bnmf

import (
	"math"
	"math/rand/v2"
)

// prior is the prior on the entries of one factor matrix, stored as a
// lines x K row-major array (W as M x K, Z transposed as N x K), together
// with any per-entry hyperparameters it owns. Every prior makes the full
// conditional of an entry a normal truncated to [0, inf), or for a
// realPrior an untruncated normal, so a prior is summarised for the
// factor update by its natural parameters.
type prior interface {
	// initLine draws the hyperparameters of line i from their hyperprior
	// and the line's initial factor values x (len K) from the prior. It
	// returns the index k of the first entry whose hyperparameters came out
	// non-finite or negative, or -1.
	initLine(i int, x []float64, rng *rand.Rand) (bad int)

	// natural returns the natural parameters of the prior of entry (i, k):
	// its density is proportional to exp(-prec x^2/2 + lin x) on x >= 0
	// (on the real line for a realPrior), given its hyperparameters.
	natural(i, k int) (prec, lin float64)

	// updateLine samples the hyperparameters of line i from their full
	// conditionals given the line's factor values x. It returns the index
	// k of the first entry whose hyperparameters came out non-finite or
	// out of their support, or -1.
	updateLine(i int, x []float64, rng *rand.Rand) (bad int)
}

// realPrior is a prior on the whole real line (a Gaussian or a scale
// mixture of Gaussians): the full conditional of an entry is then the
// untruncated normal with the same natural parameters, whose precision
// must be positive.
type realPrior interface {
	prior
	// realValued marks the prior; it is never called.
	realValued()
}

// globalPrior is a prior with hyperparameters shared by the lines of its
// side, or of both sides (GEEA's lambda_k). The chain draws them once per
// sweep, after the side's lines, from one random stream keyed by the sweep
// and the side (phaseGlobal), so that they do not depend on the number of
// workers.
type globalPrior interface {
	prior
	// initGlobal draws the shared hyperparameters from their hyperprior,
	// before any line's initLine.
	initGlobal(rng *rand.Rand) error
	// updateGlobal draws them from their full conditional given the
	// factors w (M x K) and zt (N x K), both row-major. The error says
	// which hyperparameter left its support and why.
	updateGlobal(w, zt []float64, rng *rand.Rand) error
}

// sequentialPrior is a prior that couples the lines of its side (the
// volume prior of GVG and GVnG): the natural parameters of line i depend
// on the current values of the other lines. The chain then updates the
// side's lines one after another in line order, on one worker, each line
// still on the random stream keyed by (sweep, side, line), so that the
// chain does not depend on the number of workers; before the first line
// it calls beginPass with the side's factor (lines x K, row-major). The
// prior may keep state from natural(i, 0) (asked first for each line,
// with the line's old values) to updateLine(i, x) (given its new ones).
type sequentialPrior interface {
	prior
	beginPass(x []float64) error
}

// Compile-time checks that every prior implements prior.
var (
	_ prior = exponentialPrior{}
	_ prior = truncNormalPrior{}
	_ prior = (*hierarchicalPrior)(nil)
)

// exponentialPrior is GEE's prior: x ~ Exp(lambda) (rate lambda), the
// truncated normal with zero precision and linear term -lambda.
type exponentialPrior struct{ lambda float64 }

func (p exponentialPrior) initLine(_ int, x []float64, rng *rand.Rand) int {
	for k := range x {
		x[k] = rng.ExpFloat64() / p.lambda
	}
	return -1
}

func (p exponentialPrior) natural(int, int) (prec, lin float64) { return 0, -p.lambda }

func (exponentialPrior) updateLine(int, []float64, *rand.Rand) int { return -1 }

// truncNormalPrior is GTT's prior: x ~ TN(mu, 1/tau) on [0, inf).
type truncNormalPrior struct{ mu, tau float64 }

func (p truncNormalPrior) initLine(_ int, x []float64, rng *rand.Rand) int {
	for k := range x {
		x[k] = truncNormalNat(rng, p.tau*p.mu, p.tau)
	}
	return -1
}

func (p truncNormalPrior) natural(int, int) (prec, lin float64) { return p.tau, p.tau * p.mu }

func (truncNormalPrior) updateLine(int, []float64, *rand.Rand) int { return -1 }

// hierarchicalPrior is the per-entry hierarchical prior of GTTN
// (withLambda false) and GRRN (withLambda true). Entry (i, k) has its own
// mu, tau and, for GRRN, lambda:
//
//	x ~ RN(mu, 1/tau, lambda) = TN((tau mu - lambda)/tau, 1/tau)
//	mu ~ N(muMu, 1/tauMu), tau ~ Gamma(a, b), lambda ~ Gamma(alphaLambda, betaLambda)
//
// and the full conditionals are the paper's Eqs. (posterior_grrn_mu_tau1),
// (posterior_grrn_tau_tau1) and (posterior_grrn_lambda1), and for GTTN the
// same without lambda (Appendix B.3).
type hierarchicalPrior struct {
	k                       int
	mu, tau, lambda         []float64 // lines x K; lambda nil for GTTN
	muMu, tauMu             float64
	a, b                    float64
	alphaLambda, betaLambda float64
	// The conditionals' gamma shapes, A + 1/2 and AlphaLambda + 1, are
	// fixed; their samplers are set up once.
	tauCond, lambdaCond gammaSampler
}

func newHierarchicalPrior(lines, k int, muMu, tauMu, a, b float64) *hierarchicalPrior {
	return &hierarchicalPrior{
		k:     k,
		mu:    make([]float64, lines*k),
		tau:   make([]float64, lines*k),
		muMu:  muMu,
		tauMu: tauMu,
		a:     a,
		b:     b,
		// a + 0.5 as a float64 sum, as the conditional's shape has
		// always been computed.
		tauCond: newGammaSampler(a + 0.5),
	}
}

func (p *hierarchicalPrior) withLambda(alpha, beta float64) *hierarchicalPrior {
	p.lambda = make([]float64, len(p.mu))
	p.alphaLambda, p.betaLambda = alpha, beta
	p.lambdaCond = newGammaSampler(alpha + 1)
	return p
}

// initLine draws mu, tau (and lambda) independently from their hyperpriors
// and x from the resulting prior, as the paper's Section 5.1 initialises
// "from random draws".
func (p *hierarchicalPrior) initLine(i int, x []float64, rng *rand.Rand) int {
	sdMu := 1 / math.Sqrt(p.tauMu)
	bad := -1
	for k := range x {
		e := i*p.k + k
		mu := p.muMu + sdMu*rng.NormFloat64()
		tau := gammaRand(rng, p.a, p.b)
		lam := 1.0 // stands in for GTTN's absent lambda in the check
		if p.lambda != nil {
			lam = gammaRand(rng, p.alphaLambda, p.betaLambda)
			p.lambda[e] = lam
		}
		p.mu[e], p.tau[e] = mu, tau
		if !hyperFinite(mu, tau, lam) && bad < 0 {
			bad = k
		}
		prec, lin := p.natural(i, k)
		x[k] = truncNormalNat(rng, lin, prec)
	}
	return bad
}

// hyperInSupport reports whether an entry's hyperparameters are finite
// and in their support: mu real, tau > 0 and lambda > 0. The comparisons
// are false for NaN. The conditionals' shapes, A + 1/2 and AlphaLambda + 1,
// keep a draw of 0 out of reach.
func hyperInSupport(mu, tau, lambda float64) bool {
	return isFinite(mu) && tau > 0 && tau <= math.MaxFloat64 && lambda > 0 && lambda <= math.MaxFloat64
}

// hyperFinite reports whether an entry's initial hyperparameters are
// finite, with tau and lambda >= 0. A draw from a hyperprior with a tiny
// shape (A or AlphaLambda of 0.01, say) underflows to 0 now and then; 0
// then stands for a positive value below the smallest float64. It is
// kept: the initial factor drawn from it is checked in turn (a GRRN entry
// with tau = 0 is exponential, a GTTN one improper and reported), and the
// first sweep redraws the hyperparameters from conditionals that cannot
// underflow.
func hyperFinite(mu, tau, lambda float64) bool {
	return isFinite(mu) && tau >= 0 && tau <= math.MaxFloat64 && lambda >= 0 && lambda <= math.MaxFloat64
}

func (p *hierarchicalPrior) natural(i, k int) (prec, lin float64) {
	e := i*p.k + k
	prec, lin = p.tau[e], p.tau[e]*p.mu[e]
	if p.lambda != nil {
		lin -= p.lambda[e]
	}
	return prec, lin
}

// updateLine samples, for each entry, mu given (x, tau), then tau given
// (x, mu), then lambda given x.
func (p *hierarchicalPrior) updateLine(i int, x []float64, rng *rand.Rand) int {
	bad := -1
	for k, xk := range x {
		e := i*p.k + k
		tau := p.tau[e]
		t := tau + p.tauMu
		mu := (tau*xk+p.tauMu*p.muMu)/t + rng.NormFloat64()/math.Sqrt(t)
		d := xk - mu
		tau = p.tauCond.rand(rng, p.b+d*d/2)
		p.mu[e], p.tau[e] = mu, tau
		lam := 1.0 // stands in for GTTN's absent lambda in the check
		if p.lambda != nil {
			lam = p.lambdaCond.rand(rng, p.betaLambda+xk)
			p.lambda[e] = lam
		}
		if !hyperInSupport(mu, tau, lam) && bad < 0 {
			bad = k
		}
	}
	return bad
}

func isFinite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
