package report

import (
	"math"
	"path/filepath"
	"slices"
	"testing"

	"github.com/bnmf-lab/bnmf/experiments"
)

// TestStatRepeatsPrefersTheStudysExperiment checks how the published
// numbers of a cell are chosen when several of upstream's experiments
// ran its model at its rank and setting, as their sparsity study on
// MovieLens 100K ran GEEA at K = 2 both where each model had its own K
// ("per-model": GEE, GEEA at 2, GLL at 3) and where every model had K = 5
// ("sameK": GEE and GLL at 5, GEEA at 2), with 10 repeats each, and GEE
// and GLL at 5 once more with 20 repeats ("sameK20").
func TestStatRepeatsPrefersTheStudysExperiment(t *testing.T) {
	var rows []publishedValue
	add := func(exp, model string, k, reps int, base float64) {
		for i := range reps {
			rows = append(rows, publishedValue{Study: "sparsity", Experiment: exp, Model: model, K: k,
				Setting: "fraction_unknown", SettingValue: 0.95, Replicate: "r", Metric: "MSE", Value: base + float64(i%2)})
		}
	}
	add("per-model", "GEE", 2, 10, 10)
	add("per-model", "GEEA", 2, 10, 20)
	add("per-model", "GLL", 3, 10, 30)
	add("sameK", "GEE", 5, 10, 40)
	add("sameK", "GEEA", 2, 10, 50)
	add("sameK", "GLL", 5, 10, 60)
	add("sameK20", "GEE", 5, 20, 70)
	add("sameK20", "GLL", 5, 20, 80)
	models := []string{"GEE", "GEEA", "GLL"}
	at := func(k int) func(*publishedValue) bool {
		return func(r *publishedValue) bool { return r.K == k && r.SettingValue == 0.95 && r.Metric == "MSE" }
	}
	tests := []struct {
		name  string
		ranks []int
		model string
		k, n  int
		want  float64 // the mean of the chosen experiment; NaN for none
	}{
		// Ranks 2 and 3: per-model ran three of our models there, sameK
		// one (GEEA), so GEEA at 2 is per-model's, with 10 repeats or any.
		{"per-model study, GEEA, 10 repeats", []int{2, 3}, "GEEA", 2, 10, 20.5},
		{"per-model study, GEEA, any repeats", []int{2, 3}, "GEEA", 2, 0, 20.5},
		// Rank 2 alone: per-model ran GEE and GEEA there, sameK GEEA.
		{"rank 2 study, GEEA", []int{2}, "GEEA", 2, 10, 20.5},
		// Ranks 2 and 5: per-model ran two of our models there (GEE and
		// GEEA), sameK three (GEE, GEEA and GLL): sameK.
		{"ranks 2 and 5, GEEA", []int{2, 5}, "GEEA", 2, 10, 50.5},
		// Rank 5: GEE at 5 in sameK (10 repeats) and sameK20 (20), which
		// both ran GEE and GLL there; repeats tell them apart, and
		// without them none is shown.
		{"same-K study, GEE, 10 repeats", []int{5}, "GEE", 5, 10, 40.5},
		{"same-K study, GEE, 20 repeats", []int{5}, "GEE", 5, 20, 70.5},
		{"same-K study, GEE, any repeats", []int{5}, "GEE", 5, 0, math.NaN()},
		// Rank 5 and GEEA at 2: per-model and sameK ran no GEEA at 5, but
		// sameK ran GEE and GLL there and per-model nothing: sameK.
		{"same-K study, GEEA at 2", []int{5}, "GEEA", 2, 10, 50.5},
		// Only one experiment ran GLL at 3: it is shown whatever the fit.
		{"single experiment", []int{5}, "GLL", 3, 10, 30.5},
		{"no experiment", []int{2, 3}, "GLL", 4, 10, math.NaN()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := &published{study: "sparsity", rows: rows, models: models, fit: experimentFit(rows, models, tt.ranks)}
			got := p.statRepeats(tt.model, tt.n, at(tt.k))
			if math.IsNaN(tt.want) {
				if got.N != 0 {
					t.Errorf("got mean %v over %d, want none", got.Mean, got.N)
				}
				return
			}
			// The values alternate base, base+1: the mean is exact.
			if got.Mean != tt.want {
				t.Errorf("got mean %v over %d, want %v", got.Mean, got.N, tt.want)
			}
		})
	}
}

// TestExperimentFit checks the count of models each experiment ran at
// the study's ranks: a model counts once however many rows it has, and
// models not in the study do not count.
func TestExperimentFit(t *testing.T) {
	rows := []publishedValue{
		{Experiment: "a", Model: "GEE", K: 2}, {Experiment: "a", Model: "GEE", K: 2}, {Experiment: "a", Model: "GTT", K: 3},
		{Experiment: "a", Model: "PGG", K: 2}, {Experiment: "b", Model: "GEE", K: 5}, {Experiment: "b", Model: "GTT", K: 2},
	}
	got := experimentFit(rows, []string{"GEE", "GTT"}, []int{2, 3})
	if len(got) != 2 || got["a"] != 2 || got["b"] != 1 {
		t.Errorf("got %v, want map[a:2 b:1]", got)
	}
}

