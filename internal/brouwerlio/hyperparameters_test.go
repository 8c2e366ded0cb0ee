package brouwerlio

import "testing"

// TestVolumeGamma checks the volume prior's gamma that a study must set
// for its GVG and GVnG to stand beside Brouwer & Lio's numbers: theirs by
// study, experiment and dataset, where their sparsity study on MovieLens
// 100K holds two experiments with different gammas under one study name,
// and none for a study they did not run.
func TestVolumeGamma(t *testing.T) {
	tests := []struct {
		study, experiment, dataset string
		gamma                      float64
		ok                         bool
	}{
		{"cross_validation", "drug_sensitivity_gdsc", "gdsc-ic50", 1e-30, true},
		{"model_selection", "drug_sensitivity_gdsc", "gdsc-ic50", 1e-30, true},
		{"sparsity", "drug_sensitivity_gdsc", "gdsc-ic50", 1e-30, true},
		{"sparsity", "sameK_drug_sensitivity_gdsc", "gdsc-ic50", 1e-30, true},
		{"noise", "drug_sensitivity_gdsc", "gdsc-ic50", 1e-30, true},
		{"noise", "sameK_drug_sensitivity_gdsc", "gdsc-ic50", 1e-30, true},
		{"cross_validation", "ccle_ic50", "ccle-ic50", 1e-10, true},
		{"cross_validation", "ccle_ec50", "ccle-ec50", 1e-10, true},
		{"cross_validation", "movielens_100K", "movielens-100k", 1, true},
		{"model_selection", "movielens_100K", "movielens-100k", 1, true},
		{"cross_validation", "movielens_1M", "movielens-1m", 1, true},
		{"convergence", "drug_sensitivity_gdsc", "gdsc-ic50", 1e-50, true},
		{"convergence", "movielens_100K", "movielens-100k", 1e-50, true},
		{"runtime", "movielens_100K", "movielens-100k", 1e-50, true},
		// MovieLens 100K: each model at its own K (1e-30), every model at
		// K = 5 with ten or twenty repeats (1); their noise study is of
		// the first kind.
		{"sparsity", "movielens_100K", "movielens-100k", 1e-30, true},
		{"sparsity", "sameK_movielens_100K", "movielens-100k", 1, true},
		{"sparsity", "sameK_20repeats_movielens_100K", "movielens-100k", 1, true},
		{"noise", "movielens_100K", "movielens-100k", 1e-30, true},
		{"sparsity", "movielens_1M", "movielens-1m", 0, false},
		{"noise", "movielens_1M", "movielens-1m", 0, false},
		{"cross_validation", "jester", "jester", 0, false},
	}
	for _, tt := range tests {
		for _, model := range []string{"GVG", "GVnG"} {
			want, _, ok := Hyperparameters(tt.study, tt.experiment, tt.dataset, model)
			if ok != tt.ok || (ok && (want["gamma"] != tt.gamma || want["lambda"] != 0.1 || want["alpha_sigma"] != 1 || want["beta_sigma"] != 1)) {
				t.Errorf("%s %s %s %s: got %v (ok %v), want gamma %v (ok %v)", model, tt.study, tt.experiment, tt.dataset, want, ok, tt.gamma, tt.ok)
			}
		}
	}
	for _, model := range []string{"GGG", "GGGA", "GGGW", "GL21", "PGG", "PGGG"} {
		if _, _, ok := Hyperparameters("cross_validation", "drug_sensitivity_gdsc", "gdsc-ic50", model); !ok {
			t.Errorf("%s: no upstream hyperparameters", model)
		}
	}
}
