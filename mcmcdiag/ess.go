package mcmcdiag

import (
	"math"

	"gonum.org/v1/gonum/dsp/fourier"
)

// Autocovariance returns the autocovariance estimates of x at lags 0 to
// len(x)-1, as posterior's autocovariance: the biased estimate
//
//	acov[k] = (1/N) * sum_{t=0}^{N-1-k} (x[t] - xbar) * (x[t+k] - xbar),
//
// computed with a real FFT on the centred draws zero-padded to twice the
// smallest 2,3,5-smooth length at least N, and rescaled so that acov[0] is
// the variance with divisor N. A constant x gives all zeros. The cost is
// O(N log N). Autocovariance panics if x is empty.
func Autocovariance(x []float64) []float64 {
	if len(x) == 0 {
		panic("mcmcdiag: autocovariance of no draws")
	}
	var w Workspace
	return w.autocovariance(nil, x)
}

// autocovariance writes Autocovariance(x) into dst (grown as needed),
// reusing w's FFT plan and buffers.
func (w *Workspace) autocovariance(dst, x []float64) []float64 {
	n := len(x)
	dst = grow(dst, n)
	v := variance(x)
	if !(v != 0) { // zero, or NaN for a single draw
		clear(dst)
		return dst
	}
	size := 2 * nextSmooth(n)
	if w.fft == nil {
		w.fft = fourier.NewFFT(size)
	} else if w.fft.Len() != size {
		w.fft.Reset(size)
	}
	pad := grow(w.pad, size)
	w.pad = pad
	mu := mean(x)
	for i, xi := range x {
		pad[i] = xi - mu
	}
	clear(pad[n:])
	if cap(w.coef) < size/2+1 {
		w.coef = make([]complex128, size/2+1)
	}
	coef := w.fft.Coefficients(w.coef[:size/2+1], pad)
	for k, c := range coef {
		a := math.Hypot(real(c), imag(c))
		coef[k] = complex(a*a, 0)
	}
	ac := w.fft.Sequence(pad, coef)
	scale := float64(n-1) / float64(n)
	for k := range dst {
		dst[k] = ac[k] / ac[0] * v * scale
	}
	return dst
}

// nextSmooth returns the smallest integer at least n whose only prime
// factors are 2, 3 and 5 (R's nextn).
func nextSmooth(n int) int {
	for m := max(n, 1); ; m++ {
		r := m
		for _, f := range [...]int{2, 3, 5} {
			for r%f == 0 {
				r /= f
			}
		}
		if r == 1 {
			return m
		}
	}
}

// ess returns the effective sample size of the draws in d, taken as they
// are (callers split them first), following posterior's .ess: the
// multi-chain autocorrelation estimate
//
//	rho[t] = 1 - (W - mean_j acov_j[t]) / var+,
//
// with W the mean within-chain variance and var+ the pooled variance
// estimate, summed over Geyer's (1992) initial positive sequence (pairs
// rho[2k] + rho[2k+1] until one is negative) made monotone (each pair no
// larger than the one before), with posterior's final term rho[maxT] added
// for antithetic chains and tau capped below at 1/log10(S). The ESS is
// S/tau for S = m*n draws.
//
// It is NaN for fewer than 3 draws per chain and for undefined draws (see
// the package documentation). The autocovariances are summed directly for
// the first few lags, which is all that well-mixed chains need, and by FFT
// for all lags once the sequence runs longer (see lagMeans).
func (w *Workspace) ess(d matrix) float64 {
	m, n := d.m, d.n
	if n < 3 || undefined(d.x) {
		return math.NaN()
	}
	cm := grow(w.cm, m)
	for j := 0; j < m; j++ {
		cm[j] = plainMean(d.chain(j))
	}
	w.cm = cm
	acm := w.lagMeans(d)

	fn := float64(n)
	meanVar := acm.at(0) * fn / (fn - 1)
	varPlus := meanVar * (fn - 1) / fn
	if m > 1 {
		varPlus += variance(cm)
	}

	rho := grow(w.rho, n)
	clear(rho)
	w.rho = rho
	// Geyer's initial positive sequence.
	t := 0
	even := 1.0
	rho[0] = even
	odd := 1 - (meanVar-acm.at(1))/varPlus
	rho[1] = odd
	for t < n-5 && !math.IsNaN(even+odd) && even+odd > 0 {
		t += 2
		even = 1 - (meanVar-acm.at(t))/varPlus
		odd = 1 - (meanVar-acm.at(t+1))/varPlus
		if even+odd >= 0 {
			rho[t] = even
			rho[t+1] = odd
		}
	}
	maxT := t
	if even > 0 {
		rho[maxT] = even
	}
	// Geyer's initial monotone sequence.
	for t = 0; t <= maxT-4; {
		t += 2
		if rho[t]+rho[t+1] > rho[t-2]+rho[t-1] {
			rho[t] = (rho[t-2] + rho[t-1]) / 2
			rho[t+1] = rho[t]
		}
	}
	var sum float64
	if maxT == 0 {
		// posterior sums rho_hat_t[1:max_t]; in R 1:0 selects the first
		// element, so the sum is rho[0] rather than empty.
		sum = rho[0]
	} else {
		for _, r := range rho[:maxT] {
			sum += r
		}
	}
	s := float64(m * n)
	tau := -1 + 2*sum + rho[maxT]
	tau = max(tau, 1/math.Log10(s))
	return s / tau
}

