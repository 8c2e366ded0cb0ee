package bnmf

// Likelihood holds the inverse-Gamma prior on the noise variance sigma^2
// shared by every Bayesian model: sigma^2 ~ InvGamma(AlphaSigma, BetaSigma)
// with shape AlphaSigma and scale BetaSigma (the paper's Eq. for
// p(sigma^2)). Zero values mean the paper's defaults, 1 and 1.
type Likelihood struct {
	AlphaSigma float64
	BetaSigma  float64
}

// likelihoodParams are the hyperparameters of the Likelihood that every
// Bayesian model embeds.
func likelihoodParams() []Param {
	return []Param{
		{Key: "alpha_sigma", Field: "AlphaSigma", Support: Positive, Default: "1", Doc: "shape of the inverse-Gamma prior on sigma^2"},
		{Key: "beta_sigma", Field: "BetaSigma", Support: Positive, Default: "1", Doc: "scale of the inverse-Gamma prior on sigma^2"},
	}
}

// resolved returns the likelihood with defaults filled in.
func (l Likelihood) resolved(model string) (Likelihood, error) {
	l.AlphaSigma = orDefault(l.AlphaSigma, 1)
	l.BetaSigma = orDefault(l.BetaSigma, 1)
	if err := positive(model, "AlphaSigma", l.AlphaSigma); err != nil {
		return l, err
	}
	return l, positive(model, "BetaSigma", l.BetaSigma)
}
