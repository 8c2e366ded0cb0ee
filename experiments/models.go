package experiments

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/bnmf-lab/bnmf/bnmf"
)

// ModelConfig names a model and optionally overrides its hyperparameters.
// The keys it accepts beside name are the config keys of the model's
// hyperparameters, as its bnmf.Spec lists them (for example lambda for
// GEE; mu_mu, tau_mu, a, b, alpha_lambda and beta_lambda for GRRN;
// alpha_sigma and beta_sigma for every Bayesian model; objective for
// NMF; z_draw for GEG, GVG and GVnG and draw for GLL and GLLI, entries or rows;
// eta_draw for GLLI and hyper_draw for GGGW, exact or upstream). An absent key
// keeps the model's default; a key that the model does not have is an
// error.
type ModelConfig struct {
	Name string `yaml:"name"`
	// Biases, when true, adds the offsets mu + b_i + c_j to a
	// Gaussian-likelihood model (bnmf.Biased, with the offsets' default
	// hyperparameters); the model is then named with bnmf.BiasSuffix in
	// records and reports ("GRRN+b"), so that a study may run a model
	// with and without them. It enters the config's hash only when set.
	// The offsets' hyperparameters are then keys too (bias_m0,
	// bias_tau_mu, bias_alpha_b, bias_beta_b, bias_alpha_c, bias_beta_c;
	// see bnmf.Offsets for their defaults).
	Biases bool `yaml:"biases"`
	// Hyperparameters maps a hyperparameter's config key to its value: a
	// number, or a name for a choice such as NMF's objective.
	Hyperparameters map[string]any `yaml:",inline"`
}

// validateModel checks the model at models[i] of c.
func (c *Config) validateModel(i int) error {
	m := &c.Models[i]
	key := fmt.Sprintf("models[%d]", i)
	if m.Name == "" {
		return c.errorf(key, "a model needs a name (one of %v)", bnmf.Names())
	}
	spec, ok := bnmf.Lookup(m.Name)
	if !ok {
		return c.errorf(key+".name", "unknown model %q; the models are %v", m.Name, bnmf.Names())
	}
	if m.Biases {
		if _, isBiased := spec.Zero.(bnmf.Biased); isBiased {
			return c.errorf(key+".biases", "%s already has offsets; write name: %s with biases: true, or name: %s alone", m.Name, strings.TrimSuffix(m.Name, bnmf.BiasSuffix), m.Name)
		}
		if !bnmf.AcceptsBiases(spec.Zero) {
			return c.errorf(key+".biases", "%s has no Gaussian likelihood; biases apply only to the Gaussian-likelihood models", m.Name)
		}
		spec, _ = bnmf.Lookup(m.Key()) // with the offsets' hyperparameters
	}
	if _, err := spec.Configure(m.Hyperparameters); err != nil {
		var pe *bnmf.ParamError
		if !errors.As(err, &pe) {
			return c.errorf(key, "%v", err)
		}
		k := key + "." + pe.Key
		if _, has := spec.Param(pe.Key); !has && strings.HasPrefix(pe.Key, bnmf.OffsetParamPrefix) {
			return c.errorf(k, "%s is a hyperparameter of the offsets; set biases: true to use it", pe.Key)
		}
		if _, has := spec.Param(pe.Key); !has {
			others := bnmf.ModelsWithParam(pe.Key)
			if len(others) == 0 {
				return c.errorf(k, "unknown key")
			}
			return c.errorf(k, "%s has no hyperparameter %s (it applies to %v)", m.Name, pe.Key, others)
		}
		return c.errorf(k, "%s", pe.Msg)
	}
	return nil
}

// Model returns the bnmf model that m describes. It returns an error for an
// unknown name or a bad hyperparameter; LoadConfig has already checked
// both.
func (m *ModelConfig) Model() (bnmf.Model, error) {
	spec, ok := bnmf.Lookup(m.Key())
	if !ok {
		return nil, fmt.Errorf("unknown model %q; the models are %v", m.Key(), bnmf.Names())
	}
	return spec.Configure(m.Hyperparameters)
}

// Key returns the name of the model that m describes in records and
// reports: Name, with bnmf.BiasSuffix when Biases is set.
func (m *ModelConfig) Key() string {
	if m.Biases {
		return m.Name + bnmf.BiasSuffix
	}
	return m.Name
}

// hashJSON encodes m for Config.Hash: an object holding Name and then each
// hyperparameter the config sets, named by its bnmf.Param.Field, in the
// order of the model's Params. (Before models were registered the config
// held one field per hyperparameter in that order, and this encoding is
// byte for byte what encoding/json made of it, so the hashes of stored
// studies stay valid.) A number is encoded as a float64. A hyperparameter
// whose Param has OmitDefault (GEG's z_draw, GLL's draw) is left out when
// set to its default, so that it enters the hash only when it changes
// the sampler.
func (m *ModelConfig) hashJSON() ([]byte, error) {
	var b bytes.Buffer
	name, err := json.Marshal(m.Name)
	if err != nil {
		return nil, err
	}
	b.WriteString(`{"Name":`)
	b.Write(name)
	spec, _ := bnmf.Lookup(m.Key()) // Name's, and with biases the offsets' after
	for _, p := range spec.Params {
		v, ok := m.Hyperparameters[p.Key]
		if !ok {
			continue
		}
		if str, isStr := v.(string); isStr && p.OmitDefault && str == p.Default {
			continue // an option set to its default hashes as unset
		}
		if n, isInt := v.(int); isInt {
			v = float64(n)
		}
		enc, err := json.Marshal(v)
		if err != nil {
			return nil, fmt.Errorf("models: %s.%s: %w", m.Name, p.Key, err)
		}
		fmt.Fprintf(&b, ",%q:", p.Field)
		b.Write(enc)
	}
	if m.Biases {
		// Only when set, so that every other config keeps its hash.
		b.WriteString(`,"Biases":true`)
	}
	b.WriteString("}")
	return b.Bytes(), nil
}

// defaultModels returns the models a config that lists none runs.
func defaultModels() []ModelConfig {
	var models []ModelConfig
	for _, name := range bnmf.DefaultNames() {
		models = append(models, ModelConfig{Name: name})
	}
	return slices.Clip(models)
}
