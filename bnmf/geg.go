package bnmf

var _ Model = GEG{}

// GEG is the semi-nonnegative model of Brouwer and Lio (2017): Gaussian
// likelihood, exponential priors on W and Gaussian priors on Z,
//
//	w_mk ~ Exp(Lambda) (rate), z_kn ~ N(0, 1/Lambda).
//
// W is nonnegative; Z and the predictions may be negative. Every entry of
// W is drawn from its one-dimensional full conditional, a normal
// truncated to [0, inf) (as in GEE). ZDraw chooses how Z is drawn: by
// default (DrawEntries) entry by entry from untruncated normals; with
// DrawRows (z_draw: rows in a study config) each column z_n as a block
// from its K-dimensional normal full conditional, as upstream's sampler
// draws it,
//
//	z_n | W, sigma^2 ~ N(P^-1 b, P^-1),
//	P = Lambda I + sum_m w_m w_m^T / sigma^2, b = sum_m a_mn w_m / sigma^2,
//
// the sums over the column's observed rows m. Both chains have the same
// stationary law, the posterior. When W's columns are nearly parallel
// the entries of z_n are strongly correlated in it, and entry-by-entry
// draws then cross it slowly where a block draw does not; a block costs
// O(n K^2 + K^3) for a column with n observed entries against O(n K).
type GEG struct {
	// Lambda is both the rate of the exponential prior on W and the
	// precision of the Gaussian prior on Z. Zero means 0.1.
	Lambda float64
	// ZDraw chooses how the columns of Z are drawn: DrawEntries (the
	// zero value) or DrawRows, each as a block. W is drawn entry by
	// entry either way.
	ZDraw LineDraw
	Likelihood
}

// Name returns "GEG".
func (GEG) Name() string { return "GEG" }

func gegSpec() Spec {
	return Spec{
		Name: "GEG", Zero: GEG{}, RealValued: true,
		Doc: "exponential priors on W, Gaussian priors on Z: semi-nonnegative (Brouwer and Lio 2017)",
		Params: append([]Param{
			{Key: "lambda", Field: "Lambda", Support: Positive, Default: "0.1", Doc: "rate of the exponential prior on W and precision of the Gaussian prior on Z"},
			lineDrawParam("z_draw", "ZDraw", "how Z is drawn: entries, one at a time, or rows, each column of Z as a block from its multivariate normal conditional (upstream's sampler)"),
		}, likelihoodParams()...),
	}
}

func (g GEG) newChain(train *Matrix, k int) (chain, error) {
	lik, err := g.Likelihood.resolved("GEG")
	if err != nil {
		return nil, err
	}
	lambda := orDefault(g.Lambda, 0.1)
	if err := positive("GEG", "Lambda", lambda); err != nil {
		return nil, err
	}
	if err := g.ZDraw.check("GEG", "ZDraw"); err != nil {
		return nil, err
	}
	c := newGibbsChain(train, k, lik, exponentialPrior{lambda: lambda}, gaussianPrior{lambda: lambda})
	if g.ZDraw == DrawRows {
		if err := c.drawLinesAsBlocks("GEG", false, true); err != nil {
			return nil, err
		}
	}
	return c, nil
}
