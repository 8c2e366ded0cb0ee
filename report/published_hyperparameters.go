package report

import (
	"slices"

	"github.com/bnmf-lab/bnmf/experiments"
	"github.com/bnmf-lab/bnmf/internal/brouwerlio"
)

// sameHyperparameters reports whether model runs in s with the
// hyperparameters of Brouwer & Lio's experiment of study
// (brouwerlio.Hyperparameters): each of theirs written out in s's stored
// config with the same value (and NMF with their I-divergence objective).
// Without a stored config nothing matches.
func sameHyperparameters(s *StudySummary, study, experiment, model string) bool {
	want, objective, ok := brouwerlio.Hyperparameters(study, experiment, s.Study.Manifest.Dataset, model)
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
