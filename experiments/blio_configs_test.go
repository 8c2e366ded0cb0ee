package experiments

import (
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/bnmf-lab/bnmf/bnmf"
	"github.com/bnmf-lab/bnmf/internal/brouwerlio"
)

// TestBrouwerLioConfigs checks the configs of Brouwer & Lio's sparsity,
// noise and convergence studies on GDSC IC50 and MovieLens 100K
// (configs/blio-{gdsc,ml100k}-{sparsity,noise,convergence}*.yaml) against
// the settings of upstream's experiment scripts, read from
// experiments/<study>/drug_sensitivity_gdsc/, movielens_100K/ and their
// sameK_ variants of its pinned commit, and, when $BNMF_DATA_DIR holds the
// dataset, that each prepares against the data (ranks and fractions admit
// the splits).
func TestBrouwerLioConfigs(t *testing.T) {
	fractions := []float64{0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9}
	ratios := []float64{0, 0.1, 0.2, 0.5, 1, 2, 5, 10}
	bayesian := []string{"GEE", "GTT", "GTTN", "GRRN", "GlobalMean", "RowMean", "ColumnMean", "Bias"}
	// MovieLens 100K: upstream's fractions known 0.07 down to 0.02.
	mlFractions := []float64{0.93, 0.94, 0.95, 0.96, 0.97, 0.98}
	mlBayesian := []string{"GEE", "GTT", "GTTN", "GEEA", "GEG", "GGGU", "GLL", "GLLI", "GRRN", "GlobalMean", "RowMean", "ColumnMean", "Bias"}
	mlConvergence := slices.Concat([]string{"GEE", "GTT", "GTTN", "GEEA", "GEG", "GGGU", "GLL", "GLLI"},
		[]string{"GGG", "GGGA", "GGGW", "GVG", "GVnG", "GL21", "PGG", "PGGG"}, []string{"GRRN", "NMF"}, bayesian[4:])
	// The other eight priors joined the studies whose settings upstream
	// gives them too, before GRRN and the baselines.
	mlSameK := slices.Concat(mlBayesian[:8], []string{"GGG", "GGGA", "GGGW", "GL21", "PGG", "PGGG"}, mlBayesian[8:])
	gdscSameK := slices.Concat(bayesian[:3], []string{"GGG", "GGGA", "GL21", "GEEA", "GEG", "GGGU", "GLL", "GLLI"}, bayesian[3:])
	// GDSC's noise study: the six that upstream runs at K = 5 with its
	// settings (250 sweeps, thinning 2) joined; each at its own K and the
	// others, which upstream runs with other thinning or sweeps, have
	// configs of their own, at K = 5 too where the settings of both of
	// upstream's noise experiments are the same.
	poisson := []string{"PGG", "PGGG"}
	volume := []string{"GVG", "GVnG"}
	nmf := []string{"NMF"}
	tests := []struct {
		file                 string
		kind                 string
		dataset              string
		models               []string
		ranks                []int
		repeats              int
		sweeps, burnIn, thin int
		grid                 []float64
	}{
		{"blio-gdsc-sparsity.yaml", KindSparsity, "gdsc-ic50", bayesian, []int{8, 9}, 10, 250, 200, 2, fractions},
		// The other models of upstream's per-model-K sparsity study, each
		// group at its K: GEEA and GGGA 10, GEG, GGGU and GGG 6, GGGW 16
		// (thinning 2); GLL and GLLI 10, GL21 6 (thinning 1); GVG 10, GVnG
		// 11 (120 sweeps, burn-in 100); PGG 4, PGGG 5 (cast, thinning 2).
		{"blio-gdsc-sparsity-geea.yaml", KindSparsity, "gdsc-ic50", []string{"GEEA", "GGGA"}, []int{10}, 10, 250, 200, 2, fractions},
		{"blio-gdsc-sparsity-geg.yaml", KindSparsity, "gdsc-ic50", []string{"GEG", "GGGU", "GGG"}, []int{6}, 10, 250, 200, 2, fractions},
		{"blio-gdsc-sparsity-gggw.yaml", KindSparsity, "gdsc-ic50", []string{"GGGW"}, []int{16}, 10, 250, 200, 2, fractions},
		{"blio-gdsc-sparsity-gll.yaml", KindSparsity, "gdsc-ic50", []string{"GLL", "GLLI"}, []int{10}, 10, 250, 200, 1, fractions},
		{"blio-gdsc-sparsity-gll-rows.yaml", KindSparsity, "gdsc-ic50", []string{"GLL", "GLLI"}, []int{10}, 10, 250, 200, 1, fractions},
		{"blio-gdsc-sparsity-glli-upstream.yaml", KindSparsity, "gdsc-ic50", []string{"GLLI"}, []int{10}, 10, 250, 200, 1, fractions},
		{"blio-gdsc-sparsity-gggw-upstream.yaml", KindSparsity, "gdsc-ic50", []string{"GGGW"}, []int{16}, 10, 250, 200, 2, fractions},
		{"blio-gdsc-sparsity-gl21.yaml", KindSparsity, "gdsc-ic50", []string{"GL21"}, []int{6}, 10, 250, 200, 1, fractions},
		{"blio-gdsc-sparsity-gvg.yaml", KindSparsity, "gdsc-ic50", []string{"GVG"}, []int{10}, 10, 120, 100, 1, fractions},
		{"blio-gdsc-sparsity-gvng.yaml", KindSparsity, "gdsc-ic50", []string{"GVnG"}, []int{11}, 10, 120, 100, 1, fractions},
		{"blio-gdsc-sparsity-pgg.yaml", KindSparsity, "gdsc-ic50", []string{"PGG"}, []int{4}, 10, 250, 200, 2, fractions},
		{"blio-gdsc-sparsity-pggg.yaml", KindSparsity, "gdsc-ic50", []string{"PGGG"}, []int{5}, 10, 250, 200, 2, fractions},
		{"blio-gdsc-sparsity-samek.yaml", KindSparsity, "gdsc-ic50", gdscSameK, []int{5}, 10, 250, 200, 1, fractions},
		{"blio-gdsc-sparsity-samek-pgg.yaml", KindSparsity, "gdsc-ic50", poisson, []int{5}, 10, 250, 200, 1, fractions},
		// Upstream's same-K GGGW thins by 2, its volume priors run 120
		// sweeps with burn-in 100.
		{"blio-gdsc-sparsity-samek-gggw.yaml", KindSparsity, "gdsc-ic50", []string{"GGGW"}, []int{5}, 10, 250, 200, 2, fractions},
		{"blio-gdsc-sparsity-samek-gvg.yaml", KindSparsity, "gdsc-ic50", volume, []int{5}, 10, 120, 100, 1, fractions},
		{"blio-gdsc-sparsity-samek-gvng-rows.yaml", KindSparsity, "gdsc-ic50", []string{"GVnG"}, []int{5}, 10, 120, 100, 1, fractions},
		{"blio-gdsc-sparsity-samek-gvng-rows-half.yaml", KindSparsity, "gdsc-ic50", []string{"GVnG"}, []int{5}, 10, 120, 100, 1, fractions},
		{"blio-gdsc-sparsity-nmf.yaml", KindSparsity, "gdsc-ic50", nmf, []int{4, 5}, 10, 1000, 0, 1, fractions},
		{"blio-gdsc-noise.yaml", KindNoise, "gdsc-ic50", bayesian, []int{5, 8, 9}, 10, 250, 200, 2, ratios},
		{"blio-gdsc-noise-geea.yaml", KindNoise, "gdsc-ic50", []string{"GEEA", "GGGA"}, []int{5, 10}, 10, 250, 200, 2, ratios},
		{"blio-gdsc-noise-geg.yaml", KindNoise, "gdsc-ic50", []string{"GEG", "GGGU", "GGG"}, []int{5, 6}, 10, 250, 200, 2, ratios},
		{"blio-gdsc-noise-gggw.yaml", KindNoise, "gdsc-ic50", []string{"GGGW"}, []int{5, 16}, 10, 250, 200, 2, ratios},
		{"blio-gdsc-noise-gll.yaml", KindNoise, "gdsc-ic50", []string{"GLL", "GLLI"}, []int{5, 10}, 10, 250, 200, 1, ratios},
		{"blio-gdsc-noise-gl21.yaml", KindNoise, "gdsc-ic50", []string{"GL21"}, []int{5, 6}, 10, 250, 200, 1, ratios},
		{"blio-gdsc-noise-gvg.yaml", KindNoise, "gdsc-ic50", []string{"GVG"}, []int{5, 10}, 10, 120, 100, 1, ratios},
		{"blio-gdsc-noise-gvng.yaml", KindNoise, "gdsc-ic50", []string{"GVnG"}, []int{5, 11}, 10, 120, 100, 1, ratios},
		{"blio-gdsc-noise-nmf.yaml", KindNoise, "gdsc-ic50", nmf, []int{4, 5}, 10, 1000, 0, 1, ratios},
		{"blio-gdsc-convergence.yaml", KindConvergence, "gdsc-ic50", slices.Concat([]string{"GEE", "GTT", "GTTN", "GGG", "GGGA", "GGGW", "GVG", "GVnG", "GEEA", "GEG", "GGGU", "GLL", "GLLI", "GL21", "GRRN", "NMF"}, bayesian[4:]), []int{20}, 10, 200, 180, 1, nil},
		{"blio-gdsc-convergence-pgg.yaml", KindConvergence, "gdsc-ic50", poisson, []int{20}, 10, 200, 180, 1, nil},
		{"blio-gdsc-convergence-gll-rows.yaml", KindConvergence, "gdsc-ic50", []string{"GLL", "GLLI"}, []int{20}, 10, 200, 180, 1, nil},
		{"blio-gdsc-convergence-glli-upstream.yaml", KindConvergence, "gdsc-ic50", []string{"GLLI"}, []int{20}, 10, 200, 180, 1, nil},
		{"blio-gdsc-convergence-geg-rows.yaml", KindConvergence, "gdsc-ic50", []string{"GEG"}, []int{20}, 10, 200, 180, 1, nil},
		// GVnG with upstream's block draws of Z (-rows) and with half of
		// upstream's gamma too (-rows-half), one change at a time from
		// the studies above.
		{"blio-gdsc-convergence-gvng-rows.yaml", KindConvergence, "gdsc-ic50", []string{"GVnG"}, []int{20}, 10, 200, 180, 1, nil},
		{"blio-gdsc-convergence-gvng-rows-half.yaml", KindConvergence, "gdsc-ic50", []string{"GVnG"}, []int{20}, 10, 200, 180, 1, nil},
		// Per-model K: GLL 3, the others 2 (GGG and GL21 too), NMF 1 (20
		// iterations); GGGA 4, GGGW 5, PGG and PGGG 1 (thinning 2); GVG 3,
		// GVnG 2 (120 sweeps, burn-in 100, thinning 1).
		{"blio-ml100k-sparsity.yaml", KindSparsity, "movielens-100k", slices.Concat(mlBayesian[:8], []string{"GGG", "GL21"}, mlBayesian[8:]), []int{2, 3}, 10, 250, 200, 2, mlFractions},
		{"blio-ml100k-sparsity-geg-rows.yaml", KindSparsity, "movielens-100k", []string{"GEG"}, []int{2, 3}, 10, 250, 200, 2, mlFractions},
		{"blio-ml100k-sparsity-ggga.yaml", KindSparsity, "movielens-100k", []string{"GGGA"}, []int{4}, 10, 250, 200, 2, mlFractions},
		{"blio-ml100k-sparsity-gggw.yaml", KindSparsity, "movielens-100k", []string{"GGGW"}, []int{5}, 10, 250, 200, 2, mlFractions},
		{"blio-ml100k-sparsity-gggw-upstream.yaml", KindSparsity, "movielens-100k", []string{"GGGW"}, []int{5}, 10, 250, 200, 2, mlFractions},
		{"blio-ml100k-sparsity-gvg.yaml", KindSparsity, "movielens-100k", []string{"GVG"}, []int{3}, 10, 120, 100, 1, mlFractions},
		{"blio-ml100k-sparsity-gvng.yaml", KindSparsity, "movielens-100k", []string{"GVnG"}, []int{2}, 10, 120, 100, 1, mlFractions},
		{"blio-ml100k-sparsity-pgg.yaml", KindSparsity, "movielens-100k", poisson, []int{1}, 10, 250, 200, 2, mlFractions},
		{"blio-ml100k-sparsity-nmf.yaml", KindSparsity, "movielens-100k", nmf, []int{1}, 10, 20, 0, 1, mlFractions},
		// Same K: 5, thinning 1, NMF 500 iterations, the volume priors 150
		// sweeps with burn-in 100; ten and twenty repeats.
		{"blio-ml100k-sparsity-samek.yaml", KindSparsity, "movielens-100k", mlSameK, []int{5}, 10, 250, 200, 1, mlFractions},
		{"blio-ml100k-sparsity-samek-geg-rows.yaml", KindSparsity, "movielens-100k", []string{"GEG"}, []int{5}, 10, 250, 200, 1, mlFractions},
		{"blio-ml100k-sparsity-samek-gvg.yaml", KindSparsity, "movielens-100k", volume, []int{5}, 10, 150, 100, 1, mlFractions},
		{"blio-ml100k-sparsity-samek-nmf.yaml", KindSparsity, "movielens-100k", nmf, []int{5}, 10, 500, 0, 1, mlFractions},
		{"blio-ml100k-sparsity-samek-20.yaml", KindSparsity, "movielens-100k", mlSameK, []int{5}, 20, 250, 200, 1, mlFractions},
		{"blio-ml100k-sparsity-samek-20-geg-rows.yaml", KindSparsity, "movielens-100k", []string{"GEG"}, []int{5}, 20, 250, 200, 1, mlFractions},
		{"blio-ml100k-sparsity-samek-20-gvg.yaml", KindSparsity, "movielens-100k", volume, []int{5}, 20, 150, 100, 1, mlFractions},
		{"blio-ml100k-sparsity-samek-20-nmf.yaml", KindSparsity, "movielens-100k", nmf, []int{5}, 20, 500, 0, 1, mlFractions},
		// Noise at K = 2: GEE, GEEA and GL21 run 250 iterations, GTT,
		// GTTN, GEG, GGGU and GGG 100 (burn-in 80, thinning 1), NMF 20 at
		// K = 1; GGGA at 4 and GGGW at 5 run 100, GVG at 3 and GVnG at 2
		// run 70 (burn-in 50). PGG and PGGG cannot run in a noise study.
		{"blio-ml100k-noise.yaml", KindNoise, "movielens-100k", slices.Concat([]string{"GEE", "GEEA", "GL21"}, mlBayesian[8:]), []int{2}, 10, 250, 200, 2, ratios},
		{"blio-ml100k-noise-100.yaml", KindNoise, "movielens-100k", []string{"GTT", "GTTN", "GEG", "GGGU", "GGG"}, []int{2}, 10, 100, 80, 1, ratios},
		{"blio-ml100k-noise-100-geg-rows.yaml", KindNoise, "movielens-100k", []string{"GEG"}, []int{2}, 10, 100, 80, 1, ratios},
		{"blio-ml100k-noise-ggga.yaml", KindNoise, "movielens-100k", []string{"GGGA"}, []int{4}, 10, 100, 80, 1, ratios},
		{"blio-ml100k-noise-gggw.yaml", KindNoise, "movielens-100k", []string{"GGGW"}, []int{5}, 10, 100, 80, 1, ratios},
		{"blio-ml100k-noise-gggw-upstream.yaml", KindNoise, "movielens-100k", []string{"GGGW"}, []int{5}, 10, 100, 80, 1, ratios},
		{"blio-ml100k-noise-gvg.yaml", KindNoise, "movielens-100k", []string{"GVG"}, []int{3}, 10, 70, 50, 1, ratios},
		{"blio-ml100k-noise-gvng.yaml", KindNoise, "movielens-100k", []string{"GVnG"}, []int{2}, 10, 70, 50, 1, ratios},
		{"blio-ml100k-noise-nmf.yaml", KindNoise, "movielens-100k", nmf, []int{1}, 10, 20, 0, 1, ratios},
		{"blio-ml100k-convergence.yaml", KindConvergence, "movielens-100k", mlConvergence, []int{20}, 10, 200, 180, 1, nil},
		{"blio-ml100k-convergence-gll-rows.yaml", KindConvergence, "movielens-100k", []string{"GLL", "GLLI"}, []int{20}, 10, 200, 180, 1, nil},
		{"blio-ml100k-convergence-glli-upstream.yaml", KindConvergence, "movielens-100k", []string{"GLLI"}, []int{20}, 10, 200, 180, 1, nil},
		{"blio-ml100k-convergence-geg-rows.yaml", KindConvergence, "movielens-100k", []string{"GEG"}, []int{20}, 10, 200, 180, 1, nil},
		{"blio-ml100k-convergence-gvg-rows.yaml", KindConvergence, "movielens-100k", []string{"GVG"}, []int{20}, 10, 200, 180, 1, nil},
		{"blio-ml100k-convergence-gvng-rows.yaml", KindConvergence, "movielens-100k", []string{"GVnG"}, []int{20}, 10, 200, 180, 1, nil},
		{"blio-ml100k-convergence-gvng-rows-half.yaml", KindConvergence, "movielens-100k", []string{"GVnG"}, []int{20}, 10, 200, 180, 1, nil},
	}
	var matched []string
	for _, pattern := range []string{"blio-*-sparsity*.yaml", "blio-*-noise*.yaml", "blio-*-convergence*.yaml"} {
		m, err := filepath.Glob(filepath.Join("..", "configs", pattern))
		if err != nil {
			t.Fatal(err)
		}
		matched = append(matched, m...)
	}
	if len(matched) != len(tests) {
		t.Errorf("%d configs match blio-*-{sparsity,noise,convergence}*.yaml, the test checks %d", len(matched), len(tests))
	}
	files := map[string]string{
		"gdsc-ic50":      "bmf-priors/GDSC/ic50.txt",
		"movielens-100k": "movielens/ml-100k/u.data",
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
			if cfg.Name+".yaml" != tt.file || cfg.Kind != tt.kind || cfg.Dataset.Name != tt.dataset || !slices.Equal(names, tt.models) || !slices.Equal(cfg.Ranks, tt.ranks) ||
				cfg.Sweeps != tt.sweeps || cfg.BurnIn != tt.burnIn || cfg.Thin != tt.thin || cfg.Repeats != tt.repeats || !slices.Equal(grid, tt.grid) {
				t.Errorf("got %s %s on %s, models %v, ranks %v, %d sweeps, burn-in %d, thin %d, %d repeats, grid %v; want %s on %s, %v, %v, %d, %d, %d, %d, %v",
					cfg.Name, cfg.Kind, cfg.Dataset.Name, names, cfg.Ranks, cfg.Sweeps, cfg.BurnIn, cfg.Thin, cfg.Repeats, grid,
					tt.kind, tt.dataset, tt.models, tt.ranks, tt.sweeps, tt.burnIn, tt.thin, tt.repeats, tt.grid)
			}
			if tt.kind != KindConvergence && cfg.Coverage != "both" {
				t.Errorf("coverage %q; upstream redraws until every row and column keeps a training entry", cfg.Coverage)
			}
			if tt.kind == KindNoise && cfg.NoiseHoldout != 0.1 {
				t.Errorf("noise holdout %v; upstream trains on 90%% of the observed entries", cfg.NoiseHoldout)
			}
			// Upstream's hyperparameters, written out in each config: in a
			// -samek config those of its experiment where every model has
			// K = 5 (the volume prior's gamma differs on MovieLens 100K).
			experiment := ""
			if strings.Contains(tt.file, "-samek") {
				experiment = brouwerlio.SameKPrefix
			}
			want := blioHyperparameters(tt.kind, experiment, tt.dataset)
			want = withUpstreamSampler(tt.file, want)
			checkBlioHyperparameters(t, cfg.Models, want)
			// The Poisson models read GDSC cast to integers, as upstream's
			// loader reads it, in configs of their own; nothing else is
			// cast. Our noise study refuses them (the noise makes the
			// values real).
			isPoisson := func(m string) bool { return slices.Contains(poisson, m) }
			wantCast := ""
			if slices.ContainsFunc(tt.models, isPoisson) && tt.dataset == "gdsc-ic50" {
				wantCast = CastInteger
				if slices.ContainsFunc(tt.models, func(m string) bool { return !isPoisson(m) }) {
					t.Errorf("models %v: a cast config holds the Poisson models alone", tt.models)
				}
			}
			if tt.kind == KindNoise && slices.ContainsFunc(tt.models, isPoisson) {
				t.Errorf("models %v: a noise study cannot run a Poisson model", tt.models)
			}
			if cfg.Dataset.Cast != wantCast {
				t.Errorf("dataset.cast is %q, want %q", cfg.Dataset.Cast, wantCast)
			}
			if dataDir == "" {
				t.Skipf("BNMF_DATA_DIR is not set; the config loads, but is not checked against %s", tt.dataset)
			}
			if _, err := os.Stat(filepath.Join(dataDir, files[tt.dataset])); err != nil {
				t.Skipf("%s is not under BNMF_DATA_DIR (%v)", tt.dataset, err)
			}
			if _, err := Prepare(cfg, PrepareOptions{DataDir: dataDir}); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// blioHyperparameters returns, by model name, Brouwer & Lio's
// hyperparameters (brouwerlio.Hyperparameters) in their experiment of the
// study of kind on dataset, as our configs write them out: NMF's
// objective among them, and each number with the type the YAML decoder
// gives it (int for a whole number). A model they did not run, or ran at
// no hyperparameters of its own (the averaging baselines), is absent: its
// config keeps our defaults.
func blioHyperparameters(kind, experiment, dataset string) map[string]map[string]any {
	study := map[string]string{KindNestedCV: "cross_validation", KindModelSelection: "model_selection"}[kind]
	if study == "" {
		study = kind // sparsity, noise, convergence and runtime: the same names
	}
	want := make(map[string]map[string]any)
	for _, spec := range bnmf.Specs() {
		h, objective, ok := brouwerlio.Hyperparameters(study, experiment, dataset, spec.Name)
		if !ok || (len(h) == 0 && objective == "") {
			continue
		}
		w := make(map[string]any, len(h)+1)
		for k, v := range h {
			if v == math.Trunc(v) {
				w[k] = int(v)
			} else {
				w[k] = v
			}
		}
		if objective != "" {
			w["objective"] = objective
		}
		want[spec.Name] = w
	}
	return want
}

// checkBlioHyperparameters checks that each of models has exactly the
// hyperparameters want lists for its name, and a model want does not name
// (GRRN and the baselines) none: our defaults.
func checkBlioHyperparameters(t *testing.T, models []ModelConfig, want map[string]map[string]any) {
	t.Helper()
	for _, m := range models {
		w, ok := want[m.Name]
		if !ok {
			if len(m.Hyperparameters) != 0 {
				t.Errorf("%s: hyperparameters %v, want the defaults", m.Name, m.Hyperparameters)
			}
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
}

// withUpstreamSampler returns want with the options that a config named
// name (with or without .yaml) sets to reproduce a part of upstream's
// sampler, one change from its twin without the suffix: in a config whose
// name has -rows (-rows, -rows-real, -gvg-rows, -gvng-rows, -rows-half)
// or ends in -glli-upstream, every line draw as blocks (z_draw for GEG,
// GVG and GVnG, draw for GLL and GLLI); in -glli-upstream GLLI's eta
// drawn as upstream draws it (eta_draw); in -gggw-upstream GGGW's
// hyperparameters drawn as the reference code does (hyper_draw); in a
// name ending in -half GVnG's gamma halved, the weight of upstream's
// conditionals. A model absent from a config is not checked, so the
// options of the others do no harm.
func withUpstreamSampler(name string, want map[string]map[string]any) map[string]map[string]any {
	name = strings.TrimSuffix(name, ".yaml")
	set := func(model, key string, v any) {
		w := maps.Clone(want[model])
		if w == nil {
			w = make(map[string]any)
		}
		w[key] = v
		want[model] = w
	}
	if strings.Contains(name, "-rows") || strings.HasSuffix(name, "-glli-upstream") {
		for _, m := range []string{"GEG", "GVG", "GVnG"} {
			set(m, "z_draw", "rows")
		}
		for _, m := range []string{"GLL", "GLLI"} {
			set(m, "draw", "rows")
		}
	}
	if strings.HasSuffix(name, "-glli-upstream") {
		set("GLLI", "eta_draw", "upstream")
	}
	if strings.HasSuffix(name, "-gggw-upstream") {
		set("GGGW", "hyper_draw", "upstream")
	}
	if strings.HasSuffix(name, "-half") {
		switch g := want["GVnG"]["gamma"].(type) {
		case int:
			set("GVnG", "gamma", float64(g)/2)
		case float64:
			set("GVnG", "gamma", g/2)
		}
	}
	return want
}
