// Package brouwerlio holds what Brouwer & Lio's experiment scripts set
// for the models we share with them: the hyperparameters of each model by
// study, experiment and dataset. It is the one table of them: the report
// asks it whether a study ran a model as they did (and so may stand beside
// their published numbers), and the tests of the study configs that
// reproduce their experiments check the configs against it. Studies and
// experiments are named in their vocabulary (the directories of their
// scripts, as results/brouwer-lio/published.csv.gz names them).
package brouwerlio

import (
	"math"
	"strings"
)

// SameKPrefix begins the name of each of Brouwer & Lio's experiments in
// which every model has K = 5 (sameK_movielens_100K, ...).
const SameKPrefix = "sameK_"

// Hyperparameters returns the hyperparameters of Brouwer & Lio's
// experiment scripts for model, as our config keys (with NMF's
// objective), in their experiment (the directory of their study, e.g.
// sameK_movielens_100K) of study on dataset (our dataset name, e.g.
// movielens-100k); ok is false for a model they did not run. Their
// scripts give GTTN mu_mu = 0.1 in the runtime and convergence studies
// and 0 elsewhere, GGGW v0 = 50 in the runtime study, and the volume
// prior's gamma by study, experiment and dataset (see volumeGamma). The
// averaging baselines have none. Each call returns a new map.
func Hyperparameters(study, experiment, dataset, model string) (hyper map[string]float64, objective string, ok bool) {
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

// volumeGamma returns the gamma of the volume prior (GVG, GVnG) in Brouwer
// & Lio's experiment of study on dataset: 1e-50 in their convergence and
// runtime studies; elsewhere 1e-30 on GDSC (sparsity and noise too), 1e-10
// on CCLE and 1 on MovieLens in their cross-validation and model
// selection. On MovieLens 100K their sparsity study holds two experiments
// under one study name with different gammas: 1e-30 where each model has
// its own K (movielens_100K) and 1 where every model has K = 5
// (sameK_movielens_100K, sameK_20repeats_movielens_100K); their noise
// study there (movielens_100K alone) gives 1e-30. Only the experiment's
// SameKPrefix matters. ok is false for a study or dataset they did not
// run (sparsity and noise on MovieLens 1M).
func volumeGamma(study, experiment, dataset string) (float64, bool) {
	if study == "convergence" || study == "runtime" {
		return 1e-50, true
	}
	if study == "sparsity" || study == "noise" {
		switch {
		case dataset == "movielens-100k" && strings.HasPrefix(experiment, SameKPrefix):
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
