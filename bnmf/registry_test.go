package bnmf

import (
	"context"
	"errors"
	"reflect"
	"slices"
	"testing"
)

func TestSpecsAreConsistent(t *testing.T) {
	seen := map[string]bool{}
	for _, s := range Specs() {
		if seen[s.Name] {
			t.Errorf("model %s is registered twice", s.Name)
		}
		seen[s.Name] = true
		if s.Zero == nil || s.Zero.Name() != s.Name {
			t.Errorf("%s: Zero is %#v, whose name differs", s.Name, s.Zero)
		}
		if s.Doc == "" {
			t.Errorf("%s has no doc", s.Name)
		}
		typ := reflect.TypeOf(s.Zero)
		for _, p := range s.Params {
			f, ok := typ.FieldByName(p.Field)
			if !ok {
				t.Errorf("%s: hyperparameter %s names field %s, which %v lacks", s.Name, p.Key, p.Field, typ)
				continue
			}
			if p.Support != Choice && f.Type.Kind() != reflect.Float64 {
				t.Errorf("%s.%s is a %v, not a float64", s.Name, p.Field, f.Type)
			}
			if p.Doc == "" || p.Default == "" {
				t.Errorf("%s.%s lacks a doc or a default", s.Name, p.Key)
			}
			if p.OmitDefault && (p.Support != Choice || !slices.Contains(p.Choices, p.Default)) {
				t.Errorf("%s.%s omits its default %q from hashes, but is not a choice among %q", s.Name, p.Key, p.Default, p.Choices)
			}
		}
	}
	if got, want := DefaultNames(), []string{"GEE", "GTT", "GTTN", "GRRN", "NMF"}; !slices.Equal(got, want) {
		t.Errorf("DefaultNames() = %v, want %v: the default list is part of existing config hashes", got, want)
	}
	if got := Names(); !slices.Equal(got[:5], DefaultNames()) {
		t.Errorf("Names() = %v does not start with the paper's models", got)
	}
	for _, s := range Specs() {
		if s.Baseline && s.Default {
			t.Errorf("%s is a baseline run by default: configs that list no models would change their hash", s.Name)
		}
	}
	if s, _ := Lookup("ColumnMean"); !s.Baseline {
		t.Error("ColumnMean is not marked a baseline")
	}
}

func TestConfigure(t *testing.T) {
	tests := []struct {
		model  string
		values map[string]any
		want   Model
		errKey string
	}{
		{"GEE", nil, GEE{}, ""},
		{"GEE", map[string]any{"lambda": 2, "beta_sigma": 0.5}, GEE{Lambda: 2, Likelihood: Likelihood{BetaSigma: 0.5}}, ""},
		{"GTT", map[string]any{"mu": -1.5, "tau": 3.0}, GTT{Mu: -1.5, Tau: 3}, ""},
		{"GRRN", map[string]any{"beta_lambda": 0.6, "a": 2.0, "alpha_sigma": 4.0}, GRRN{BetaLambda: 0.6, A: 2, Likelihood: Likelihood{AlphaSigma: 4}}, ""},
		{"NMF", map[string]any{"objective": "i-divergence"}, NMF{Objective: IDivergence}, ""},
		{"GRRN", map[string]any{"lambda": 0.1}, nil, "lambda"},
		{"GEE", map[string]any{"lambda": -1.0}, nil, "lambda"},
		{"GEE", map[string]any{"lambda": 0}, nil, "lambda"},
		{"GTT", map[string]any{"mu": "x"}, nil, "mu"},
		{"NMF", map[string]any{"objective": "kl"}, nil, "objective"},
		{"NMF", map[string]any{"objective": 1.0}, nil, "objective"},
	}
	for _, tt := range tests {
		spec, ok := Lookup(tt.model)
		if !ok {
			t.Fatalf("no model %s", tt.model)
		}
		got, err := spec.Configure(tt.values)
		if tt.errKey != "" {
			var pe *ParamError
			if !errors.As(err, &pe) || pe.Key != tt.errKey {
				t.Errorf("%s %v: err = %v, want a ParamError at %s", tt.model, tt.values, err, tt.errKey)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s %v = %#v, %v; want %#v", tt.model, tt.values, got, err, tt.want)
		}
	}
}

func TestModelsWithParam(t *testing.T) {
	if got, want := ModelsWithParam("tau_mu"), []string{"GTTN", "GRRN"}; !slices.Equal(got, want) {
		t.Errorf("ModelsWithParam(tau_mu) = %v, want %v", got, want)
	}
	if got := ModelsWithParam("nothing"); got != nil {
		t.Errorf("ModelsWithParam(nothing) = %v", got)
	}
}

// TestSpecPointEstimate checks each Spec's PointEstimate against what a
// run of the model reports.
func TestSpecPointEstimate(t *testing.T) {
	train, _, _ := planted(t, 8, 6, 2, 0.8, 0.3, 23)
	for _, s := range Specs() {
		data := train
		if s.Family == Poisson {
			data = roundedCounts(t, train)
		}
		r, err := Run(context.Background(), s.Zero, data, Settings{Rank: 2, Sweeps: 2, Seed: 1, Workers: 1})
		if err != nil {
			t.Fatalf("%s: %v", s.Name, err)
		}
		if r.PointEstimate != s.PointEstimate {
			t.Errorf("%s: Spec.PointEstimate %v, but a run reports %v", s.Name, s.PointEstimate, r.PointEstimate)
		}
	}
}
