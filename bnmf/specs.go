package bnmf

import "fmt"

// The Specs of the paper's models; their types are in prior.go.

// likelihoodParams are the hyperparameters of the Likelihood that every
// Bayesian model embeds.
func likelihoodParams() []Param {
	return []Param{
		{Key: "alpha_sigma", Field: "AlphaSigma", Support: Positive, Default: "1", Doc: "shape of the inverse-Gamma prior on sigma^2"},
		{Key: "beta_sigma", Field: "BetaSigma", Support: Positive, Default: "1", Doc: "scale of the inverse-Gamma prior on sigma^2"},
	}
}

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

func geeSpec() Spec {
	return Spec{
		Name: "GEE", Zero: GEE{}, Default: true,
		Doc: "exponential priors on W and Z (Schmidt et al. 2009)",
		Params: append([]Param{
			{Key: "lambda", Field: "Lambda", Support: Positive, Default: "0.1", Doc: "rate of the exponential priors"},
		}, likelihoodParams()...),
	}
}

func gttSpec() Spec {
	return Spec{
		Name: "GTT", Zero: GTT{}, Default: true,
		Doc: "truncated-normal priors on W and Z (Brouwer and Lio 2017)",
		Params: append([]Param{
			{Key: "mu", Field: "Mu", Support: Real, Default: "0", Doc: "parent mean of the truncated-normal priors"},
			{Key: "tau", Field: "Tau", Support: Positive, Default: "0.1", Doc: "parent precision of the truncated-normal priors"},
		}, likelihoodParams()...),
	}
}

func gttnSpec() Spec {
	return Spec{
		Name: "GTTN", Zero: GTTN{}, Default: true,
		Doc:    "truncated-normal priors with a hierarchical TN-scaled-normal-Gamma hyperprior (Schmidt and Mohamed 2009)",
		Params: append(hierarchicalParams(), likelihoodParams()...),
	}
}

func grrnSpec() Spec {
	params := append(hierarchicalParams(),
		Param{Key: "alpha_lambda", Field: "AlphaLambda", Support: Positive, Default: "1", Doc: "shape of the Gamma hyperprior on lambda"},
		Param{Key: "beta_lambda", Field: "BetaLambda", Support: Positive, Default: "sqrt(m0/K)", Doc: "rate of the Gamma hyperprior on lambda"},
	)
	return Spec{
		Name: "GRRN", Zero: GRRN{}, Default: true,
		Doc:    "rectified-normal priors with a hierarchical RN-scaled-normal-Gamma hyperprior (Lu and Ye 2022)",
		Params: append(params, likelihoodParams()...),
	}
}

func nmfSpec() Spec {
	return Spec{
		Name: "NMF", Zero: NMF{}, Default: true, Nonnegative: true, PointEstimate: true,
		Doc: "Lee and Seung's multiplicative updates on the observed entries (a point estimate)",
		Params: []Param{{
			Key: "objective", Field: "Objective", Support: Choice,
			Choices: []string{SquaredError.String(), IDivergence.String()},
			Default: SquaredError.String(), Doc: "the loss minimised",
		}},
	}
}

// UnmarshalText sets o from its name, as String returns it.
func (o *Objective) UnmarshalText(text []byte) error {
	for _, c := range []Objective{SquaredError, IDivergence} {
		if c.String() == string(text) {
			*o = c
			return nil
		}
	}
	return fmt.Errorf("unknown objective %q; want %q or %q", text, SquaredError, IDivergence)
}
