package experiments

import (
	"compress/gzip"
	"encoding/csv"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestBrouwerLioKindConfigs checks the configs of Brouwer & Lio's nested
// cross-validation, model-selection and runtime studies
// (configs/blio-*-{nested-cv,model-selection,runtime}*.yaml) against the
// settings of upstream's experiment scripts (experiments/cross_validation,
// model_selection and runtime of its pinned commit: K grids, folds,
// iterations, burn-in, thinning, hyperparameters), and, when
// $BNMF_DATA_DIR holds the dataset, that each prepares against the data.
// MovieLens 1M is prepared only without -short.
func TestBrouwerLioKindConfigs(t *testing.T) {
	base := []string{"GlobalMean", "RowMean", "ColumnMean", "Bias"}
	newPriors := []string{"GEEA", "GEG", "GGGU", "GLL", "GLLI"}
	ccle := append(append([]string{"GEE", "GTT", "GTTN"}, newPriors...), append([]string{"GRRN"}, base...)...)
	// Bias needs K >= 2: left out where the grid has K = 1.
	ccle1 := ccle[:len(ccle)-1]
	// The other eight priors join where upstream's grid and sweeps are the
	// same as a study's; elsewhere they have configs of their own.
	cclePlus := slices.Concat(ccle[:8], []string{"GGG", "GGGA", "GL21"}, ccle[8:])
	ccle1Plus := slices.Concat(ccle1[:8], []string{"GGG", "GGGA", "GGGW", "GL21"}, ccle1[8:])
	ml100k := []string{"GEE", "GTT", "GTTN", "GEG", "GGGU", "GLL", "GLLI", "GGG", "GL21", "PGG", "PGGG", "GRRN", "GlobalMean", "RowMean", "ColumnMean"}
	poisson := []string{"PGG", "PGGG"}
	volume := []string{"GVG", "GVnG"}
	msGDSC := []string{"GEE", "GTT", "GTTN", "GEEA", "GEG", "GGGU", "GGG", "GGGA", "GGGW", "GL21", "GRRN", "GlobalMean", "RowMean", "ColumnMean"}
	msML := []string{"GEE", "GTT", "GTTN", "GEEA", "GEG", "GGGU", "GLL", "GLLI", "GGG", "GGGA", "GGGW", "GL21", "PGG", "PGGG", "GRRN", "GlobalMean", "RowMean", "ColumnMean"}
	nmf := []string{"NMF"}
	rt := append(append([]string{"GEE", "GTT", "GTTN"}, newPriors...), "GRRN", "NMF")
	others := []string{"GGG", "GGGA", "GGGW", "GVG", "GVnG", "GL21"}
	rtGDSC := slices.Concat(rt[:8], others, rt[8:])
	rtML := slices.Concat(rt[:8], others, poisson, rt[8:])
	tests := []struct {
		file, kind, dataset  string
		models               []string
		ranks                []int
		repeats              int
		sweeps, burnIn, thin int
	}{
		{"blio-gdsc-nested-cv-gee", KindNestedCV, "gdsc-ic50", append([]string{"GEE", "GEG", "GRRN"}, base...), []int{6, 7, 8, 9}, 5, 200, 180, 1},
		{"blio-gdsc-nested-cv-gtt", KindNestedCV, "gdsc-ic50", []string{"GTT"}, []int{7, 8, 9, 10, 11, 12}, 5, 200, 180, 1},
		{"blio-gdsc-nested-cv-gttn", KindNestedCV, "gdsc-ic50", []string{"GTTN"}, []int{6, 7, 8, 9, 10}, 5, 200, 180, 1},
		{"blio-gdsc-nested-cv-geea", KindNestedCV, "gdsc-ic50", []string{"GEEA"}, []int{8, 9, 10, 11, 12}, 5, 200, 180, 1},
		{"blio-gdsc-nested-cv-gggu", KindNestedCV, "gdsc-ic50", []string{"GGGU"}, []int{4, 5, 6, 7}, 5, 200, 180, 1},
		{"blio-gdsc-nested-cv-gll", KindNestedCV, "gdsc-ic50", []string{"GLL", "GLLI"}, []int{7, 8, 9, 10, 11}, 5, 250, 200, 1},
		{"blio-gdsc-nested-cv-nmf", KindNestedCV, "gdsc-ic50", nmf, []int{3, 4, 5, 6, 7}, 5, 500, 0, 1},
		{"blio-ccle-ic50-nested-cv", KindNestedCV, "ccle-ic50", cclePlus, []int{3, 4, 5, 6, 7}, 5, 250, 200, 1},
		{"blio-ccle-ic50-nested-cv-nmf", KindNestedCV, "ccle-ic50", nmf, []int{1, 2, 3}, 5, 500, 0, 1},
		{"blio-ccle-ec50-nested-cv", KindNestedCV, "ccle-ec50", ccle1Plus, []int{1, 2, 3}, 5, 250, 200, 1},
		{"blio-ccle-ec50-nested-cv-nmf", KindNestedCV, "ccle-ec50", nmf, []int{1, 2, 3}, 5, 500, 0, 1},
		{"blio-ml100k-nested-cv", KindNestedCV, "movielens-100k", ml100k, []int{1, 2, 3}, 5, 200, 180, 1},
		{"blio-ml100k-nested-cv-geea", KindNestedCV, "movielens-100k", []string{"GEEA"}, []int{1, 2, 3, 4, 5}, 5, 200, 180, 1},
		{"blio-ml100k-nested-cv-nmf", KindNestedCV, "movielens-100k", nmf, []int{1, 2}, 5, 300, 0, 1},
		{"blio-ml1m-nested-cv-gee", KindNestedCV, "movielens-1m", append([]string{"GEE", "GEEA", "GRRN"}, base...), []int{7, 8, 9, 10}, 5, 120, 100, 1},
		{"blio-ml1m-nested-cv-gtt", KindNestedCV, "movielens-1m", []string{"GTT", "GTTN"}, []int{7, 8, 9, 10, 11}, 5, 120, 100, 1},
		{"blio-ml1m-nested-cv-geg", KindNestedCV, "movielens-1m", []string{"GEG"}, []int{3, 4, 5, 6, 7}, 5, 120, 100, 1},
		{"blio-ml1m-nested-cv-gggu", KindNestedCV, "movielens-1m", []string{"GGGU"}, []int{1, 2, 3, 4}, 5, 120, 100, 1},
		{"blio-ml1m-nested-cv-gll", KindNestedCV, "movielens-1m", []string{"GLL"}, []int{6, 7, 8}, 5, 100, 80, 1},
		{"blio-ml1m-nested-cv-glli", KindNestedCV, "movielens-1m", []string{"GLLI"}, []int{7, 8, 9}, 5, 100, 80, 1},
		{"blio-ml1m-nested-cv-nmf", KindNestedCV, "movielens-1m", nmf, []int{2, 3, 4}, 5, 200, 0, 1},
		{"blio-gdsc-nested-cv-ggg", KindNestedCV, "gdsc-ic50", []string{"GGG"}, []int{5, 6, 7, 8}, 5, 200, 180, 1},
		{"blio-gdsc-nested-cv-ggga", KindNestedCV, "gdsc-ic50", []string{"GGGA"}, []int{9, 10, 11, 12}, 5, 200, 180, 1},
		{"blio-gdsc-nested-cv-gggw", KindNestedCV, "gdsc-ic50", []string{"GGGW"}, []int{14, 15, 16, 17}, 5, 200, 180, 1},
		{"blio-gdsc-nested-cv-gvg", KindNestedCV, "gdsc-ic50", []string{"GVG"}, []int{9, 10, 11}, 5, 100, 80, 1},
		{"blio-gdsc-nested-cv-gvng", KindNestedCV, "gdsc-ic50", []string{"GVnG"}, []int{10, 11, 12}, 5, 100, 80, 1},
		{"blio-gdsc-nested-cv-gl21", KindNestedCV, "gdsc-ic50", []string{"GL21"}, []int{5, 6, 7, 8}, 5, 250, 200, 1},
		// PGG's grid is that of their result files, 3 to 5 (their script
		// says 4 to 6); PGGG's is 4 to 6 in both.
		{"blio-gdsc-nested-cv-pgg", KindNestedCV, "gdsc-ic50", []string{"PGG"}, []int{3, 4, 5}, 5, 200, 180, 1},
		{"blio-gdsc-nested-cv-pggg", KindNestedCV, "gdsc-ic50", []string{"PGGG"}, []int{4, 5, 6}, 5, 200, 180, 1},
		{"blio-ccle-ic50-nested-cv-gggw", KindNestedCV, "ccle-ic50", []string{"GGGW"}, []int{4, 5, 6, 7, 8}, 5, 250, 200, 1},
		{"blio-ccle-ic50-nested-cv-gvg", KindNestedCV, "ccle-ic50", volume, []int{4, 5, 6, 7}, 5, 150, 100, 1},
		{"blio-ccle-ic50-nested-cv-pgg", KindNestedCV, "ccle-ic50", poisson, []int{9, 10, 11, 12, 13, 14}, 5, 500, 400, 1},
		{"blio-ccle-ec50-nested-cv-gvg", KindNestedCV, "ccle-ec50", volume, []int{2, 3}, 5, 150, 100, 1},
		{"blio-ccle-ec50-nested-cv-pgg", KindNestedCV, "ccle-ec50", poisson, []int{1, 2, 3}, 5, 250, 200, 1},
		{"blio-ml100k-nested-cv-ggga", KindNestedCV, "movielens-100k", []string{"GGGA"}, []int{1, 2, 3, 4, 5}, 5, 200, 180, 1},
		{"blio-ml100k-nested-cv-gggw", KindNestedCV, "movielens-100k", []string{"GGGW"}, []int{1, 2, 3, 4, 5, 6, 7}, 5, 200, 180, 1},
		{"blio-ml100k-nested-cv-gggw-upstream", KindNestedCV, "movielens-100k", []string{"GGGW"}, []int{1, 2, 3, 4, 5, 6, 7}, 5, 200, 180, 1},
		{"blio-ml100k-nested-cv-gvg", KindNestedCV, "movielens-100k", []string{"GVG"}, []int{2, 3, 4}, 5, 100, 80, 1},
		{"blio-ml100k-nested-cv-gvng", KindNestedCV, "movielens-100k", []string{"GVnG"}, []int{1, 2, 3}, 5, 100, 80, 1},
		// GVnG with upstream's block draws of Z (-rows), half of
		// upstream's gamma (-half), and both (-rows-half).
		{"blio-ml100k-nested-cv-gvng-rows", KindNestedCV, "movielens-100k", []string{"GVnG"}, []int{1, 2, 3}, 5, 100, 80, 1},
		{"blio-ml100k-nested-cv-gvng-half", KindNestedCV, "movielens-100k", []string{"GVnG"}, []int{1, 2, 3}, 5, 100, 80, 1},
		{"blio-ml100k-nested-cv-gvng-rows-half", KindNestedCV, "movielens-100k", []string{"GVnG"}, []int{1, 2, 3}, 5, 100, 80, 1},
		{"blio-ml1m-nested-cv-ggg", KindNestedCV, "movielens-1m", []string{"GGG"}, []int{3, 4, 5, 6, 7}, 5, 120, 100, 1},
		{"blio-ml1m-nested-cv-ggga", KindNestedCV, "movielens-1m", []string{"GGGA"}, []int{7, 8, 9, 10}, 5, 120, 100, 1},
		{"blio-ml1m-nested-cv-gggw", KindNestedCV, "movielens-1m", []string{"GGGW"}, []int{12, 13, 14}, 5, 120, 100, 1},
		{"blio-ml1m-nested-cv-gvg", KindNestedCV, "movielens-1m", []string{"GVG"}, []int{2, 3, 4}, 5, 70, 50, 1},
		{"blio-ml1m-nested-cv-gvng", KindNestedCV, "movielens-1m", []string{"GVnG"}, []int{1, 2, 3}, 5, 100, 80, 1},
		{"blio-ml1m-nested-cv-gl21", KindNestedCV, "movielens-1m", []string{"GL21"}, []int{7, 8, 9}, 5, 120, 100, 1},
		{"blio-ml1m-nested-cv-pgg", KindNestedCV, "movielens-1m", poisson, []int{1, 2, 3}, 5, 120, 100, 1},
		{"blio-gdsc-model-selection", KindModelSelection, "gdsc-ic50", msGDSC, []int{1, 2, 3, 4, 6, 8, 10, 15, 20, 30}, 10, 200, 180, 2},
		{"blio-gdsc-model-selection-gll", KindModelSelection, "gdsc-ic50", []string{"GLL", "GLLI"}, []int{1, 2, 3, 4, 6, 8, 10, 15, 20, 30}, 10, 250, 200, 1},
		{"blio-gdsc-model-selection-gvg", KindModelSelection, "gdsc-ic50", volume, []int{1, 2, 3, 4, 6, 8, 10, 15, 20, 30}, 10, 100, 90, 1},
		{"blio-gdsc-model-selection-pgg", KindModelSelection, "gdsc-ic50", poisson, []int{1, 2, 3, 4, 6, 8, 10, 15, 20, 30}, 10, 200, 180, 2},
		{"blio-ml100k-model-selection-gvg", KindModelSelection, "movielens-100k", volume, []int{1, 2, 3, 4, 6, 8, 10, 15}, 10, 100, 80, 1},
		{"blio-ml100k-model-selection-gvng-rows-half", KindModelSelection, "movielens-100k", []string{"GVnG"}, []int{1, 2, 3, 4, 6, 8, 10, 15}, 10, 100, 80, 1},
		// Upstream's block draws of GEG's Z and GLL's lines, one change
		// from the studies above (the CCLE one on the cast values).
		{"blio-gdsc-model-selection-rows", KindModelSelection, "gdsc-ic50", []string{"GEG"}, []int{1, 2, 3, 4, 6, 8, 10, 15, 20, 30}, 10, 200, 180, 2},
		{"blio-ml100k-model-selection-rows", KindModelSelection, "movielens-100k", []string{"GEG", "GLL"}, []int{1, 2, 3, 4, 6, 8, 10, 15}, 10, 200, 180, 1},
		{"blio-ml1m-nested-cv-geg-rows", KindNestedCV, "movielens-1m", []string{"GEG"}, []int{3, 4, 5, 6, 7}, 5, 120, 100, 1},
		{"blio-ml1m-nested-cv-gll-rows", KindNestedCV, "movielens-1m", []string{"GLL"}, []int{6, 7, 8}, 5, 100, 80, 1},
		{"blio-ccle-ic50-nested-cv-geg-rows", KindNestedCV, "ccle-ic50", []string{"GEG"}, []int{3, 4, 5, 6, 7}, 5, 250, 200, 1},
		{"blio-ccle-ic50-nested-cv-geg-rows-real", KindNestedCV, "ccle-ic50", []string{"GEG"}, []int{3, 4, 5, 6, 7}, 5, 250, 200, 1},
		{"blio-ccle-ic50-nested-cv-gll-rows", KindNestedCV, "ccle-ic50", []string{"GLL", "GLLI"}, []int{3, 4, 5, 6, 7}, 5, 250, 200, 1},
		{"blio-ccle-ic50-nested-cv-glli-upstream", KindNestedCV, "ccle-ic50", []string{"GLLI"}, []int{3, 4, 5, 6, 7}, 5, 250, 200, 1},
		{"blio-gdsc-model-selection-nmf", KindModelSelection, "gdsc-ic50", nmf, []int{1, 2, 3, 4, 6, 8, 10, 15, 20, 30}, 10, 1000, 0, 1},
		{"blio-ml100k-model-selection", KindModelSelection, "movielens-100k", msML, []int{1, 2, 3, 4, 6, 8, 10, 15}, 10, 200, 180, 1},
		{"blio-ml100k-model-selection-nmf", KindModelSelection, "movielens-100k", nmf, []int{1, 2, 3, 4, 6, 8, 10, 15}, 10, 300, 0, 1},
		{"blio-gdsc-runtime", KindRuntime, "gdsc-ic50", rtGDSC, []int{5, 10, 20, 50}, 3, 100, 0, 1},
		{"blio-gdsc-runtime-pgg", KindRuntime, "gdsc-ic50", poisson, []int{5, 10, 20, 50}, 3, 100, 0, 1},
		{"blio-ml100k-runtime", KindRuntime, "movielens-100k", rtML, []int{5, 10, 20, 50}, 3, 10, 0, 1},
	}
	// The -integer configs (and the -integer-gggw-upstream one) read
	// files derived from these datasets; TestBrouwerLioIntegerConfigs
	// checks them against their twins.
	n, _ := filepath.Glob(filepath.Join("..", "configs", "blio-*-[nmr][eou][sdn]*.yaml"))
	n = slices.DeleteFunc(n, func(f string) bool { return strings.Contains(f, "-integer") })
	if len(n) != len(tests) {
		t.Errorf("%d configs match blio-*-{nested-cv,model-selection,runtime}*.yaml, the test checks %d", len(n), len(tests))
	}
	files := map[string]string{
		"gdsc-ic50":      "bmf-priors/GDSC/ic50.txt",
		"ccle-ic50":      "bmf-priors/CCLE/ic50.txt",
		"ccle-ec50":      "bmf-priors/CCLE/ec50.txt",
		"movielens-100k": "movielens/ml-100k/u.data",
		"movielens-1m":   "movielens/ml-1m/ratings.dat",
	}
	dataDir := os.Getenv("BNMF_DATA_DIR")
	grids := publishedGrids(t)
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			cfg, err := LoadConfig(filepath.Join("..", "configs", tt.file+".yaml"))
			if err != nil {
				t.Fatal(err)
			}
			// Their result files fix the grid our numbers stand beside,
			// where it differs from their script's (GDSC's PGG).
			study := map[string]string{KindNestedCV: "cross_validation", KindModelSelection: "model_selection"}[tt.kind]
			for _, m := range cfg.Models {
				if g, ok := grids[[3]string{study, tt.dataset, m.Name}]; ok && !slices.Equal(g, tt.ranks) {
					t.Errorf("%s: their result files hold K %v, the config %v", m.Name, g, tt.ranks)
				}
			}
			var names []string
			for _, m := range cfg.Models {
				names = append(names, m.Name)
			}
			if cfg.Name != tt.file || cfg.Kind != tt.kind || cfg.Dataset.Name != tt.dataset || !slices.Equal(names, tt.models) ||
				!slices.Equal(cfg.Ranks, tt.ranks) || cfg.Repeats != tt.repeats || cfg.Sweeps != tt.sweeps || cfg.BurnIn != tt.burnIn || cfg.Thin != tt.thin {
				t.Errorf("got %s %s on %s, models %v, ranks %v, %d repeats, %d sweeps, burn-in %d, thin %d; want %s %s on %s, %v, %v, %d, %d, %d, %d",
					cfg.Name, cfg.Kind, cfg.Dataset.Name, names, cfg.Ranks, cfg.Repeats, cfg.Sweeps, cfg.BurnIn, cfg.Thin,
					tt.file, tt.kind, tt.dataset, tt.models, tt.ranks, tt.repeats, tt.sweeps, tt.burnIn, tt.thin)
			}
			// Upstream's hyperparameters, written out (its runtime scripts
			// set GTTN's mu_mu, GGGW's v0 and the volume prior's gamma
			// apart; see brouwerlio.Hyperparameters).
			want := blioHyperparameters(tt.kind, "", tt.dataset)
			want = withUpstreamSampler(tt.file, want)
			checkBlioHyperparameters(t, cfg.Models, want)
			// A Poisson model reads the drug-sensitivity data cast to
			// integers, as upstream's loader reads them; nothing else is cast.
			wantCast := ""
			if (slices.ContainsFunc(tt.models, func(m string) bool { return m == "PGG" || m == "PGGG" }) && !strings.HasPrefix(tt.dataset, "movielens")) ||
				slices.Contains([]string{"blio-ccle-ic50-nested-cv-geg-rows", "blio-ccle-ic50-nested-cv-gll-rows", "blio-ccle-ic50-nested-cv-glli-upstream"}, tt.file) {
				wantCast = CastInteger
			}
			if cfg.Dataset.Cast != wantCast {
				t.Errorf("dataset.cast is %q, want %q", cfg.Dataset.Cast, wantCast)
			}
			if dataDir == "" {
				t.Skip("BNMF_DATA_DIR is not set; the config loads, but is not prepared")
			}
			if _, err := os.Stat(filepath.Join(dataDir, files[tt.dataset])); err != nil {
				t.Skipf("%s is not under BNMF_DATA_DIR (%v)", tt.dataset, err)
			}
			if tt.dataset == "movielens-1m" && testing.Short() {
				t.Skip("preparing MovieLens 1M is slow; skipped with -short")
			}
			p, err := Prepare(cfg, PrepareOptions{DataDir: dataDir})
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range p.Manifest.Warnings {
				t.Log(w)
			}
		})
	}
}

