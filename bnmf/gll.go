package bnmf

import (
	"math"
	"math/rand/v2"
)

var _ Model = GLL{}

// GLL is the Gaussian likelihood with Laplace priors on W and Z (Brouwer
// and Lio 2017), sampled through the Laplace distribution's representation
// as a scale mixture of normals (Andrews and Mallows 1974; Park and
// Casella 2008), as the upstream sampler does:
//
//	x_ik | lambda_ik ~ N(0, lambda_ik),  lambda_ik ~ Exp(Eta/2) (rate),
//
// so that, marginally, x_ik is Laplace with rate sqrt(Eta) (density
// sqrt(Eta)/2 exp(-sqrt(Eta) |x|)), for x = w and x = z. By default
// (Draw DrawEntries) every entry is drawn from its one-dimensional normal
// full conditional, with precision
// 1/lambda_ik + sum z^2/sigma^2, and then its variance from
//
//	1/lambda_ik | x_ik ~ IG(sqrt(Eta)/|x_ik|, Eta)
//
// (inverse Gaussian with mean and shape). These are the conditionals of
// the upstream code; its initialisation, which draws x from a Laplace
// with scale Eta and lambda from Exp(Eta), does not match them, and here
// both are drawn from the prior above. The factors are real.
//
// With Draw set to DrawRows (draw: rows in a study config), each row w_i
// of W and each column z_n of Z is drawn as a block from its
// K-dimensional normal full conditional given the variances, as
// upstream's sampler draws them, and the line's variances then as above:
//
//	w_i | Z, sigma^2, lambda ~ N(P^-1 b, P^-1),
//	P = diag(1/lambda_i1, ..., 1/lambda_iK) + sum_n z_n z_n^T / sigma^2,
//	b = sum_n a_in z_n / sigma^2,
//
// the sums over the row's observed columns n, and likewise for z_n. Both
// chains have the same stationary law, the posterior; the block draws
// move faster through it when the entries of a line are strongly
// correlated in it, at O(n K^2 + K^3) per line of n observed entries
// against O(n K).
type GLL struct {
	// Eta sets the mixing distribution of the prior variances,
	// lambda_ik ~ Exp(Eta/2); the Laplace rate is sqrt(Eta). Zero means
	// sqrt(10), the upstream experiments' value.
	Eta float64
	// Draw chooses how the rows of W and the columns of Z are drawn:
	// DrawEntries (the zero value), entry by entry, or DrawRows, each as
	// a block.
	Draw LineDraw
	Likelihood
}

// Name returns "GLL".
func (GLL) Name() string { return "GLL" }

func gllSpec() Spec {
	return Spec{
		Name: "GLL", Zero: GLL{}, RealValued: true,
		Doc: "Laplace priors on W and Z as scale mixtures of normals (Brouwer and Lio 2017)",
		Params: append([]Param{
			{Key: "eta", Field: "Eta", Support: Positive, Default: "sqrt(10)", Doc: "twice the rate of the exponential prior on each entry's variance; the Laplace rate is sqrt(eta)"},
			lineDrawParam("draw", "Draw", "how W and Z are drawn: entries, one at a time, or rows, each row of W and column of Z as a block from its multivariate normal conditional (upstream's sampler)"),
		}, likelihoodParams()...),
	}
}

func (g GLL) newChain(train *Matrix, k int) (chain, error) {
	lik, err := g.Likelihood.resolved("GLL")
	if err != nil {
		return nil, err
	}
	eta := orDefault(g.Eta, math.Sqrt(10))
	if err := positive("GLL", "Eta", eta); err != nil {
		return nil, err
	}
	if err := g.Draw.check("GLL", "Draw"); err != nil {
		return nil, err
	}
	m, n := train.Dims()
	c := newGibbsChain(train, k, lik, newLaplacePrior(m, k, eta), newLaplacePrior(n, k, eta))
	if g.Draw == DrawRows {
		if err := c.drawLinesAsBlocks("GLL", true, true); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// laplacePrior is the scale-mixture Laplace prior of GLL and, with a
// per-entry Eta (withInverseGaussian), of GLLI. It stores each entry's
// prior precision 1/lambda_ik.
type laplacePrior struct {
	k    int
	prec []float64 // lines x K: 1/lambda_ik
	eta  float64   // GLL's Eta
	// GLLI: eta_ik per entry and the GIG(-1/2, a, b) hyperprior's a, b;
	// etas is nil for GLL.
	etas []float64
	a, b float64
	// upstreamEta draws eta_ik as upstream's GLLI does (EtaUpstream).
	upstreamEta bool
}

var _ realPrior = (*laplacePrior)(nil)

func newLaplacePrior(lines, k int, eta float64) *laplacePrior {
	return &laplacePrior{k: k, prec: make([]float64, lines*k), eta: eta}
}

// withInverseGaussian gives every entry its own eta_ik with the
// hyperprior GIG(-1/2, a, b) = IG(sqrt(b/a), b) (GLLI).
func (p *laplacePrior) withInverseGaussian(a, b float64) *laplacePrior {
	p.etas = make([]float64, len(p.prec))
	p.a, p.b = a, b
	return p
}

func (*laplacePrior) realValued() {}

// etaOf returns entry e's eta.
func (p *laplacePrior) etaOf(e int) float64 {
	if p.etas != nil {
		return p.etas[e]
	}
	return p.eta
}

// initLine draws (eta_ik for GLLI,) lambda_ik and x_ik from the prior.
func (p *laplacePrior) initLine(i int, x []float64, rng *rand.Rand) int {
	bad := -1
	for k := range x {
		e := i*p.k + k
		if p.etas != nil {
			p.etas[e] = invGaussRand(rng, math.Sqrt(p.b/p.a), p.b)
		}
		eta := p.etaOf(e)
		lambda := 2 * rng.ExpFloat64() / eta
		p.prec[e] = 1 / lambda
		x[k] = math.Sqrt(lambda) * rng.NormFloat64()
		if !(eta > 0 && isFinite(eta) && p.prec[e] > 0 && isFinite(p.prec[e])) && bad < 0 {
			bad = k
		}
	}
	return bad
}

func (p *laplacePrior) natural(i, k int) (prec, lin float64) { return p.prec[i*p.k+k], 0 }

// updateLine draws each entry's 1/lambda_ik given x_ik (see GLL) and, for
// GLLI, then eta_ik given the new lambda_ik (see GLLI).
func (p *laplacePrior) updateLine(i int, x []float64, rng *rand.Rand) int {
	bad := -1
	for k, xk := range x {
		e := i*p.k + k
		eta := p.etaOf(e)
		s := invGaussRand(rng, math.Sqrt(eta)/math.Abs(xk), eta)
		p.prec[e] = s
		if p.etas != nil {
			c := p.a + 1/s
			if p.upstreamEta {
				eta = invGaussRand(rng, math.Sqrt(c/p.b), c)
			} else {
				eta = 1 / invGaussRand(rng, math.Sqrt(c/p.b), c)
			}
			p.etas[e] = eta
		}
		if !(s > 0 && isFinite(s) && eta > 0 && isFinite(eta)) && bad < 0 {
			bad = k
		}
	}
	return bad
}
