package bnmf

var _ Model = GVnG{}

// GVnG is GVG with the volume prior restricted to nonnegative W (Brouwer
// and Lio 2017):
//
//	p(W) ∝ exp(-Gamma det(W^T W)) 1{W >= 0},  z_kn ~ N(0, 1/Lambda),
//
// with each w_ik drawn from the normal of GVG truncated to [0, inf), the
// exact full conditional (upstream's is that of Gamma/2, as for GVG). As
// upstream, W starts from TN(0, 1) draws, the prior being improper. W is
// nonnegative; Z and the predictions may be negative. ZDraw chooses how Z
// is drawn, as for GVG: entry by entry (the default) or, with DrawRows,
// each column as a block, as upstream's sampler draws it.
type GVnG struct {
	// Gamma is the weight of det(W^T W). Zero means 1, as for GVG.
	Gamma float64
	// Lambda is the precision of the Gaussian priors on Z. Zero means 0.1.
	Lambda float64
	// ZDraw chooses how the columns of Z are drawn: DrawEntries (the
	// zero value) or DrawRows, each as a block.
	ZDraw LineDraw
	Likelihood
}

// Name returns "GVnG".
func (GVnG) Name() string { return "GVnG" }

func gvngSpec() Spec {
	return Spec{
		Name: "GVnG", Zero: GVnG{}, RealValued: true,
		Doc:    "nonnegative volume prior on W, Gaussian priors on Z (Brouwer and Lio 2017)",
		Params: append(volumeParams(), likelihoodParams()...),
	}
}

func (g GVnG) newChain(train *Matrix, k int) (chain, error) {
	return newVolumeChain("GVnG", g.Gamma, g.Lambda, g.ZDraw, g.Likelihood, false, train, k)
}
