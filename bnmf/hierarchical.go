package bnmf

import "fmt"

// hyper holds the resolved hyperparameters of the per-entry hierarchical
// prior (hierarchicalPrior) that GTTN and GRRN share.
type hyper struct{ muMu, tauMu, a, b float64 }

// hierarchicalParams are the hyperparameters of the per-entry hierarchical
// prior that GTTN and GRRN share.
func hierarchicalParams() []Param {
	return []Param{
		{Key: "mu_mu", Field: "MuMu", Support: Real, Default: "0", Doc: "mean of the normal hyperprior on mu"},
		{Key: "tau_mu", Field: "TauMu", Support: Positive, Default: "0.1", Doc: "precision of the normal hyperprior on mu"},
		{Key: "a", Field: "A", Support: Positive, Default: "1", Doc: "shape of the Gamma hyperprior on tau"},
		{Key: "b", Field: "B", Support: Positive, Default: "1", Doc: "rate of the Gamma hyperprior on tau"},
	}
}

// resolveHyper fills in the defaults of the hierarchical prior's
// hyperparameters (TauMu 0.1, A and B 1) and checks them for model.
func resolveHyper(model string, muMu, tauMu, a, b float64) (hyper, error) {
	h := hyper{muMu: muMu, tauMu: orDefault(tauMu, 0.1), a: orDefault(a, 1), b: orDefault(b, 1)}
	if !isFinite(h.muMu) {
		return h, fmt.Errorf("bnmf: %s.MuMu is %v; it must be finite", model, muMu)
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"TauMu", h.tauMu}, {"A", h.a}, {"B", h.b}} {
		if err := positive(model, f.name, f.v); err != nil {
			return h, err
		}
	}
	return h, nil
}
