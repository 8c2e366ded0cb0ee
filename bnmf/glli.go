package bnmf

import "fmt"

var _ Model = GLLI{}

// GLLI is GLL with a hierarchical prior on each entry's Laplace parameter
// (Brouwer and Lio 2017): for x = w and x = z,
//
//	x_ik | lambda_ik ~ N(0, lambda_ik),  lambda_ik | eta_ik ~ Exp(eta_ik/2),
//	eta_ik ~ GIG(-1/2, A, B) = IG(sqrt(B/A), B)
//
// (the generalised inverse Gaussian with density proportional to
// eta^(-3/2) exp(-(A eta + B/eta)/2), an inverse Gaussian with mean
// sqrt(B/A) and shape B). The full conditionals are those of GLL for x_ik
// and lambda_ik, and
//
//	eta_ik | lambda_ik ~ GIG(1/2, A + lambda_ik, B),
//	i.e. 1/eta_ik ~ IG(sqrt((A + lambda_ik)/B), A + lambda_ik).
//
// The upstream sampler draws eta_ik itself, not its reciprocal, from that
// inverse Gaussian, which is not the conditional of this joint (nor of
// any joint with its other conditionals); this package draws the
// reciprocal, which is. With EtaDraw set to EtaUpstream (eta_draw:
// upstream in a study config) it draws eta_ik as upstream does, to
// reproduce upstream's chains: that chain samples no stated posterior,
// and its Geweke and SBC tests would fail, so it is for comparisons with
// upstream only. The factors are real.
//
// With Draw set to DrawRows (draw: rows in a study config), each row w_i
// of W and each column z_n of Z is drawn as a block from its
// K-dimensional normal full conditional given the variances lambda_ik, as
// upstream's sampler draws them and as GLL's Draw does (the conditional
// is GLL's, with the line's own variances), and the line's variances and
// then its eta_ik as above. Both chains have the same stationary law, the
// posterior; the block draws move faster through it when the entries of
// a line are strongly correlated in it, at O(n K^2 + K^3) per line of n
// observed entries against O(n K).
type GLLI struct {
	// A and B are the parameters of the GIG(-1/2, A, B) hyperprior on
	// each eta_ik. Zero means A = 1/K and B = K, with K the rank (the
	// upstream defaults): eta has prior mean K.
	A, B float64
	// Draw chooses how the rows of W and the columns of Z are drawn:
	// DrawEntries (the zero value), entry by entry, or DrawRows, each as
	// a block.
	Draw LineDraw
	// EtaDraw chooses how eta_ik is drawn: EtaExact (the zero value),
	// from its full conditional, or EtaUpstream, as upstream's sampler
	// draws it (see above).
	EtaDraw EtaDraw
	Likelihood
}

// Name returns "GLLI".
func (GLLI) Name() string { return "GLLI" }

func glliSpec() Spec {
	return Spec{
		Name: "GLLI", Zero: GLLI{}, RealValued: true,
		Doc: "Laplace priors with a hierarchical inverse-Gaussian prior on each entry's parameter (Brouwer and Lio 2017)",
		Params: append([]Param{
			{Key: "a", Field: "A", Support: Positive, Default: "1/K", Doc: "a of the GIG(-1/2, a, b) hyperprior on each entry's eta"},
			{Key: "b", Field: "B", Support: Positive, Default: "K", Doc: "b of the GIG(-1/2, a, b) hyperprior on each entry's eta"},
			lineDrawParam("draw", "Draw", "how W and Z are drawn: entries, one at a time, or rows, each row of W and column of Z as a block from its multivariate normal conditional (upstream's sampler)"),
			choiceParam("eta_draw", "EtaDraw",
				"how each eta is drawn: exact, from its full conditional, or upstream, as upstream's sampler draws it (not the conditional of the model; for comparisons with upstream only)",
				EtaExact.String(), EtaUpstream.String()),
		}, likelihoodParams()...),
	}
}

func (g GLLI) newChain(train *Matrix, k int) (chain, error) {
	lik, err := g.Likelihood.resolved("GLLI")
	if err != nil {
		return nil, err
	}
	if k < 1 {
		return nil, fmt.Errorf("bnmf: GLLI needs a rank of at least 1, got %d", k)
	}
	a, b := orDefault(g.A, 1/float64(k)), orDefault(g.B, float64(k))
	if err := positive("GLLI", "A", a); err != nil {
		return nil, err
	}
	if err := positive("GLLI", "B", b); err != nil {
		return nil, err
	}
	if err := g.Draw.check("GLLI", "Draw"); err != nil {
		return nil, err
	}
	if err := checkChoice(g.EtaDraw, "GLLI", "EtaDraw", "EtaExact", "EtaUpstream"); err != nil {
		return nil, err
	}
	m, n := train.Dims()
	pw := newLaplacePrior(m, k, 0).withInverseGaussian(a, b)
	pz := newLaplacePrior(n, k, 0).withInverseGaussian(a, b)
	pw.upstreamEta, pz.upstreamEta = g.EtaDraw == EtaUpstream, g.EtaDraw == EtaUpstream
	c := newGibbsChain(train, k, lik, pw, pz)
	if g.Draw == DrawRows {
		if err := c.drawLinesAsBlocks("GLLI", true, true); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// EtaDraw chooses how GLLI draws each entry's Laplace parameter eta_ik
// given its variance lambda_ik.
type EtaDraw int

const (
	// EtaExact draws eta_ik from its full conditional, GIG(1/2, A +
	// lambda_ik, B), through its reciprocal, an inverse Gaussian. It is
	// the zero value.
	EtaExact EtaDraw = iota
	// EtaUpstream draws eta_ik itself from the inverse Gaussian with mean
	// sqrt((A + lambda_ik)/B) and shape A + lambda_ik, as upstream's
	// sampler does: not a conditional of the model.
	EtaUpstream
)

// String returns the draw's name, as a study config spells it: "exact"
// or "upstream".
func (d EtaDraw) String() string { return choiceName(d, "EtaDraw", "exact", "upstream") }

// UnmarshalText sets d from its name, as String returns it.
func (d *EtaDraw) UnmarshalText(text []byte) error {
	c, err := parseChoice[EtaDraw](text, "eta draw", EtaExact.String(), EtaUpstream.String())
	if err == nil {
		*d = c
	}
	return err
}
