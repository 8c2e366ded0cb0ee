package bnmf

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// BiasSuffix is appended to a model's name when it runs with offsets
// (Biased): "GRRN+b".
const BiasSuffix = "+b"

// Offsets holds the hyperparameters of the bias terms that Biased adds to
// a Gaussian-likelihood model,
//
//	A_ij = mu + b_i + c_j + w_i . z_j + noise,
//	mu ~ N(M0, 1/TauMu), b_i ~ N(0, 1/tau_b), c_j ~ N(0, 1/tau_c),
//	tau_b ~ Gamma(AlphaB, BetaB), tau_c ~ Gamma(AlphaC, BetaC),
//
// the Gamma densities with shape and rate. Zero values mean the defaults,
// which are set from the observed training values (mean m and population
// variance v) so that the model means the same for ratings on any scale:
//
//   - M0 = m: the prior on the overall level is centred on the data's
//     mean; with |Omega| entries its conditional's precision is TauMu +
//     |Omega|/sigma^2, so the data decide mu and the centre only spares
//     the first sweeps a long walk.
//   - TauMu = 1/v: the prior's standard deviation is the data's spread,
//     broad enough for any level the data may have.
//   - AlphaB = AlphaC = 1 and BetaB = BetaC = v: exponential hyperpriors
//     on the precisions with mean 1/v, so that an offset's prior
//     standard deviation is of the order of the data's spread (an offset
//     larger than all the variation of the ratings would be absurd), and
//     with the weakest shape that keeps the prior proper; tau_b's
//     conditional has shape AlphaB + M/2, so with hundreds of rows the
//     data dominate it.
type Offsets struct {
	M0, TauMu     float64
	AlphaB, BetaB float64
	AlphaC, BetaC float64
}

// resolved returns the hyperparameters with the defaults filled in from
// train.
func (o Offsets) resolved(model string, train *Matrix) (Offsets, error) {
	if o.M0 == 0 {
		o.M0 = train.Mean()
	}
	v := train.Variance()
	for _, p := range []*float64{&o.TauMu, &o.BetaB, &o.BetaC} {
		if *p != 0 {
			continue
		}
		if !(v > 0) || math.IsInf(v, 0) {
			return o, fmt.Errorf("bnmf: %s's offsets' hyperparameters TauMu, BetaB and BetaC default to 1/v and v, v the variance of the training values, but v is %v; set them", model, v)
		}
	}
	o.TauMu = orDefault(o.TauMu, 1/v)
	o.BetaB = orDefault(o.BetaB, v)
	o.BetaC = orDefault(o.BetaC, v)
	o.AlphaB = orDefault(o.AlphaB, 1)
	o.AlphaC = orDefault(o.AlphaC, 1)
	if !isFinite(o.M0) {
		return o, fmt.Errorf("bnmf: %s.M0 is %v; it must be finite", model, o.M0)
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"TauMu", o.TauMu}, {"AlphaB", o.AlphaB}, {"BetaB", o.BetaB}, {"AlphaC", o.AlphaC}, {"BetaC", o.BetaC}} {
		if err := positive(model, f.name, f.v); err != nil {
			return o, err
		}
	}
	return o, nil
}

var _ Model = Biased{}

// Biased is Model with bias terms: the offsets of Offsets added to its
// mean, all drawn by exact Gibbs steps inside the model's own sweep (see
// offsets). Model must have a Gaussian likelihood and a chain that
// carries offsets; Run returns an error for any other. W and Z keep
// their priors and their supports.
type Biased struct {
	Model Model
	Offsets
}

// WithBiases returns m with offsets at their default hyperparameters.
func WithBiases(m Model) Biased { return Biased{Model: m} }

// Name returns the model's name with BiasSuffix, such as "GRRN+b".
func (b Biased) Name() string { return b.Model.Name() + BiasSuffix }

// gaussianModel is a model with the Gaussian likelihood that offsets
// need; every model that embeds Likelihood is one.
type gaussianModel interface {
	Model
	gaussianLikelihood()
}

// gaussianLikelihood marks the models that embed Likelihood.
func (Likelihood) gaussianLikelihood() {}

// AcceptsBiases reports whether m has a Gaussian likelihood, so that
// Biased may wrap it.
func AcceptsBiases(m Model) bool {
	_, ok := m.(gaussianModel)
	return ok
}

// offsetCarrier is a chain that can carry offsets.
type offsetCarrier interface {
	withOffsets(o Offsets) error
}

func (b Biased) newChain(train *Matrix, k int) (chain, error) {
	if b.Model == nil {
		return nil, fmt.Errorf("bnmf: Biased needs a model")
	}
	if !AcceptsBiases(b.Model) {
		return nil, fmt.Errorf("bnmf: %s has no Gaussian likelihood; offsets (biases) apply only to the Gaussian-likelihood models", b.Model.Name())
	}
	o, err := b.Offsets.resolved(b.Name(), train)
	if err != nil {
		return nil, err
	}
	ch, err := b.Model.newChain(train, k)
	if err != nil {
		return nil, err
	}
	oc, ok := ch.(offsetCarrier)
	if !ok {
		return nil, fmt.Errorf("bnmf: %s's sampler does not carry offsets (biases) yet", b.Model.Name())
	}
	if err := oc.withOffsets(o); err != nil {
		return nil, err
	}
	return ch, nil
}

// OffsetParamPrefix starts the config keys of the offsets'
// hyperparameters (bias_m0, bias_tau_mu, ...), which a model's Spec
// lists after its own when it has offsets.
const OffsetParamPrefix = "bias_"

// offsetParams are the offsets' hyperparameters as a Biased model's Spec
// lists them.
func offsetParams() []Param {
	return []Param{
		{Key: "bias_m0", Field: "M0", Support: Real, Default: "mean of the training values", Doc: "mean of the normal prior on the overall level mu"},
		{Key: "bias_tau_mu", Field: "TauMu", Support: Positive, Default: "1/variance of the training values", Doc: "precision of the normal prior on mu"},
		{Key: "bias_alpha_b", Field: "AlphaB", Support: Positive, Default: "1", Doc: "shape of the Gamma hyperprior on the row offsets' precision tau_b"},
		{Key: "bias_beta_b", Field: "BetaB", Support: Positive, Default: "variance of the training values", Doc: "rate of the Gamma hyperprior on tau_b"},
		{Key: "bias_alpha_c", Field: "AlphaC", Support: Positive, Default: "1", Doc: "shape of the Gamma hyperprior on the column offsets' precision tau_c"},
		{Key: "bias_beta_c", Field: "BetaC", Support: Positive, Default: "variance of the training values", Doc: "rate of the Gamma hyperprior on tau_c"},
	}
}

// biasedSpec returns the Spec of name, a model's name with BiasSuffix, or
// false when the model is unknown or has no Gaussian likelihood.
func biasedSpec(name string) (Spec, bool) {
	base, ok := strings.CutSuffix(name, BiasSuffix)
	if !ok {
		return Spec{}, false
	}
	s, ok := Lookup(base)
	if !ok || !AcceptsBiases(s.Zero) {
		return Spec{}, false
	}
	s.Name = name
	s.Zero = WithBiases(s.Zero)
	s.Params = append(slices.Clip(s.Params), offsetParams()...)
	s.Default = false
	s.Doc += ", with offsets mu + b_i + c_j"
	return s, true
}
