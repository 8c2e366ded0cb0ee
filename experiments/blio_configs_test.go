package experiments

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestBrouwerLioConfigs checks the configs of Brouwer & Lio's studies on
// GDSC IC50 (configs/blio-gdsc-*.yaml) against the settings of upstream's
// experiment scripts, read from experiments/<study>/drug_sensitivity_gdsc/
// and sameK_drug_sensitivity_gdsc/ of its pinned commit, and, when
// $BNMF_DATA_DIR holds GDSC, that each prepares against the data (ranks
// and fractions admit the splits).
func TestBrouwerLioConfigs(t *testing.T) {
	fractions := []float64{0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9}
	ratios := []float64{0, 0.1, 0.2, 0.5, 1, 2, 5, 10}
	bayesian := []string{"GEE", "GTT", "GTTN", "GRRN", "GlobalMean", "RowMean", "ColumnMean", "Bias"}
	tests := []struct {
		file                 string
		kind                 string
		models               []string
		ranks                []int
		sweeps, burnIn, thin int
		grid                 []float64
	}{
		{"blio-gdsc-sparsity.yaml", KindSparsity, bayesian, []int{8, 9}, 250, 200, 2, fractions},
		{"blio-gdsc-sparsity-samek.yaml", KindSparsity, bayesian, []int{5}, 250, 200, 1, fractions},
		{"blio-gdsc-sparsity-nmf.yaml", KindSparsity, []string{"NMF"}, []int{4, 5}, 1000, 0, 1, fractions},
		{"blio-gdsc-noise.yaml", KindNoise, bayesian, []int{5, 8, 9}, 250, 200, 2, ratios},
		{"blio-gdsc-noise-nmf.yaml", KindNoise, []string{"NMF"}, []int{4, 5}, 1000, 0, 1, ratios},
		{"blio-gdsc-convergence.yaml", KindConvergence, append([]string{"GEE", "GTT", "GTTN", "GRRN", "NMF"}, bayesian[4:]...), []int{20}, 200, 180, 1, nil},
	}
	dataDir := os.Getenv("BNMF_DATA_DIR")
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			cfg, err := LoadConfig(filepath.Join("..", "configs", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, m := range cfg.Models {
				names = append(names, m.Name)
			}
			grid := cfg.Fractions
			if tt.kind == KindNoise {
				grid = cfg.NoiseRatios
			}
			if cfg.Kind != tt.kind || cfg.Dataset.Name != "gdsc-ic50" || !slices.Equal(names, tt.models) || !slices.Equal(cfg.Ranks, tt.ranks) ||
				cfg.Sweeps != tt.sweeps || cfg.BurnIn != tt.burnIn || cfg.Thin != tt.thin || cfg.Repeats != 10 || !slices.Equal(grid, tt.grid) {
				t.Errorf("got %s on %s, models %v, ranks %v, %d sweeps, burn-in %d, thin %d, %d repeats, grid %v; want %s on gdsc-ic50, %v, %v, %d, %d, %d, 10, %v",
					cfg.Kind, cfg.Dataset.Name, names, cfg.Ranks, cfg.Sweeps, cfg.BurnIn, cfg.Thin, cfg.Repeats, grid,
					tt.kind, tt.models, tt.ranks, tt.sweeps, tt.burnIn, tt.thin, tt.grid)
			}
			if tt.kind != KindConvergence && cfg.Coverage != "both" {
				t.Errorf("coverage %q; upstream redraws until every row and column keeps a training entry", cfg.Coverage)
			}
			if tt.kind == KindNoise && cfg.NoiseHoldout != 0.1 {
				t.Errorf("noise holdout %v; upstream trains on 90%% of the observed entries", cfg.NoiseHoldout)
			}
			// Upstream's hyperparameters, written out in each config.
			want := map[string]map[string]any{
				"GEE":  {"lambda": 0.1, "alpha_sigma": 1, "beta_sigma": 1},
				"GTT":  {"mu": 0, "tau": 0.1, "alpha_sigma": 1, "beta_sigma": 1},
				"GTTN": {"mu_mu": 0, "tau_mu": 0.1, "a": 1, "b": 1, "alpha_sigma": 1, "beta_sigma": 1},
				"NMF":  {"objective": "i-divergence"},
			}
			if tt.kind == KindConvergence {
				want["GTTN"] = map[string]any{"mu_mu": 0.1, "tau_mu": 0.1, "a": 1, "b": 1, "alpha_sigma": 1, "beta_sigma": 1}
			}
			for _, m := range cfg.Models {
				w, ok := want[m.Name]
				if !ok {
					continue
				}
				if len(m.Hyperparameters) != len(w) {
					t.Errorf("%s: hyperparameters %v, want %v", m.Name, m.Hyperparameters, w)
				}
				for k, v := range w {
					if m.Hyperparameters[k] != v {
						t.Errorf("%s: %s = %v, want %v", m.Name, k, m.Hyperparameters[k], v)
					}
				}
			}
			if dataDir == "" {
				t.Skip("BNMF_DATA_DIR is not set; the config loads, but is not checked against GDSC")
			}
			if _, err := os.Stat(filepath.Join(dataDir, "bmf-priors", "GDSC", "ic50.txt")); err != nil {
				t.Skipf("GDSC is not under BNMF_DATA_DIR (%v)", err)
			}
			if _, err := Prepare(cfg, PrepareOptions{DataDir: dataDir}); err != nil {
				t.Fatal(err)
			}
		})
	}
}
