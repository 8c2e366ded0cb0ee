package experiments

import (
	"fmt"
	"math"
	"slices"

	"github.com/bnmf-lab/bnmf/bnmf"
)

// ModelConfig names a model and optionally overrides its hyperparameters.
// An absent key keeps the paper's default (see the bnmf model types); a key
// that the model does not have is an error. The fields mirror the bnmf
// model structs: GEE has Lambda; GTT has Mu and Tau; GTTN has MuMu, TauMu,
// A and B; GRRN has those and AlphaLambda and BetaLambda; every model but
// NMF has AlphaSigma and BetaSigma; NMF has Objective.
type ModelConfig struct {
	Name        string   `yaml:"name"`
	Lambda      *float64 `yaml:"lambda,omitempty" json:",omitempty"`
	Mu          *float64 `yaml:"mu,omitempty" json:",omitempty"`
	Tau         *float64 `yaml:"tau,omitempty" json:",omitempty"`
	MuMu        *float64 `yaml:"mu_mu,omitempty" json:",omitempty"`
	TauMu       *float64 `yaml:"tau_mu,omitempty" json:",omitempty"`
	A           *float64 `yaml:"a,omitempty" json:",omitempty"`
	B           *float64 `yaml:"b,omitempty" json:",omitempty"`
	AlphaLambda *float64 `yaml:"alpha_lambda,omitempty" json:",omitempty"`
	BetaLambda  *float64 `yaml:"beta_lambda,omitempty" json:",omitempty"`
	AlphaSigma  *float64 `yaml:"alpha_sigma,omitempty" json:",omitempty"`
	BetaSigma   *float64 `yaml:"beta_sigma,omitempty" json:",omitempty"`
	// Objective is NMF's loss: "squared-error" (the default) or
	// "i-divergence".
	Objective string `yaml:"objective,omitempty" json:",omitempty"`
}

// hyperparameter is one overridable field of a ModelConfig.
type hyperparameter struct {
	key      string
	value    *float64
	positive bool     // it must be > 0; otherwise any finite value
	models   []string // the models that have it
}

func (m *ModelConfig) hyperparameters() []hyperparameter {
	bayes := []string{"GEE", "GTT", "GTTN", "GRRN"}
	hier := []string{"GTTN", "GRRN"}
	return []hyperparameter{
		{"lambda", m.Lambda, true, []string{"GEE"}},
		{"mu", m.Mu, false, []string{"GTT"}},
		{"tau", m.Tau, true, []string{"GTT"}},
		{"mu_mu", m.MuMu, false, hier},
		{"tau_mu", m.TauMu, true, hier},
		{"a", m.A, true, hier},
		{"b", m.B, true, hier},
		{"alpha_lambda", m.AlphaLambda, true, []string{"GRRN"}},
		{"beta_lambda", m.BetaLambda, true, []string{"GRRN"}},
		{"alpha_sigma", m.AlphaSigma, true, bayes},
		{"beta_sigma", m.BetaSigma, true, bayes},
	}
}

// validateModel checks the model at models[i] of c.
func (c *Config) validateModel(i int) error {
	m := &c.Models[i]
	key := fmt.Sprintf("models[%d]", i)
	if m.Name == "" {
		return c.errorf(key, "a model needs a name (one of %v)", bnmf.Names())
	}
	if _, ok := bnmf.ByName(m.Name); !ok {
		return c.errorf(key+".name", "unknown model %q; the models are %v", m.Name, bnmf.Names())
	}
	for _, h := range m.hyperparameters() {
		if h.value == nil {
			continue
		}
		k := key + "." + h.key
		if !slices.Contains(h.models, m.Name) {
			return c.errorf(k, "%s has no hyperparameter %s (it applies to %v)", m.Name, h.key, h.models)
		}
		v := *h.value
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return c.errorf(k, "%v is not a finite number", v)
		}
		if h.positive && v <= 0 {
			return c.errorf(k, "%v must be positive", v)
		}
	}
	if m.Objective != "" {
		if m.Name != "NMF" {
			return c.errorf(key+".objective", "%s has no objective (it applies to NMF)", m.Name)
		}
		if _, err := parseObjective(m.Objective); err != nil {
			return c.errorf(key+".objective", "%v", err)
		}
	}
	return nil
}

func parseObjective(s string) (bnmf.Objective, error) {
	for _, o := range []bnmf.Objective{bnmf.SquaredError, bnmf.IDivergence} {
		if o.String() == s {
			return o, nil
		}
	}
	return 0, fmt.Errorf("unknown objective %q; want %q or %q", s, bnmf.SquaredError, bnmf.IDivergence)
}

// Model returns the bnmf model that m describes. It returns an error for an
// unknown name or objective; LoadConfig has already checked both.
func (m *ModelConfig) Model() (bnmf.Model, error) {
	val := func(p *float64) float64 {
		if p == nil {
			return 0 // the bnmf default
		}
		return *p
	}
	lik := bnmf.Likelihood{AlphaSigma: val(m.AlphaSigma), BetaSigma: val(m.BetaSigma)}
	switch m.Name {
	case "GEE":
		return bnmf.GEE{Lambda: val(m.Lambda), Likelihood: lik}, nil
	case "GTT":
		return bnmf.GTT{Mu: val(m.Mu), Tau: val(m.Tau), Likelihood: lik}, nil
	case "GTTN":
		return bnmf.GTTN{MuMu: val(m.MuMu), TauMu: val(m.TauMu), A: val(m.A), B: val(m.B), Likelihood: lik}, nil
	case "GRRN":
		return bnmf.GRRN{
			MuMu: val(m.MuMu), TauMu: val(m.TauMu), A: val(m.A), B: val(m.B),
			AlphaLambda: val(m.AlphaLambda), BetaLambda: val(m.BetaLambda),
			Likelihood: lik,
		}, nil
	case "NMF":
		obj := bnmf.SquaredError
		if m.Objective != "" {
			var err error
			if obj, err = parseObjective(m.Objective); err != nil {
				return nil, err
			}
		}
		return bnmf.NMF{Objective: obj}, nil
	}
	return nil, fmt.Errorf("unknown model %q; the models are %v", m.Name, bnmf.Names())
}
