package bnmf

var _ Model = GVG{}

// GVG is the Gaussian likelihood with the volume prior on W and Gaussian
// priors on Z (Brouwer and Lio 2017):
//
//	p(W) ∝ exp(-Gamma det(W^T W)),  z_kn ~ N(0, 1/Lambda),
//
// which favours factors W whose columns span a small volume. Every entry
// of W is drawn from its exact normal full conditional (see volumePrior),
// the rows of W one after another in row order (the prior couples them,
// so they cannot be drawn in parallel; the chain is the same for any
// number of workers), and the entries of Z as in GGGU.
//
// Upstream draws w_ik from the normal with precision
// Gamma det(A) (1 - r^T A^-1 r) plus the likelihood's and the matching
// linear term (A the Gram matrix of W without column k, r row i of W
// without entry k): det(W^T W) is det(A) times a quadratic in w_ik whose
// second-order coefficient is det(A) (1 - r^T A^-1 r), so exp(-Gamma
// det(W^T W)) has precision twice that. Upstream's conditionals are those
// of exp(-Gamma/2 det(W^T W)); this package samples the stated prior.
//
// The prior is improper for K >= 2 (it is constant on the unbounded set
// of rank-deficient W), so, as upstream, W starts from N(0, 1) draws,
// and the model cannot be checked by simulation from its prior: its tests
// check the conditionals against numerical integration and that a pass
// over W leaves p(W | Z, sigma^2, A) invariant. W needs at least K + 1
// rows. The factors are real.
//
// ZDraw chooses how Z is drawn: by default (DrawEntries) entry by entry,
// as GGGU; with DrawRows (z_draw: rows in a study config) each column z_n
// as a block from its K-dimensional normal full conditional, as
// upstream's sampler draws it (see GEG). Both leave the posterior
// invariant; they mix differently when the columns of W are nearly
// parallel, as the volume prior favours.
type GVG struct {
	// Gamma is the weight of det(W^T W). Zero means 1, the value of
	// upstream's MovieLens and methylation experiments (its drug
	// sensitivity experiments use 1e-10 to 1e-30, its runtime ones 1e-50).
	Gamma float64
	// Lambda is the precision of the Gaussian priors on Z. Zero means 0.1.
	Lambda float64
	// ZDraw chooses how the columns of Z are drawn: DrawEntries (the
	// zero value) or DrawRows, each as a block. W is drawn entry by
	// entry either way.
	ZDraw LineDraw
	Likelihood
}

// Name returns "GVG".
func (GVG) Name() string { return "GVG" }

func gvgSpec() Spec {
	return Spec{
		Name: "GVG", Zero: GVG{}, RealValued: true,
		Doc:    "volume prior on W, Gaussian priors on Z (Brouwer and Lio 2017)",
		Params: append(volumeParams(), likelihoodParams()...),
	}
}

// volumeParams are the hyperparameters of GVG and GVnG.
func volumeParams() []Param {
	return []Param{
		{Key: "gamma", Field: "Gamma", Support: Positive, Default: "1", Doc: "weight of det(W^T W) in the volume prior on W"},
		{Key: "lambda", Field: "Lambda", Support: Positive, Default: "0.1", Doc: "precision of the Gaussian priors on Z"},
		lineDrawParam("z_draw", "ZDraw", "how Z is drawn: entries, one at a time, or rows, each column of Z as a block from its multivariate normal conditional (upstream's sampler)"),
	}
}

func (g GVG) newChain(train *Matrix, k int) (chain, error) {
	return newVolumeChain("GVG", g.Gamma, g.Lambda, g.ZDraw, g.Likelihood, true, train, k)
}

// newVolumeChain returns the chain of GVG (real) or GVnG, with the
// columns of Z drawn as zDraw says.
func newVolumeChain(name string, gamma, lambda float64, zDraw LineDraw, l Likelihood, real bool, train *Matrix, k int) (chain, error) {
	lik, err := l.resolved(name)
	if err != nil {
		return nil, err
	}
	gamma, lambda = orDefault(gamma, 1), orDefault(lambda, 0.1)
	if err := positive(name, "Gamma", gamma); err != nil {
		return nil, err
	}
	if err := positive(name, "Lambda", lambda); err != nil {
		return nil, err
	}
	if err := zDraw.check(name, "ZDraw"); err != nil {
		return nil, err
	}
	vp := newVolumePrior(k, gamma, real)
	var pw prior = vp
	if real {
		pw = volumeRealPrior{vp}
	}
	c := newGibbsChain(train, k, lik, pw, gaussianPrior{lambda: lambda})
	vp.x = c.w
	if zDraw == DrawRows {
		if err := c.drawLinesAsBlocks(name, false, true); err != nil {
			return nil, err
		}
	}
	return c, nil
}