// TestBrouwerLioIntegerConfigs checks that each configs/blio-*-integer.yaml
// is its twin without the suffix but for its name, output and dataset (the
// file that scripts/brouwer-lio-integer-triplets.py writes, whose values
// are truncated to integers) and the models upstream does not have, so
// that the two studies differ by the cast alone: the same kind, models
// otherwise with the same hyperparameters, ranks, repeats, sweeps,
// burn-in, thinning, seed and coverage, and the same cells.
func TestBrouwerLioIntegerConfigs(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "configs", "blio-*-integer.yaml"))
	if len(files) != 2 {
		t.Fatalf("%d configs blio-*-integer.yaml, want 2 (CCLE IC50 and EC50)", len(files))
	}
	ours := map[string]bool{"GRRN": true, "GlobalMean": true, "Bias": true}
	for _, f := range files {
		cast, err := LoadConfig(f)
		if err != nil {
			t.Fatal(err)
		}
		real, err := LoadConfig(strings.TrimSuffix(f, "-integer.yaml") + ".yaml")
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(f)
		if cast.Dataset.Path == "" || cast.Dataset.Name != "" || !strings.HasPrefix(cast.Dataset.Path, "data/blio-integer/") {
			t.Errorf("%s: dataset %+v, want a file under data/blio-integer/", name, cast.Dataset)
		}
		kept := slices.DeleteFunc(slices.Clone(real.Models), func(m ModelConfig) bool { return ours[m.Name] })
		var a, b []string
		for i := range kept {
			a = append(a, kept[i].Key()+fmt.Sprint(kept[i].Hyperparameters))
		}
		for i := range cast.Models {
			b = append(b, cast.Models[i].Key()+fmt.Sprint(cast.Models[i].Hyperparameters))
		}
		if !slices.Equal(a, b) {
			t.Errorf("%s: models %v, want its twin's without GRRN, GlobalMean and Bias: %v", name, b, a)
		}
		if cast.Kind != real.Kind || !slices.Equal(cast.Ranks, real.Ranks) || cast.Repeats != real.Repeats || cast.Sweeps != real.Sweeps ||
			cast.BurnIn != real.BurnIn || cast.Thin != real.Thin || cast.Seed != real.Seed || cast.Coverage != real.Coverage {
			t.Errorf("%s differs from its twin in kind, ranks, repeats, sweeps, burn-in, thinning, seed or coverage", name)
		}
	}
	// CCLE EC50 as they read it, GGGW alone with its hyperparameters drawn
	// as the reference code draws them: the -integer study's GGGW but for
	// hyper_draw, and the same data and settings.
	// The -seed2 replicate differs from it in its seed alone.
	twin, err := LoadConfig(filepath.Join("..", "configs", "blio-ccle-ec50-nested-cv-integer.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		file string
		seed uint64
	}{{"blio-ccle-ec50-nested-cv-integer-gggw-upstream.yaml", twin.Seed}, {"blio-ccle-ec50-nested-cv-integer-gggw-upstream-seed2.yaml", 2}} {
		up, err := LoadConfig(filepath.Join("..", "configs", tc.file))
		if err != nil {
			t.Fatal(err)
		}
		i := slices.IndexFunc(twin.Models, func(m ModelConfig) bool { return m.Name == "GGGW" })
		if i < 0 || len(up.Models) != 1 || up.Models[0].Name != "GGGW" {
			t.Fatalf("%s: models %v; want GGGW alone, as in its twin", tc.file, up.Models)
		}
		want := maps.Clone(twin.Models[i].Hyperparameters)
		want["hyper_draw"] = "upstream"
		if fmt.Sprint(up.Models[0].Hyperparameters) != fmt.Sprint(want) {
			t.Errorf("%s: GGGW %v, want %v", tc.file, up.Models[0].Hyperparameters, want)
		}
		if up.Dataset != twin.Dataset || up.Kind != twin.Kind || !slices.Equal(up.Ranks, twin.Ranks) || up.Repeats != twin.Repeats || up.Sweeps != twin.Sweeps ||
			up.BurnIn != twin.BurnIn || up.Thin != twin.Thin || up.Seed != tc.seed || up.Coverage != twin.Coverage {
			t.Errorf("%s differs from its twin in data, kind, ranks, repeats, sweeps, burn-in, thinning, coverage or seed (want %d)", tc.file, tc.seed)
		}
	}
}

