package bnmf

import (
	"encoding"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
)

// Specs lists every model this package implements, in the order reports
// show them: the paper's models first, as the paper presents them, then
// the baselines. It is the one place a model is registered: Names, ByName,
// the hyperparameter keys a study config accepts, the default list of a
// study's models and the report's order all derive from it. A new model
// is a file that defines its type and its Spec, plus its line here.
func Specs() []Spec {
	return []Spec{
		geeSpec(),
		gttSpec(),
		gttnSpec(),
		grrnSpec(),
		nmfSpec(),
		globalMeanSpec(),
		rowMeanSpec(),
		columnMeanSpec(),
		biasSpec(),
		gggSpec(),
		ggguSpec(),
		gggaSpec(),
		gggwSpec(),
		gllSpec(),
		glliSpec(),
		gvgSpec(),
		geeaSpec(),
		gl21Spec(),
		gvngSpec(),
		gegSpec(),
		pggSpec(),
		pgggSpec(),
	}
}

// Spec describes one model to code that configures models by name.
type Spec struct {
	// Name is the model's name, as Model.Name returns it.
	Name string
	// Zero is the model with every hyperparameter at its default.
	Zero Model
	// Params lists the hyperparameters a study config may set, in the
	// order config hashes encode them.
	Params []Param
	// Default reports whether a study that lists no models runs this one.
	// The paper's five models are the default; models added later are
	// not, so that the hash and the cells of a config that lists no
	// models stay what they were.
	Default bool
	// Baseline reports whether the model is a baseline: a simple rule with
	// no sampler and no posterior (GlobalMean, RowMean, ColumnMean, Bias),
	// which reports place beside the models and measure the other models'
	// skill against.
	Baseline bool
	// Nonnegative reports whether the model needs nonnegative training
	// values (NMF's multiplicative updates do).
	Nonnegative bool
	// RealValued reports whether W or Z may take negative values: the
	// prior of at least one factor has the whole real line as its support
	// (GGG, GGGU, GLL, GEG's Z, ...), so that the model's factors and the
	// intervals of its predictions may be negative even for nonnegative
	// data. It is false for the models whose factors are nonnegative (the
	// paper's models, NMF, GEEA, the Poisson models) and for the
	// baselines, whose rules have no factors to constrain.
	RealValued bool
	// Family is the model's likelihood family: Gaussian (the zero value)
	// or Poisson, whose models need counts and whose predictive
	// distributions are mixtures of Poissons.
	Family Family
	// PointEstimate reports that the model is an optimiser or a rule
	// (NMF, the baselines) with no posterior to sample, as
	// Result.PointEstimate says after a run: it sends no Draws and gets
	// no predictive scores or convergence diagnostics.
	PointEstimate bool
	// Doc is a one-line description for help texts.
	Doc string
}

// Support is the set of values a hyperparameter may take.
type Support int

const (
	// Real is any finite number.
	Real Support = iota
	// Positive is any finite number above zero.
	Positive
	// Choice is one of the names a Param lists in Choices.
	Choice
)

// Param describes one hyperparameter of a model.
type Param struct {
	// Key is the hyperparameter's key in a study config, in snake_case,
	// such as "alpha_sigma".
	Key string
	// Field names the model struct's field that holds it, such as
	// "AlphaSigma" (found through embedded structs). Config hashes use it
	// as the hyperparameter's name.
	Field string
	// Support is the set of values it may take. A Choice field's type
	// implements encoding.TextUnmarshaler.
	Support Support
	// Choices lists the names a Choice hyperparameter accepts.
	Choices []string
	// Default describes the value that the field's zero value means.
	Default string
	// OmitDefault reports that config hashes leave the hyperparameter
	// out when a config sets it to Default, as when it does not set it
	// (for a Choice, whose Default is one of its Choices): an option
	// added after studies had run, whose default is the sampler they
	// ran, so that spelling the default out keeps their hash.
	OmitDefault bool
	// Doc says what it is.
	Doc string
}

// ParamError is the error Spec.Configure returns for one hyperparameter.
type ParamError struct {
	// Key is the hyperparameter's config key.
	Key string
	// Msg says what is wrong with its value.
	Msg string
}

func (e *ParamError) Error() string { return e.Key + ": " + e.Msg }

// Names lists the names of the models this package implements, in the
// order of Specs.
func Names() []string {
	specs := Specs()
	names := make([]string, len(specs))
	for i, s := range specs {
		names[i] = s.Name
	}
	return names
}

// DefaultNames lists the models a study runs when its config lists none,
// in the order of Specs.
func DefaultNames() []string {
	var names []string
	for _, s := range Specs() {
		if s.Default {
			names = append(names, s.Name)
		}
	}
	return names
}

// Lookup returns the Spec of the model with the given name, or false when
// there is none. A Gaussian-likelihood model's name with BiasSuffix, such
// as "GRRN+b", names the model with offsets (Biased), whose Spec is the
// model's own with that name.
func Lookup(name string) (Spec, bool) {
	for _, s := range Specs() {
		if s.Name == name {
			return s, true
		}
	}
	return biasedSpec(name)
}

