package mcmcdiag

import "math"

// rhat returns the potential scale reduction factor of the draws in d,
// taken as they are (callers split them first), following posterior's
// .rhat and the split-R-hat of Vehtari et al. (2021):
//
//	R-hat = sqrt((B/W + n - 1) / n),
//
// with B = n times the variance of the chain means and W the mean of the
// within-chain variances. It is NaN for undefined draws (see the package
// documentation) and for fewer than 2 draws per chain.
func (w *Workspace) rhat(d matrix) float64 {
	m, n := d.m, d.n
	if n < 2 || undefined(d.x) {
		return math.NaN()
	}
	cm := grow(w.cm, m)
	cv := grow(w.cv, m)
	w.cm, w.cv = cm, cv
	fn := float64(n)
	for j := 0; j < m; j++ {
		c := d.chain(j)
		mu := plainMean(c)
		var s float64
		for _, v := range c {
			e := v - mu
			s += e * e
		}
		cm[j] = mu
		cv[j] = s / fn * (fn / (fn - 1))
	}
	b := fn * variance(cm)
	within := mean(cv)
	return math.Sqrt((b/within + fn - 1) / fn)
}
