package predictive

import (
	"errors"
	"fmt"
	"math"
	"slices"
)

// DefaultBuffer is the number of samples per entry an Accumulator keeps
// when Settings.Buffer is zero. With 100 samples, keeping 20 cuts Finish's
// pair term 26-fold, with errors of about 2e-4 in an entry's CRPS and 3e-4
// in its interval widths (see the package documentation).
const DefaultBuffer = 20

// DefaultLevels returns the interval levels used when Settings.Levels is
// nil: 0.5, 0.8, 0.9 and 0.95.
func DefaultLevels() []float64 { return []float64{0.5, 0.8, 0.9, 0.95} }

// Settings configures an Accumulator. Zero values mean the documented
// defaults.
type Settings struct {
	// Samples is the number S of posterior samples that will be added. It
	// must be positive; it decides which samples the buffer keeps, and Add
	// refuses more.
	Samples int
	// Buffer is the number B of samples kept per entry for the interval
	// quantiles and the CRPS pair term. Zero means DefaultBuffer; a value
	// above Samples means Samples, in which case every quantity is exact.
	Buffer int
	// Levels are the levels of the central intervals, each in (0, 1). Nil
	// means DefaultLevels().
	Levels []float64
	// Tol is the quantile tolerance relative to each entry's predictive
	// standard deviation (see Mixture.Quantile). Zero means DefaultTol.
	Tol float64
	// Workers is the number of goroutines Finish uses. Zero means 1.
	// Results do not depend on it.
	Workers int
	// Family is the family of the mixture's components: Normal (the zero
	// value), fed by Add, or Poisson, fed by AddPoisson.
	Family Family
}

// Accumulator collects the posterior predictive distributions of many
// held-out entries, one posterior sample at a time, and scores them against
// one or more vectors of observed values (targets). See the package
// documentation for what is exact and what comes from the buffer.
//
// Memory: with n entries, T targets and buffer B, an Accumulator holds
// n (B + 2 + 6T) float64s (8 bytes each: the buffer, the running mean and
// sum of squares of the predictions, and per target a copy of the values,
// the density sum, the log-sum-exp maximum and sum, the PIT sum and the
// CRPS first term), plus S + B floats for the noise variances and a 55 KB
// table. For n = 1e5, B = 20 and T = 2 that is 27.2 MB; for n = 1e6,
// 272 MB. Add allocates nothing; Finish allocates the Result, n (2 + 2L +
// 3T) float64s for L levels (12.8 MB for n = 1e5, L = 4, T = 2).
//
// An Accumulator is not safe for concurrent use; give each chain its own
// and pool them with Merge.
type Accumulator struct {
	family  Family
	n       int
	levels  []float64
	tol     float64
	workers int

	samples int // samples the accumulator accepts
	count   int // samples added
	sealed  bool

	// Per entry, target-independent: Welford's running mean and sum of
	// squared deviations of the predictions.
	mean, m2 []float64

	// buf holds, entry-major, the predictions of the kept samples:
	// entry k's are buf[k*stride : k*stride+nbuf].
	buf    []float64
	stride int
	nbuf   int
	// bufSigma2 and bufRep are, per kept sample, its noise variance and
	// the number of added samples it stands for (set by Merge; nil before,
	// meaning count/nbuf each).
	bufSigma2, bufRep []float64

	// sigma2 holds the noise variance of every sample added.
	sigma2 []float64

	targets []*target
	table   *normalTable
}

// target holds the running scores against one vector of observed values.
type target struct {
	y []float64
	// The predictive density at y, times S, is dens + exp(lseMax) lseSum:
	// dens sums the terms N(y | mu_s, sigma2_s) with |y - mu_s| <= 4
	// sigma_s, from the table's phi; the others, which may underflow,
	// enter a running log-sum-exp of their logarithms.
	dens, lseMax, lseSum []float64
	// pit sums Phi((y - mu_s)/sigma_s); crps sums A(y - mu_s, sigma2_s).
	pit, crps []float64
	// For a Poisson accumulator (see AddPoisson): pit sums P_s(X <= y),
	// left sums P_s(X <= y-1), crps sums E_s|X - y|, and the log-sum-exp
	// holds every log P_s(X = y) (dens stays 0); logFact[k] is log(y[k]!).
	left, logFact []float64
}