// directLags is how many lags lagMeans sums directly before it switches to
// the FFT; each direct lag costs about n multiply-adds per chain, so up to
// here the direct sums cost less than the O(n log n) transforms; on 4
// AR(0.5) chains of 1000 draws the cut-over made Summarize about a third
// faster than the FFT for every chain (README, Speed).
const directLags = 32

// lagMeans serves the autocovariances of the chains of d averaged over
// chains, mean_j acov_j[k], computing them only as far as they are asked
// for.
type lagMeans struct {
	w    *Workspace
	d    matrix
	acm  []float64 // acm[:have] are known
	have int
}

// lagMeans prepares the chain-averaged autocovariances of d: the centred
// draws and their sums of squares, and lags 0 and 1.
func (w *Workspace) lagMeans(d matrix) *lagMeans {
	yc := grow(w.yc, len(d.x))
	w.yc = yc
	ss := grow(w.ss, d.m)
	w.ss = ss
	for j := 0; j < d.m; j++ {
		c, y := d.chain(j), yc[j*d.n:(j+1)*d.n]
		mu := mean(c)
		var s float64
		for t, v := range c {
			y[t] = v - mu
			s += y[t] * y[t]
		}
		ss[j] = s
	}
	w.acm = grow(w.acm, d.n)
	w.lm = lagMeans{w: w, d: d, acm: w.acm}
	w.lm.extend(2)
	return &w.lm
}

// at returns mean_j acov_j[k].
func (l *lagMeans) at(k int) float64 {
	if k >= l.have {
		if k < directLags {
			l.extend(min(directLags, l.d.n))
		} else {
			l.fft()
		}
	}
	return l.acm[k]
}

// extend sums lags l.have to k-1 directly, as posterior scales them: for
// a chain with centred draws y, acov[k] = (sum_t y[t] y[t+k]) / (sum_t
// y[t]^2) * var * (n-1)/n, zero for a constant chain.
func (l *lagMeans) extend(k int) {
	d, n := l.d, l.d.n
	scale := float64(n-1) / float64(n)
	for lag := l.have; lag < k; lag++ {
		var sum float64
		for j := 0; j < d.m; j++ {
			s0 := l.w.ss[j]
			if s0 == 0 {
				continue
			}
			y := l.w.yc[j*n : (j+1)*n]
			var s float64
			for t := 0; t+lag < n; t++ {
				s += y[t] * y[t+lag]
			}
			v := s0 / float64(n-1)
			sum += s / s0 * v * scale
		}
		l.acm[lag] = sum / float64(d.m)
	}
	l.have = k
}

// fft computes every lag with Autocovariance's FFT.
func (l *lagMeans) fft() {
	acm := l.acm
	clear(acm)
	for j := 0; j < l.d.m; j++ {
		l.w.ac = l.w.autocovariance(l.w.ac, l.d.chain(j))
		for k, a := range l.w.ac {
			acm[k] += a
		}
	}
	for k := range acm {
		acm[k] /= float64(l.d.m)
	}
	l.have = l.d.n
}
