package report

import (
	"math"
	"slices"
	"strings"

	"github.com/bnmf-lab/bnmf/experiments"
)

// upstreamHyperparameters returns the hyperparameters of Brouwer & Lio's
// experiment scripts for the models we share with them, as our config
// keys (with NMF's objective), in their experiment (the directory of their
// study, e.g. sameK_movielens_100K) of study on dataset; ok is false for
// a model they did not run. Their scripts give GTTN mu_mu = 0.1 in the
// runtime and convergence studies and 0 elsewhere, and the volume prior's
// gamma by study, experiment and dataset (volumeGamma). The averaging
// baselines have none.
func upstreamHyperparameters(study, experiment, dataset, model string) (map[string]float64, string, bool) {
	sigma := func(m map[string]float64) map[string]float64 {
		m["alpha_sigma"], m["beta_sigma"] = 1, 1
		return m
	}
	switch model {
	case "GEE":
		return sigma(map[string]float64{"lambda": 0.1}), "", true
	case "GTT":
		return sigma(map[string]float64{"mu": 0, "tau": 0.1}), "", true
	case "GTTN":
		muMu := 0.0
		if study == "runtime" || study == "convergence" {
			muMu = 0.1
		}
		return sigma(map[string]float64{"mu_mu": muMu, "tau_mu": 0.1, "a": 1, "b": 1}), "", true
	case "GEEA":
		return sigma(map[string]float64{"alpha0": 1, "beta0": 1}), "", true
	case "GEG", "GGGU", "GGG", "GL21":
		return sigma(map[string]float64{"lambda": 0.1}), "", true
	case "GGGA":
		return sigma(map[string]float64{"alpha0": 1, "beta0": 1}), "", true
	case "GGGW":
		// Their v0 keeps its default, K, as ours does, but in their
		// runtime study, which sets it to 50.
		m := sigma(map[string]float64{"mu0": 0, "beta0": 1, "w0": 1})
		if study == "runtime" {
			m["v0"] = 50
		}
		return m, "", true
	case "GVG", "GVnG":
		gamma, ok := volumeGamma(study, experiment, dataset)
		return sigma(map[string]float64{"lambda": 0.1, "gamma": gamma}), "", ok
	case "PGG":
		return map[string]float64{"a": 1, "b": 1}, "", true
	case "PGGG":
		return map[string]float64{"a": 1, "ap": 1, "bp": 1}, "", true
	case "GLL":
		return sigma(map[string]float64{"eta": math.Sqrt(10)}), "", true
	case "GLLI":
		// Upstream sets only the noise's; its a and b keep the defaults
		// (1/K and K), as ours do.
		return sigma(map[string]float64{}), "", true
	case "NMF":
		return nil, "i-divergence", true
	case "RowMean", "ColumnMean":
		return nil, "", true
	}
	return nil, "", false
}

// sameKPrefix begins the name of each of Brouwer & Lio's experiments in
// which every model has K = 5 (sameK_movielens_100K, ...).
const sameKPrefix = "sameK_"

// volumeGamma returns the gamma of the volume prior (GVG, GVnG) in Brouwer
// & Lio's experiment of study on dataset: 1e-50 in their convergence and
// runtime studies; elsewhere 1e-30 on GDSC (sparsity and noise too), 1e-10
// on CCLE and 1 on MovieLens in their cross-validation and model
// selection. On MovieLens 100K their sparsity study holds two experiments
// under one study name with different gammas: 1e-30 where each model has
// its own K (movielens_100K) and 1 where every model has K = 5
// (sameK_movielens_100K, sameK_20repeats_movielens_100K); their noise
// study there (movielens_100K alone) gives 1e-30. Only the experiment's
// sameK_ prefix matters. ok is false for a study or dataset they did not
// run (sparsity and noise on MovieLens 1M).
func volumeGamma(study, experiment, dataset string) (float64, bool) {
	if study == "convergence" || study == "runtime" {
		return 1e-50, true
	}
	if study == "sparsity" || study == "noise" {
		switch {
		case dataset == "movielens-100k" && strings.HasPrefix(experiment, sameKPrefix):
			return 1, true
		case dataset == "movielens-100k":
			return 1e-30, true
		case strings.HasPrefix(dataset, "movielens"):
			return 0, false
		}
	}
	gamma, ok := map[string]float64{
		"gdsc-ic50": 1e-30, "ccle-ic50": 1e-10, "ccle-ec50": 1e-10,
		"movielens-100k": 1, "movielens-1m": 1,
	}[dataset]
	return gamma, ok
}

// sameHyperparameters reports whether model runs in s with the
// hyperparameters of Brouwer & Lio's experiment of study: each of theirs
// written out in s's stored config with the same value (and NMF with
// their I-divergence objective). Without a stored config nothing matches.
func sameHyperparameters(s *StudySummary, study, experiment, model string) bool {
	want, objective, ok := upstreamHyperparameters(study, experiment, s.Study.Manifest.Dataset, model)
	if !ok || s.Study.Config == nil {
		return false
	}
	i := slices.IndexFunc(s.Study.Config.Models, func(m experiments.ModelConfig) bool { return m.Name == model })
	if i < 0 {
		return false
	}
	got := s.Study.Config.Models[i].Hyperparameters
	if objective != "" && got["objective"] != objective {
		return false
	}
	for k, w := range want {
		var v float64
		switch x := got[k].(type) {
		case int:
			v = float64(x)
		case float64:
			v = x
		default:
			return false
		}
		if v != w {
			return false
		}
	}
	return true
}