// densityEdge bounds the |z| = |y - mu|/sigma for which Add takes the
// normal density from the table rather than from math.Exp: within it the
// table's phi is accurate to 6e-14 relative (see normalTable), and outside
// it (a fraction 6e-5 of the terms when y is drawn from the predictive
// distribution) the exponential is rare enough not to cost.
const densityEdge = 4

// New returns an Accumulator for the entries of targets, each a vector of
// observed values with one value per test entry (all of one length, at
// least one entry). It copies the targets. Invalid settings or non-finite
// target values are errors.
func New(targets [][]float64, s Settings) (*Accumulator, error) {
	if len(targets) == 0 || len(targets[0]) == 0 {
		return nil, errors.New("predictive: New needs at least one target vector with at least one entry")
	}
	n := len(targets[0])
	if s.Samples <= 0 {
		return nil, fmt.Errorf("predictive: Settings.Samples is %d; it must be positive", s.Samples)
	}
	if s.Buffer < 0 {
		return nil, fmt.Errorf("predictive: Settings.Buffer is %d; it must not be negative", s.Buffer)
	}
	if s.Buffer == 0 {
		s.Buffer = DefaultBuffer
	}
	if s.Levels == nil {
		s.Levels = DefaultLevels()
	}
	for i, a := range s.Levels {
		if err := CheckLevel(a); err != nil {
			return nil, fmt.Errorf("predictive: Settings.Levels[%d]: %w", i, err)
		}
	}
	if !(s.Tol >= 0) || math.IsInf(s.Tol, 1) {
		return nil, fmt.Errorf("predictive: Settings.Tol is %v; it must be nonnegative and finite", s.Tol)
	}
	if s.Tol == 0 {
		s.Tol = DefaultTol
	}
	if s.Workers < 0 {
		return nil, fmt.Errorf("predictive: Settings.Workers is %d; it must not be negative", s.Workers)
	}
	if s.Family != Normal && s.Family != Poisson {
		return nil, fmt.Errorf("predictive: Settings.Family is %d; it must be Normal or Poisson", int(s.Family))
	}
	a := &Accumulator{
		family:    s.Family,
		n:         n,
		levels:    slices.Clone(s.Levels),
		tol:       s.Tol,
		workers:   max(s.Workers, 1),
		samples:   s.Samples,
		mean:      make([]float64, n),
		m2:        make([]float64, n),
		stride:    min(s.Buffer, s.Samples),
		bufSigma2: make([]float64, 0, min(s.Buffer, s.Samples)),
		sigma2:    make([]float64, 0, s.Samples),
		table:     newNormalTable(),
	}
	a.buf = make([]float64, n*a.stride)
	for i, y := range targets {
		if len(y) != n {
			return nil, fmt.Errorf("predictive: target %d has %d values; target 0 has %d", i, len(y), n)
		}
		for k, v := range y {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("predictive: target %d, entry %d is %v; values must be finite", i, k, v)
			}
		}
		tg := &target{
			y:      slices.Clone(y),
			dens:   make([]float64, n),
			lseMax: make([]float64, n),
			lseSum: make([]float64, n),
			pit:    make([]float64, n),
			crps:   make([]float64, n),
		}
		for k := range tg.lseMax {
			tg.lseMax[k] = -math.MaxFloat64
		}
		if s.Family == Poisson {
			if err := tg.countTarget(i); err != nil {
				return nil, err
			}
		}
		a.targets = append(a.targets, tg)
	}
	return a, nil
}

// Entries returns the number of test entries.
func (a *Accumulator) Entries() int { return a.n }

// Count returns the number of samples added (summed over the parts of a
// merged Accumulator).
func (a *Accumulator) Count() int { return a.count }

// keeps reports whether the buffer keeps sample i (counted from 0): it
// keeps samples floor(j S / B) for j = 0, ..., B-1, the first of B equal
// runs of the S samples (all of them when S <= B). The first sample is
// always kept, so that Finish has a buffer after any number of samples.
func (a *Accumulator) keeps(i int) bool {
	j := a.nbuf
	return j < a.stride && i == j*a.samples/a.stride
}