// publishedGrids returns, by upstream study, dataset and model, the
// sorted ranks at which results/brouwer-lio/published.csv.gz holds their
// held-out MSE over K (the inner folds of a nested cross-validation, the
// folds of a model selection).
func publishedGrids(t *testing.T) map[[3]string][]int {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "results", "brouwer-lio", "published.csv.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(zr).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	// Columns by their header's names, so that a column added to the
	// table cannot shift what is read.
	col := make(map[string]int, len(rows[0]))
	for i, name := range rows[0] {
		col[name] = i
	}
	for _, name := range []string{"study", "dataset", "model", "setting", "setting_value", "metric"} {
		if _, ok := col[name]; !ok {
			t.Fatalf("published.csv.gz has no column %q (header %v)", name, rows[0])
		}
	}
	out := make(map[[3]string][]int)
	for _, r := range rows[1:] {
		if r[col["setting"]] != "K" || r[col["metric"]] != "MSE" {
			continue
		}
		k, err := strconv.Atoi(r[col["setting_value"]])
		if err != nil {
			t.Fatalf("published K %q: %v", r[col["setting_value"]], err)
		}
		key := [3]string{r[col["study"]], r[col["dataset"]], r[col["model"]]}
		if !slices.Contains(out[key], k) {
			out[key] = append(out[key], k)
		}
	}
	for _, g := range out {
		slices.Sort(g)
	}
	return out
}