// volumeFixture holds GVG's held-out MSE in Brouwer & Lio's sparsity
// study on MovieLens 100K at K 3 where each model has its own K (gamma
// 1e-30) and at K 5 where every model has K = 5 (gamma 1), with ten and
// twenty repeats, in their noise study at K 3 (gamma 1e-30), and GEE's
// at K 2 and 5, whose hyperparameters are the same in every experiment.
const volumeFixture = `study,experiment,dataset,model,upstream_model,K,setting,setting_value,outer_fold,replicate,metric,value,source,commit
sparsity,movielens_100K,movielens-100k,GVG,gaussian_gaussian_volumeprior,3,fraction_unknown,0.95,,1,MSE,1.5,s,c
sparsity,sameK_movielens_100K,movielens-100k,GVG,gaussian_gaussian_volumeprior,5,fraction_unknown,0.95,,1,MSE,2.5,s,c
sparsity,sameK_20repeats_movielens_100K,movielens-100k,GVG,gaussian_gaussian_volumeprior,5,fraction_unknown,0.95,,1,MSE,3.5,s,c
sparsity,movielens_100K,movielens-100k,GEE,gaussian_exponential,2,fraction_unknown,0.95,,1,MSE,4.5,s,c
sparsity,sameK_movielens_100K,movielens-100k,GEE,gaussian_exponential,5,fraction_unknown,0.95,,1,MSE,5.5,s,c
noise,movielens_100K,movielens-100k,GVG,gaussian_gaussian_volumeprior,3,noise_to_signal,0.5,,1,MSE,6.5,s,c
`

// TestPublishedVolumeGammaByExperiment checks that a study's GVG stands
// beside the rows of those of their experiments whose gamma it has: on
// MovieLens 100K's sparsity study 1e-30 takes the per-model-K experiment's
// rows and 1 the same-K ones', and another gamma none; GEE, whose
// hyperparameters do not depend on the experiment, takes the rows of
// every experiment.
func TestPublishedVolumeGammaByExperiment(t *testing.T) {
	tests := []struct {
		name, kind, gamma string
		models            string   // the study's models beside GVG
		want              []string // model/experiment of each row, sorted
	}{
		{"per-model K", experiments.KindSparsity, "1.0e-30", "", []string{"GVG/movielens_100K"}},
		{"same K", experiments.KindSparsity, "1", "", []string{"GVG/sameK_20repeats_movielens_100K", "GVG/sameK_movielens_100K"}},
		{"another gamma", experiments.KindSparsity, "1.0e-10", "", nil},
		{"GEE beside", experiments.KindSparsity, "1", "  - {name: GEE, lambda: 0.1, alpha_sigma: 1, beta_sigma: 1}\n",
			[]string{"GEE/movielens_100K", "GEE/sameK_movielens_100K", "GVG/sameK_20repeats_movielens_100K", "GVG/sameK_movielens_100K"}},
		{"noise", experiments.KindNoise, "1.0e-30", "", []string{"GVG/movielens_100K"}},
		{"noise, same-K gamma", experiments.KindNoise, "1", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			writePublishedTable(t, root, volumeFixture)
			grid := "fractions: [0.95]\n"
			if tt.kind == experiments.KindNoise {
				grid = "noise_ratios: [0.5]\n"
			}
			src := "kind: " + tt.kind + "\ndataset: {name: movielens-100k}\nmodels:\n  - {name: GVG, gamma: " + tt.gamma +
				", lambda: 0.1, alpha_sigma: 1, beta_sigma: 1}\n" + tt.models + "ranks: [3, 5]\nrepeats: 2\n" + grid
			cfg, err := experiments.ParseConfig("c.yaml", []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, m := range cfg.Models {
				names = append(names, m.Name)
			}
			st := &experiments.Study{Dir: filepath.Join(root, "study"), Config: cfg, Manifest: experiments.Manifest{Study: "s", Kind: tt.kind,
				Dataset: "movielens-100k", Models: names, Ranks: cfg.Ranks, Fractions: cfg.Fractions, NoiseRatios: cfg.NoiseRatios, Repeats: 2, Cells: cfg.Cells()}}
			s := Summarise([]*experiments.Study{st}).Studies[0]
			p, err := publishedFor(s, tt.kind)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			if p != nil {
				for _, r := range p.rows {
					got = append(got, r.Model+"/"+r.Experiment)
				}
			}
			slices.Sort(got)
			if !slices.Equal(got, tt.want) {
				t.Errorf("rows of experiments %v, want %v", got, tt.want)
			}
		})
	}
}