// Add adds one posterior sample: mu[k] is its prediction for test entry k
// and sigma2 its noise variance. It panics if len(mu) differs from the
// number of entries. It returns an error, and changes nothing, if sigma2 is
// not positive and finite, some mu[k] is not finite, Settings.Samples
// samples were added already, or the Accumulator came from Merge.
//
// Per entry and target it costs one tabulated evaluation of Phi and phi
// (and an exponential when y is more than 4 sigma from mu); it allocates
// nothing.
func (a *Accumulator) Add(mu []float64, sigma2 float64) error {
	if len(mu) != a.n {
		panic(fmt.Sprintf("predictive: Add got %d predictions for %d entries", len(mu), a.n))
	}
	if a.family != Normal {
		return errors.New("predictive: Add on a Poisson Accumulator; use AddPoisson")
	}
	if err := a.canAdd(); err != nil {
		return err
	}
	if !(sigma2 > 0) || math.IsInf(sigma2, 1) {
		return fmt.Errorf("predictive: sample %d has noise variance %v; it must be positive and finite", a.count, sigma2)
	}
	for k, v := range mu {
		if v-v != 0 { // NaN or infinite
			return fmt.Errorf("predictive: sample %d predicts %v for entry %d; predictions must be finite", a.count, v, k)
		}
	}
	sigma := math.Sqrt(sigma2)
	inv, logSigma := 1/sigma, math.Log(sigma)
	for _, tg := range a.targets {
		a.addTarget(tg, mu, sigma, inv, logSigma)
	}
	if a.keeps(a.count) {
		a.bufSigma2 = append(a.bufSigma2, sigma2)
	}
	a.sigma2 = append(a.sigma2, sigma2)
	a.record(mu)
	return nil
}

// record keeps mu in the buffer if the sample is one it keeps, counts the
// sample and folds mu into the running means and sums of squares.
func (a *Accumulator) record(mu []float64) {
	if a.keeps(a.count) {
		for k, v := range mu {
			a.buf[k*a.stride+a.nbuf] = v
		}
		a.nbuf++
	}
	a.count++
	w := 1 / float64(a.count)
	mean, m2 := a.mean[:len(mu)], a.m2[:len(mu)]
	for k, v := range mu {
		d := v - mean[k]
		mean[k] += d * w
		m2[k] += d * (v - mean[k])
	}
}

// canAdd returns an error if the Accumulator takes no more samples.
func (a *Accumulator) canAdd() error {
	if a.sealed {
		return errors.New("predictive: Add on an Accumulator made by Merge")
	}
	if a.count >= a.samples {
		return fmt.Errorf("predictive: Add after all %d samples declared in Settings.Samples", a.samples)
	}
	return nil
}

// addTarget folds one sample into the scores against one target.
func (a *Accumulator) addTarget(tg *target, mu []float64, sigma, inv, logSigma float64) {
	n := len(mu)
	y, dens, pit, crps := tg.y[:n], tg.dens[:n], tg.pit[:n], tg.crps[:n]
	tab := a.table
	for k, m := range mu {
		z := (y[k] - m) * inv
		cdf, pdf := tab.eval(z)
		pit[k] += cdf
		crps[k] += sigma * (2*pdf + z*(2*cdf-1))
		if z <= densityEdge && z >= -densityEdge {
			dens[k] += pdf * inv
		} else {
			tg.addTail(k, -0.5*z*z-logSigma-logSqrt2Pi)
		}
	}
}

// addTail adds exp(l) to entry k's running log-sum-exp.
func (tg *target) addTail(k int, l float64) {
	if l > tg.lseMax[k] {
		tg.lseSum[k] = tg.lseSum[k]*math.Exp(tg.lseMax[k]-l) + 1
		tg.lseMax[k] = l
	} else {
		tg.lseSum[k] += math.Exp(l - tg.lseMax[k])
	}
}

// logDensity returns log((1/count) (dens + exp(lseMax) lseSum)) for entry k.
func (tg *target) logDensity(k int, count float64) float64 {
	a := math.Log(tg.dens[k])                  // -Inf when no term was within densityEdge
	b := tg.lseMax[k] + math.Log(tg.lseSum[k]) // -Inf when every term was
	hi, lo := math.Max(a, b), math.Min(a, b)
	if math.IsInf(lo, -1) {
		return hi - math.Log(count)
	}
	return hi + math.Log1p(math.Exp(lo-hi)) - math.Log(count)
}
