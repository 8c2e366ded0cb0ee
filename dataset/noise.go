package dataset

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/bnmf-lab/bnmf/sparse"
)

// AddNoise returns a copy of entries with Gaussian noise added to every
// value, for the paper's noise-sensitivity study (Section 5, Fig. 4). The
// noise has variance ratio times the population variance of the values in
// entries (the noise-to-signal ratio: 0.1 for 10%), is drawn from src in
// the order of entries, and is neither rounded nor truncated, so noisy
// values may be fractional or negative. entries is not modified, and the
// i-th returned entry is the i-th of entries with noise, so the clean
// values stay available for scoring.
//
// AddNoise returns an error, naming the problem, if src is nil or ratio
// is negative or not finite.
func AddNoise(entries []sparse.Entry, ratio float64, src rand.Source) ([]sparse.Entry, error) {
	if src == nil {
		return nil, errNilSource
	}
	if !(ratio >= 0) || math.IsInf(ratio, 1) {
		return nil, fmt.Errorf("dataset: noise-to-signal ratio %v must be nonnegative and finite", ratio)
	}
	out := make([]sparse.Entry, len(entries))
	copy(out, entries)
	if ratio == 0 || len(entries) == 0 {
		return out, nil
	}
	std := math.Sqrt(ratio * Variance(entries))
	rng := rand.New(src)
	for i := range out {
		out[i].Value += std * rng.NormFloat64()
	}
	return out, nil
}

// Variance returns the population variance (divisor len(entries)) of the
// values of entries, computed in two passes; it is 0 for none.
func Variance(entries []sparse.Entry) float64 {
	if len(entries) == 0 {
		return 0
	}
	var mean float64
	for _, e := range entries {
		mean += e.Value
	}
	mean /= float64(len(entries))
	var ss float64
	for _, e := range entries {
		d := e.Value - mean
		ss += d * d
	}
	return ss / float64(len(entries))
}
