package bnmf

// Likelihood holds the inverse-Gamma prior on the noise variance sigma^2
// shared by every Bayesian model: sigma^2 ~ InvGamma(AlphaSigma, BetaSigma)
// with shape AlphaSigma and scale BetaSigma (the paper's Eq. for
// p(sigma^2)). Zero values mean the paper's defaults, 1 and 1.
type Likelihood struct {
	AlphaSigma float64
	BetaSigma  float64
}

// GEE is the Gaussian likelihood with exponential priors on W and Z
// (Schmidt et al. 2009; the paper's Appendix B.1):
// w_mk ~ Exp(Lambda), z_kn ~ Exp(Lambda).
type GEE struct {
	// Lambda is the rate of the exponential priors. Zero means 0.1.
	Lambda float64
	Likelihood
}

// GTT is the Gaussian likelihood with truncated-normal priors on W and Z
// (Brouwer and Lio 2017; the paper's Appendix B.2):
// w_mk ~ TN(Mu, 1/Tau) on [0, inf).
type GTT struct {
	// Mu is the parent mean of the truncated-normal priors (default 0).
	Mu float64
	// Tau is the parent precision. Zero means 0.1.
	Tau float64
	Likelihood
}

// GTTN is GTT with a per-entry hierarchical TN-scaled-normal-Gamma prior on
// each entry's (mu, tau) (Schmidt and Mohamed 2009; the paper's Appendix
// B.3): mu_mk ~ N(MuMu, 1/TauMu), tau_mk ~ Gamma(A, B) (shape, rate).
//
// The paper's TNSNG density carries a factor 1/sqrt(tau) that its own tau
// conditional, Gamma(A + 1/2, B + (w - mu)^2 / 2), ignores. This package
// implements the conditionals as stated; they are the exact conditionals of
// the joint N(w | mu, 1/tau) u(w) N(mu | MuMu, 1/TauMu) Gamma(tau | A, B),
// i.e. the TNSNG without the 1/sqrt(tau) factor.
type GTTN struct {
	// MuMu is the mean of the normal hyperprior on mu (default 0).
	MuMu float64
	// TauMu is the precision of the normal hyperprior on mu. Zero means 0.1.
	TauMu float64
	// A and B are the shape and rate of the Gamma hyperprior on tau. Zero
	// means 1.
	A, B float64
	Likelihood
}

// GRRN is the paper's model: Gaussian likelihood, rectified-normal priors
// w_mk ~ RN(mu_mk, 1/tau_mk, lambda_mk) = TN((tau mu - lambda)/tau, 1/tau)
// and a per-entry RN-scaled-normal-Gamma hyperprior on (mu, tau, lambda)
// (the paper's Section 3 and Appendix A): mu ~ N(MuMu, 1/TauMu),
// tau ~ Gamma(A, B), lambda ~ Gamma(AlphaLambda, BetaLambda), all Gamma
// densities shape and rate.
type GRRN struct {
	// MuMu is the mean of the normal hyperprior on mu (default 0).
	MuMu float64
	// TauMu is the precision of the normal hyperprior on mu. Zero means 0.1.
	TauMu float64
	// A and B are the shape and rate of the Gamma hyperprior on tau. Zero
	// means 1.
	A, B float64
	// AlphaLambda is the shape of the Gamma hyperprior on lambda. Zero
	// means 1.
	AlphaLambda float64
	// BetaLambda is the rate of the Gamma hyperprior on lambda. Zero means
	// sqrt(m0/K), with m0 the mean of the observed training entries and K
	// the rank (the paper's uninformative choice).
	BetaLambda float64
	Likelihood
}

// Objective selects the loss that NMF minimises.
type Objective int

const (
	// SquaredError is the masked squared error of the paper's Eq. 2.
	SquaredError Objective = iota
	// IDivergence is the generalised Kullback-Leibler (I-) divergence.
	IDivergence
)

// String returns the objective's name.
func (o Objective) String() string {
	switch o {
	case SquaredError:
		return "squared-error"
	case IDivergence:
		return "i-divergence"
	}
	return "unknown"
}

// NMF is non-probabilistic NMF by Lee and Seung's (2001) multiplicative
// updates restricted to the observed entries. It is a point estimate: Run
// reports its final iterate as the posterior mean and zero predictive
// variance, and its Sigma2 is 0.
type NMF struct {
	// Objective is the loss minimised; the zero value is SquaredError.
	Objective Objective
}
