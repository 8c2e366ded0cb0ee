package posterior

import (
	"slices"

	"gonum.org/v1/gonum/stat"

	"github.com/bnmf-lab/bnmf/bnmf"
)

// HyperSummary summarises the kept draws of one shared hyperparameter per
// latent dimension k (GEEA's rates lambda_k), pooled over the chains
// after matching their factors (Posterior.Permutations), in the units the
// model was fitted in (those of the data divided by its scale): the
// number of draws, and per dimension the mean, the sd and the 2.5%, 50%
// and 97.5% quantiles. bnmf fit writes it to summary.json.
type HyperSummary struct {
	Name   string    `json:"name"`
	Draws  int       `json:"draws"`
	Mean   []float64 `json:"mean"`
	SD     []float64 `json:"sd"`
	Q025   []float64 `json:"q025"`
	Median []float64 `json:"median"`
	Q975   []float64 `json:"q975"`
}

// SummariseHyper pools the chains' draws of each shared hyperparameter,
// dimension k of chain c being its factor perms[c][k] (a Posterior's
// Permutations; a chain beyond perms keeps its order). It returns nil for
// a model without shared hyperparameters.
func SummariseHyper(rs []*bnmf.Result, perms [][]int) []HyperSummary {
	var out []HyperSummary
	for i, h := range rs[0].Hyper {
		k := len(h.Draws[0])
		hs := HyperSummary{Name: h.Name}
		for kk := range k {
			var xs []float64
			for c, r := range rs {
				from := kk
				if c < len(perms) {
					from = perms[c][kk]
				}
				for _, d := range r.Hyper[i].Draws {
					xs = append(xs, d[from])
				}
			}
			slices.Sort(xs)
			mean, sd := stat.PopMeanStdDev(xs, nil)
			hs.Draws = len(xs)
			hs.Mean = append(hs.Mean, mean)
			hs.SD = append(hs.SD, sd)
			hs.Q025 = append(hs.Q025, stat.Quantile(0.025, stat.LinInterp, xs, nil))
			hs.Median = append(hs.Median, stat.Quantile(0.5, stat.LinInterp, xs, nil))
			hs.Q975 = append(hs.Q975, stat.Quantile(0.975, stat.LinInterp, xs, nil))
		}
		out = append(out, hs)
	}
	return out
}
