package experiments

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/bnmf-lab/bnmf/bnmf"
	"github.com/bnmf-lab/bnmf/dataset"
)

// TestStoredStudyHashes checks that every committed study's config still
// hashes to the config hash its manifest and records carry, so that the
// stored results stay valid (they would be refused on resume or verify
// otherwise). It covers a noise study's hash, and so what it covers
// (noise_ratios and noise_holdout among them).
func TestStoredStudyHashes(t *testing.T) {
	dirs, err := filepath.Glob("../results/*/manifest.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) < 6 {
		t.Fatalf("found %d stored studies, want the six of results/", len(dirs))
	}
	for _, manifest := range dirs {
		dir := filepath.Dir(manifest)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			b, err := os.ReadFile(manifest)
			if err != nil {
				t.Fatal(err)
			}
			var m Manifest
			if err := json.Unmarshal(b, &m); err != nil {
				t.Fatal(err)
			}
			cfg, err := LoadConfig(filepath.Join(dir, "config.yaml"))
			if err != nil {
				t.Fatal(err)
			}
			if p := cfg.Dataset.Path; p != "" {
				// A dataset given as a file enters the hash by its
				// content's digest, so the file must be at hand (paths
				// are relative to the repository's root).
				b, err := os.ReadFile(filepath.Join("..", p))
				if errors.Is(err, os.ErrNotExist) {
					t.Skipf("its data file %s is not here", p)
				}
				if err != nil {
					t.Fatal(err)
				}
				sum := sha256.Sum256(b)
				cfg.dataSHA256 = hex.EncodeToString(sum[:])
			}
			if got := mustHash(t, cfg); got != m.ConfigHash {
				t.Errorf("config.yaml hashes to %s, the manifest says %s", got, m.ConfigHash)
			}
			// A label names the data in reports only: adding one keeps
			// the study's records valid.
			cfg.Dataset.Label = "A label of its own"
			if got := mustHash(t, cfg); got != m.ConfigHash {
				t.Errorf("config.yaml with a dataset label hashes to %s, the manifest says %s", got, m.ConfigHash)
			}
			if got := len(cfg.Cells()); got != len(m.Cells) {
				t.Errorf("config.yaml has %d cells, the manifest %d", got, len(m.Cells))
			}
		})
	}
}

// legacyModelConfig is the model section of a config as it was before
// models were registered: one pointer field per hyperparameter. Configs
// hashed with it name stored results, so the registry's encoding must
// give the same bytes.
type legacyModelConfig struct {
	Name        string
	Lambda      *float64 `json:",omitempty"`
	Mu          *float64 `json:",omitempty"`
	Tau         *float64 `json:",omitempty"`
	MuMu        *float64 `json:",omitempty"`
	TauMu       *float64 `json:",omitempty"`
	A           *float64 `json:",omitempty"`
	B           *float64 `json:",omitempty"`
	AlphaLambda *float64 `json:",omitempty"`
	BetaLambda  *float64 `json:",omitempty"`
	AlphaSigma  *float64 `json:",omitempty"`
	BetaSigma   *float64 `json:",omitempty"`
	Objective   string   `json:",omitempty"`
}

func TestModelHashEncodingMatchesLegacy(t *testing.T) {
	f := func(x float64) *float64 { return &x }
	tests := []struct {
		cfg    ModelConfig
		legacy legacyModelConfig
	}{
		{ModelConfig{Name: "GEE"}, legacyModelConfig{Name: "GEE"}},
		{ModelConfig{Name: "GEE", Hyperparameters: map[string]any{"beta_sigma": 2, "lambda": 0.25}},
			legacyModelConfig{Name: "GEE", Lambda: f(0.25), BetaSigma: f(2)}},
		{ModelConfig{Name: "GTT", Hyperparameters: map[string]any{"tau": 1e-7, "mu": -3.5}},
			legacyModelConfig{Name: "GTT", Mu: f(-3.5), Tau: f(1e-7)}},
		{ModelConfig{Name: "GRRN", Hyperparameters: map[string]any{"alpha_sigma": 1.5, "beta_lambda": 0.6, "a": 2, "tau_mu": 1e21, "mu_mu": 0.1}},
			legacyModelConfig{Name: "GRRN", MuMu: f(0.1), TauMu: f(1e21), A: f(2), BetaLambda: f(0.6), AlphaSigma: f(1.5)}},
		{ModelConfig{Name: "NMF", Hyperparameters: map[string]any{"objective": "i-divergence"}},
			legacyModelConfig{Name: "NMF", Objective: "i-divergence"}},
	}
	for _, tt := range tests {
		got, err := tt.cfg.hashJSON()
		if err != nil {
			t.Fatal(err)
		}
		want, err := json.Marshal(tt.legacy)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("%s: hash encoding %s, want %s", tt.cfg.Name, got, want)
		}
	}
}

// TestOneNonFiniteSentinel checks that the loaders' and the samplers'
// non-finite sentinels are one, so errors.Is matches either with both.
func TestOneNonFiniteSentinel(t *testing.T) {
	if dataset.ErrNonFinite != bnmf.ErrNonFinite {
		t.Fatal("dataset.ErrNonFinite and bnmf.ErrNonFinite differ")
	}
	path := filepath.Join(t.TempDir(), "x.csv")
	if err := os.WriteFile(path, []byte("1,1,2\n1,2,NaN\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := dataset.OpenFile(path, "triplets", dataset.Options{})
	if !errors.Is(err, bnmf.ErrNonFinite) {
		t.Errorf("a NaN in a triplet file gave %v, which does not wrap bnmf.ErrNonFinite", err)
	}
}
