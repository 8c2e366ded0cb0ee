package mcmcdiag

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/dsp/fourier"
)

// Workspace holds the scratch buffers and FFT plan the diagnostics need,
// so that repeated calls on draws of similar size allocate little. The
// zero value is ready to use. A Workspace is not safe for concurrent use;
// give each goroutine its own. The package-level functions use a fresh
// Workspace on every call.
type Workspace struct {
	full, halves   []float64 // the draws as given, and split
	sorted         []float64 // all draws in increasing order
	aux, auxHalves []float64 // folded or indicator draws, and split
	z              []float64 // rank-normalised draws
	pairs          []ranked  // draws being ranked, with their positions

	fft          *fourier.FFT
	pad          []float64
	coef         []complex128
	ac, acm, rho []float64
	cm, cv       []float64
	yc, ss       []float64 // centred draws and their sums of squares
	lm           lagMeans
}

// RHat returns posterior's rhat(): the larger of the rank-normalised
// split-R-hat of the draws (bulk) and of the draws folded about their
// median, |x - median(x)| (tail). See the package documentation for the
// input layout, when the result is NaN, and the panics.
func RHat(chains [][]float64) float64 { return new(Workspace).RHat(chains) }

// RHat is the package-level RHat using w's buffers.
func (w *Workspace) RHat(chains [][]float64) float64 {
	d, xs := w.load(chains)
	return maxOrNaN(w.rhatBulk(xs), w.rhatTail(d))
}

// RHatBasic returns posterior's rhat_basic() with split = TRUE: the
// split-R-hat of the draws themselves, without rank normalisation.
func RHatBasic(chains [][]float64) float64 { return new(Workspace).RHatBasic(chains) }

// RHatBasic is the package-level RHatBasic using w's buffers.
func (w *Workspace) RHatBasic(chains [][]float64) float64 {
	_, xs := w.load(chains)
	return w.rhat(xs)
}

// ESSBulk returns posterior's ess_bulk(): the split-chain effective sample
// size of the rank-normalised draws, a measure of how well the centre of
// the distribution is explored.
func ESSBulk(chains [][]float64) float64 { return new(Workspace).ESSBulk(chains) }

// ESSBulk is the package-level ESSBulk using w's buffers.
func (w *Workspace) ESSBulk(chains [][]float64) float64 {
	_, xs := w.load(chains)
	z, ok := w.rankNormalize(w.z, xs)
	if !ok {
		return math.NaN()
	}
	w.z = z.x
	return w.ess(z)
}

// ESSTail returns posterior's ess_tail(): the smaller of ESSQuantile at
// 0.05 and at 0.95, NaN if either is.
func ESSTail(chains [][]float64) float64 { return new(Workspace).ESSTail(chains) }

// ESSTail is the package-level ESSTail using w's buffers.
func (w *Workspace) ESSTail(chains [][]float64) float64 {
	d, _ := w.load(chains)
	return minOrNaN(w.essQuantile(d, 0.05), w.essQuantile(d, 0.95))
}

// ESSQuantile returns posterior's ess_quantile() at probability p: the
// split-chain effective sample size of the indicator draws x <= q, with q
// the p-quantile of all draws (R's default type 7). As in posterior, p = 1
// is replaced by (S - 1/2)/S for S draws in all. ESSQuantile panics if p
// is outside [0, 1] or NaN.
func ESSQuantile(chains [][]float64, p float64) float64 {
	return new(Workspace).ESSQuantile(chains, p)
}

// ESSQuantile is the package-level ESSQuantile using w's buffers.
func (w *Workspace) ESSQuantile(chains [][]float64, p float64) float64 {
	if !(p >= 0 && p <= 1) {
		panic(fmt.Sprintf("mcmcdiag: quantile probability %v outside [0, 1]", p))
	}
	d, _ := w.load(chains)
	return w.essQuantile(d, p)
}

// ESSBasic returns posterior's ess_basic() with split = TRUE (equal to its
// ess_mean()): the split-chain effective sample size of the draws
// themselves, the one that governs the Monte Carlo error of their mean.
func ESSBasic(chains [][]float64) float64 { return new(Workspace).ESSBasic(chains) }

// ESSBasic is the package-level ESSBasic using w's buffers.
func (w *Workspace) ESSBasic(chains [][]float64) float64 {
	_, xs := w.load(chains)
	return w.ess(xs)
}

// load checks chains, copies them into w, and returns them whole and split.
func (w *Workspace) load(chains [][]float64) (d, xs matrix) {
	m, n := dims(chains)
	d = flatten(w.full, chains, m, n)
	w.full = d.x
	xs = split(w.halves, d)
	w.halves = xs.x
	return d, xs
}

// rhatBulk is the rank-normalised split-R-hat of the split draws xs.
func (w *Workspace) rhatBulk(xs matrix) float64 {
	z, ok := w.rankNormalize(w.z, xs)
	if !ok {
		return math.NaN()
	}
	w.z = z.x
	return w.rhat(z)
}

// rhatTail is the rank-normalised split-R-hat of the draws d folded about
// their median.
func (w *Workspace) rhatTail(d matrix) float64 {
	if hasNaN(d.x) {
		return math.NaN()
	}
	w.sorted = sortedCopy(w.sorted, d.x)
	f := fold(w.aux, d, median(w.sorted))
	w.aux = f.x
	fs := split(w.auxHalves, f)
	w.auxHalves = fs.x
	return w.rhatBulk(fs)
}

// essQuantile is ESSQuantile on the unsplit draws d.
func (w *Workspace) essQuantile(d matrix, p float64) float64 {
	if undefined(d.x) {
		return math.NaN()
	}
	w.sorted = sortedCopy(w.sorted, d.x)
	return w.essQuantileSorted(d, p)
}

// essQuantileSorted is essQuantile when w.sorted already holds the draws
// of d in increasing order.
func (w *Workspace) essQuantileSorted(d matrix, p float64) float64 {
	if undefined(d.x) {
		return math.NaN()
	}
	s := len(d.x)
	if p == 1 {
		p = (float64(s) - 0.5) / float64(s)
	}
	ind := indicator(w.aux, d, quantile7(w.sorted, p))
	w.aux = ind.x
	is := split(w.auxHalves, ind)
	w.auxHalves = is.x
	return w.ess(is)
}

// maxOrNaN is R's max(a, b): NaN if either is.
func maxOrNaN(a, b float64) float64 {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.NaN()
	}
	return max(a, b)
}

// minOrNaN is R's min(a, b): NaN if either is.
func minOrNaN(a, b float64) float64 {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.NaN()
	}
	return min(a, b)
}
