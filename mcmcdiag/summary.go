package mcmcdiag

import "math"

// Summary holds every diagnostic of one scalar quantity. A field is NaN
// where posterior returns NA (see the package documentation).
type Summary struct {
	// RHat is max(RHatBulk, RHatTail), posterior's rhat(). Vehtari et al.
	// (2021) recommend using draws only when it is below 1.01.
	RHat float64
	// RHatBulk is the rank-normalised split-R-hat.
	RHatBulk float64
	// RHatTail is the rank-normalised split-R-hat of the draws folded
	// about their median.
	RHatTail float64
	// RHatBasic is the split-R-hat of the draws themselves, posterior's
	// rhat_basic().
	RHatBasic float64

	// ESSBulk is the split-ESS of the rank-normalised draws, posterior's
	// ess_bulk(). Vehtari et al. (2021) ask for at least 100 per chain.
	ESSBulk float64
	// ESSTail is min(ESSQ05, ESSQ95), posterior's ess_tail().
	ESSTail float64
	// ESSQ05 and ESSQ95 are the ESS of the 5% and 95% quantiles,
	// posterior's ess_quantile(x, c(0.05, 0.95)).
	ESSQ05, ESSQ95 float64
	// ESSBasic is the split-ESS of the draws themselves, posterior's
	// ess_basic() and ess_mean().
	ESSBasic float64
}

// Summarize returns every diagnostic of one quantity at once, sorting and
// rank-normalising the draws only as often as the definitions require:
// three sorts of all draws, for the two rank normalisations and for the
// median and quantiles.
// Each field equals the corresponding package function. See the package
// documentation for the input layout and the panics.
func Summarize(chains [][]float64) Summary { return new(Workspace).Summarize(chains) }

// Summarize is the package-level Summarize using w's buffers.
func (w *Workspace) Summarize(chains [][]float64) Summary {
	d, xs := w.load(chains)
	var s Summary
	s.RHatBasic = w.rhat(xs)
	s.ESSBasic = w.ess(xs)
	if hasNaN(d.x) {
		nan := math.NaN()
		s.RHat, s.RHatBulk, s.RHatTail = nan, nan, nan
		s.ESSBulk, s.ESSTail, s.ESSQ05, s.ESSQ95 = nan, nan, nan, nan
		return s
	}

	if z, ok := w.rankNormalize(w.z, xs); ok {
		w.z = z.x
		s.RHatBulk = w.rhat(z)
		s.ESSBulk = w.ess(z)
	}

	// One sort of all draws serves the median and both quantiles.
	w.sorted = sortedCopy(w.sorted, d.x)
	f := fold(w.aux, d, median(w.sorted))
	w.aux = f.x
	fs := split(w.auxHalves, f)
	w.auxHalves = fs.x
	s.RHatTail = w.rhatBulk(fs)
	s.RHat = maxOrNaN(s.RHatBulk, s.RHatTail)

	s.ESSQ05 = w.essQuantileSorted(d, 0.05)
	s.ESSQ95 = w.essQuantileSorted(d, 0.95)
	s.ESSTail = minOrNaN(s.ESSQ05, s.ESSQ95)
	return s
}
