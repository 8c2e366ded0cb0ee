package bnmf

import "slices"

// HyperDraws holds the kept draws of a model's shared hyperparameters,
// such as GEEA's rates lambda_k, one per latent dimension. They are in
// the units the model was fitted in: Result.Rescale leaves them as they
// are.
type HyperDraws struct {
	// Name names the hyperparameters, such as "lambda".
	Name string
	// Draws[s][k] is hyperparameter k at the s-th kept sweep; a pooled
	// Result holds the draws of every chain, chain after chain.
	Draws [][]float64
}

// reportedPrior is a prior whose shared hyperparameters Result.Hyper
// reports.
type reportedPrior interface {
	// reported names the hyperparameters and returns their current
	// values, which alias the state.
	reported() (name string, values []float64)
}

// hyperReporter is a chain with shared hyperparameters to report.
type hyperReporter interface {
	// reportedHyper returns the names and current values of the
	// hyperparameters, in a fixed order; the values alias the state.
	reportedHyper() (names []string, values [][]float64)
}

func (c *gibbsChain) reportedHyper() (names []string, values [][]float64) {
	for s := range c.sides {
		if r, ok := c.sides[s].prior.(reportedPrior); ok {
			name, v := r.reported()
			names = append(names, name)
			values = append(values, v)
		}
	}
	return names, values
}

// appendHyperDraws appends a copy of the chain's reported hyperparameters
// to draws, one HyperDraws per name, creating them on the first call.
func appendHyperDraws(draws []HyperDraws, ch chain) []HyperDraws {
	r, ok := ch.(hyperReporter)
	if !ok {
		return draws
	}
	names, values := r.reportedHyper()
	if draws == nil && len(names) > 0 {
		draws = make([]HyperDraws, len(names))
		for i, n := range names {
			draws[i].Name = n
		}
	}
	for i, v := range values {
		draws[i].Draws = append(draws[i].Draws, slices.Clone(v))
	}
	return draws
}

// poolHyperDraws concatenates the hyperparameter draws of chains, chain
// after chain.
func poolHyperDraws(rs []*Result) []HyperDraws {
	if len(rs[0].Hyper) == 0 {
		return nil
	}
	out := make([]HyperDraws, len(rs[0].Hyper))
	for i, h := range rs[0].Hyper {
		out[i].Name = h.Name
		for _, r := range rs {
			out[i].Draws = append(out[i].Draws, r.Hyper[i].Draws...)
		}
	}
	return out
}
