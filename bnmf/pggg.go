package bnmf

var _ Model = PGGG{}

// PGGG is the Poisson likelihood with Gamma priors whose rates have Gamma
// hierarchical priors per row of W and column of Z (Brouwer and Lio
// 2017): a_mn ~ Poi(w_m . z_n) for counts a_mn, w_mk ~ Gamma(A, h_m),
// z_kn ~ Gamma(A, h_n) and h ~ Gamma(APrime, APrime/BPrime), all shape and
// rate (so the rates have prior mean BPrime). Its sampler splits each
// count over the K factors (see poissonChain). The training data must be
// nonnegative integers; Sigma2 is 0.
type PGGG struct {
	// A is the shape of the Gamma priors on the factors. Zero means 1.
	A float64
	// APrime is the shape of the hyperprior on the rates. Zero means 1.
	APrime float64
	// BPrime is the mean of the hyperprior on the rates, whose rate is
	// APrime/BPrime. Zero means 1.
	BPrime float64
}

// Name returns "PGGG".
func (PGGG) Name() string { return "PGGG" }

func pgggSpec() Spec {
	return Spec{
		Name: "PGGG", Zero: PGGG{}, Family: Poisson,
		Doc: "Poisson likelihood with Gamma priors and Gamma hierarchical priors on each row's and column's rate, for counts (Brouwer and Lio 2017)",
		Params: []Param{
			{Key: "a", Field: "A", Support: Positive, Default: "1", Doc: "shape of the Gamma priors on W and Z"},
			{Key: "ap", Field: "APrime", Support: Positive, Default: "1", Doc: "shape of the Gamma hyperprior on the rates"},
			{Key: "bp", Field: "BPrime", Support: Positive, Default: "1", Doc: "mean of the Gamma hyperprior on the rates (its rate is ap/bp)"},
		},
	}
}

func (g PGGG) newChain(train *Matrix, k int) (chain, error) {
	a, ap, bp := orDefault(g.A, 1), orDefault(g.APrime, 1), orDefault(g.BPrime, 1)
	for _, f := range []struct {
		name string
		v    float64
	}{{"A", a}, {"APrime", ap}, {"BPrime", bp}} {
		if err := positive("PGGG", f.name, f.v); err != nil {
			return nil, err
		}
	}
	if err := positive("PGGG", "APrime/BPrime", ap/bp); err != nil {
		return nil, err
	}
	if err := checkCounts("PGGG", train); err != nil {
		return nil, err
	}
	return newPoissonChain(train, k, a, 0, true, ap, bp), nil
}
