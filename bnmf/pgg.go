package bnmf

var _ Model = PGG{}

// PGG is the Poisson likelihood with Gamma priors (Brouwer and Lio 2017):
// a_mn ~ Poi(w_m . z_n) for counts a_mn, w_mk ~ Gamma(A, B) and
// z_kn ~ Gamma(A, B), shape A and rate B. Its sampler splits each count
// over the K factors (see poissonChain), so that every conditional is
// Gamma. The training data must be nonnegative integers; Sigma2 is 0.
type PGG struct {
	// A is the shape of the Gamma priors. Zero means 1.
	A float64
	// B is the rate of the Gamma priors. Zero means 1.
	B float64
}

// Name returns "PGG".
func (PGG) Name() string { return "PGG" }

func pggSpec() Spec {
	return Spec{
		Name: "PGG", Zero: PGG{}, Family: Poisson,
		Doc: "Poisson likelihood with Gamma priors on W and Z, for counts (Brouwer and Lio 2017)",
		Params: []Param{
			{Key: "a", Field: "A", Support: Positive, Default: "1", Doc: "shape of the Gamma priors"},
			{Key: "b", Field: "B", Support: Positive, Default: "1", Doc: "rate of the Gamma priors"},
		},
	}
}

func (g PGG) newChain(train *Matrix, k int) (chain, error) {
	a, b := orDefault(g.A, 1), orDefault(g.B, 1)
	if err := positive("PGG", "A", a); err != nil {
		return nil, err
	}
	if err := positive("PGG", "B", b); err != nil {
		return nil, err
	}
	if err := checkCounts("PGG", train); err != nil {
		return nil, err
	}
	return newPoissonChain(train, k, a, b, false, 0, 0), nil
}