// ByName returns the model with the given name (as returned by Names) and
// default hyperparameters, or false when there is none.
func ByName(name string) (Model, bool) {
	s, ok := Lookup(name)
	return s.Zero, ok
}

// Param returns the hyperparameter with the given config key, or false
// when the model has none.
func (s Spec) Param(key string) (Param, bool) {
	i := slices.IndexFunc(s.Params, func(p Param) bool { return p.Key == key })
	if i < 0 {
		return Param{}, false
	}
	return s.Params[i], true
}

// ModelsWithParam lists the models that have a hyperparameter with the
// given config key, in the order of Specs.
func ModelsWithParam(key string) []string {
	var names []string
	for _, s := range Specs() {
		if _, ok := s.Param(key); ok {
			names = append(names, s.Name)
		}
	}
	return names
}

// Configure returns the model with the hyperparameters in values set and
// the others at their defaults. A key of values is a Param's Key; its
// value is a float64 (or int) for a number and a string for a Choice. An
// unknown key, a value of the wrong type or outside the hyperparameter's
// support is a *ParamError.
//
// It panics with a "bnmf: ..." message if the Spec's Zero has no field a
// Param names, a mistake in the Spec.
func (s Spec) Configure(values map[string]any) (Model, error) {
	if b, ok := s.Zero.(Biased); ok {
		// The model's own hyperparameters go to it, the offsets' (keys
		// with OffsetParamPrefix) to b.Offsets.
		inner := s
		inner.Zero = b.Model
		inner.Params = slices.DeleteFunc(slices.Clone(s.Params), func(p Param) bool { return strings.HasPrefix(p.Key, OffsetParamPrefix) })
		own := make(map[string]any, len(values))
		var keys []string
		for k, v := range values {
			if strings.HasPrefix(k, OffsetParamPrefix) {
				keys = append(keys, k)
			} else {
				own[k] = v
			}
		}
		m, err := inner.Configure(own)
		if err != nil {
			return nil, err
		}
		b.Model = m
		slices.Sort(keys)
		off := reflect.ValueOf(&b.Offsets).Elem()
		for _, key := range keys {
			p, ok := s.Param(key)
			if !ok {
				return nil, &ParamError{Key: key, Msg: fmt.Sprintf("%s has no hyperparameter %s", s.Name, key)}
			}
			if err := p.set(s.Name, off.FieldByName(p.Field), values[key]); err != nil {
				return nil, err
			}
		}
		return b, nil
	}
	zero := reflect.ValueOf(s.Zero)
	m := reflect.New(zero.Type()).Elem()
	m.Set(zero)
	keys := make([]string, 0, len(values))
	for k := range values {
		keys = append(keys, k)
	}
	slices.Sort(keys) // the first error found does not depend on map order
	for _, key := range keys {
		p, ok := s.Param(key)
		if !ok {
			return nil, &ParamError{Key: key, Msg: fmt.Sprintf("%s has no hyperparameter %s", s.Name, key)}
		}
		f := m.FieldByName(p.Field)
		if !f.IsValid() {
			panic(fmt.Sprintf("bnmf: model %s has no field %s for hyperparameter %s", s.Name, p.Field, key))
		}
		if err := p.set(s.Name, f, values[key]); err != nil {
			return nil, err
		}
	}
	return m.Interface().(Model), nil
}

// set stores v in the field f of the model called model after checking it
// against the support.
func (p Param) set(model string, f reflect.Value, v any) error {
	bad := func(format string, args ...any) error {
		return &ParamError{Key: p.Key, Msg: fmt.Sprintf(format, args...)}
	}
	if p.Support == Choice {
		str, ok := v.(string)
		if !ok {
			return bad("got %s, want one of %q", describe(v), p.Choices)
		}
		if !slices.Contains(p.Choices, str) {
			return bad("unknown %s %q for %s; want one of %q", p.Key, str, model, p.Choices)
		}
		u, ok := f.Addr().Interface().(encoding.TextUnmarshaler)
		if !ok {
			panic(fmt.Sprintf("bnmf: field %s of a choice hyperparameter does not implement encoding.TextUnmarshaler", p.Field))
		}
		if err := u.UnmarshalText([]byte(str)); err != nil {
			return bad("%v", err)
		}
		return nil
	}
	var x float64
	switch n := v.(type) {
	case float64:
		x = n
	case int:
		x = float64(n)
	default:
		return bad("got %s, want a number", describe(v))
	}
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return bad("%v is not a finite number", x)
	}
	if p.Support == Positive && x <= 0 {
		return bad("%v must be positive", x)
	}
	f.SetFloat(x)
	return nil
}

// describe names the type of a config value for an error.
func describe(v any) string {
	switch v := v.(type) {
	case nil:
		return "no value"
	case string:
		return fmt.Sprintf("a string %q", v)
	case bool:
		return fmt.Sprintf("a boolean %v", v)
	case int, float64:
		return fmt.Sprintf("a number %v", v)
	}
	return fmt.Sprintf("a %T", v)
}
