package bnmf

import (
	"fmt"
	"math"

	"github.com/bnmf-lab/bnmf/predictive"
)

// Family is the likelihood family of a model: the distribution of an
// observed entry a_mn given the factors.
type Family int

const (
	// Gaussian is a_mn ~ N(w_m . z_n, sigma^2), the likelihood of the
	// paper's models.
	Gaussian Family = iota
	// Poisson is a_mn ~ Poi(w_m . z_n), for counts: the data must be
	// nonnegative integers, and there is no sigma^2 (Sigma2 is 0).
	Poisson
)

// String returns "gaussian" or "poisson".
func (f Family) String() string {
	switch f {
	case Gaussian:
		return "gaussian"
	case Poisson:
		return "poisson"
	}
	return "unknown"
}

// predictive returns the family of the components of the posterior
// predictive mixture under this likelihood.
func (f Family) predictive() predictive.Family {
	if f == Poisson {
		return predictive.Poisson
	}
	return predictive.Normal
}

// familyChain is implemented by a chain whose likelihood is not
// Gaussian; a chain that does not implement it is Gaussian.
type familyChain interface {
	// family returns the chain's likelihood family.
	family() Family
	// logLikelihood returns the log-likelihood of the training entries
	// under the current state.
	logLikelihood() float64
}

// familyOf returns the likelihood family of ch.
func familyOf(ch chain) Family {
	if f, ok := ch.(familyChain); ok {
		return f.family()
	}
	return Gaussian
}

// isCount reports whether v is a nonnegative integer that a float64
// holds exactly (at most 2^53).
func isCount(v float64) bool {
	return v >= 0 && v <= 1<<53 && v == math.Trunc(v)
}

// checkCounts returns an error naming the first entry of data, in
// row-major order, that is not a count, or nil when all are.
func checkCounts(model string, data *Matrix) error {
	_, _, values := data.RowStorage()
	for p, v := range values {
		if !isCount(v) {
			e := data.EntryAt(p)
			return fmt.Errorf("bnmf: %s has a Poisson likelihood and needs counts (nonnegative integers); entry (%d, %d) is %v", model, e.Row, e.Col, v)
		}
	}
	return nil
}
