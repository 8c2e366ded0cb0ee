package predictive

import (
	"context"
	"errors"
	"math"
	"slices"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/bnmf-lab/bnmf/internal/workpool"
)

// Result holds the scores of an Accumulator: per-entry quantities and
// their means over entries.
type Result struct {
	// Levels are the interval levels, in the order of Settings.Levels.
	Levels []float64
	// Samples is the number S of samples in each entry's mixture.
	Samples int
	// Buffered is the number of kept samples the intervals and the CRPS
	// pair term were computed from; they are exact when it equals Samples.
	Buffered int

	// Mean and Variance are, per entry, the predictive mean (1/S) sum_s
	// mu_s and variance (1/S) sum_s (mu_s - mean)^2 + (1/S) sum_s sigma2_s
	// (law of total variance), exact over all samples.
	Mean, Variance []float64
	// Lower[l][k] and Upper[l][k] are entry k's central interval at level
	// Levels[l]: its quantiles at (1-a)/2 and (1+a)/2.
	Lower, Upper [][]float64
	// MeanWidth[l] is the mean over entries of Upper[l][k] - Lower[l][k].
	MeanWidth []float64
	// Scores holds one set of scores per target, in the order given to New.
	Scores []Scores

	// Evaluations is the number of mixture CDF evaluations the quantile
	// searches took over all entries and interval ends, each costing one
	// tabulated Phi per buffered sample; for a Poisson predictive, the
	// number of counts the CDF walks covered over all entries, each
	// costing a multiplication per buffered sample.
	Evaluations int
}

// Scores are the scores of the predictive distributions against one target
// vector y.
type Scores struct {
	// PIT[k] is the predictive CDF at y[k], (1/S) sum_s Phi((y[k] -
	// mu_s)/sigma_s), exact over all samples; for a Poisson predictive,
	// P(X <= y[k]).
	PIT []float64
	// PITLeft[k] is, for a Poisson predictive, P(X <= y[k] - 1), the
	// left limit of the CDF at y[k]: a randomised PIT is uniform between
	// PITLeft[k] and PIT[k]. It is nil for a normal predictive, whose CDF
	// is continuous.
	PITLeft []float64
	// LogDensity[k] is log((1/S) sum_s N(y[k] | mu_s, sigma2_s)), exact
	// over all samples; for a Poisson predictive, the log probability
	// mass log((1/S) sum_s Poi(y[k] | rate_s)).
	LogDensity []float64
	// CRPS[k] is the continuous ranked probability score of entry k's
	// predictive distribution at y[k] (see the package documentation for
	// the pair term when Buffered < Samples).
	CRPS []float64
	// Coverage[l] is the fraction of entries whose y lies in the central
	// interval at level Levels[l] of the full mixture: those with PIT in
	// [(1-a)/2, (1+a)/2], or for a Poisson predictive those with PIT >=
	// (1-a)/2 and PITLeft < (1+a)/2. It is exact over all samples, even
	// when the reported intervals come from the buffer.
	Coverage []float64
	// MeanLogDensity and MeanCRPS are the means over entries.
	MeanLogDensity, MeanCRPS float64
}

// GaussianInterval returns entry k's moment-matched normal interval at
// level a: Mean[k] -/+ z sqrt(Variance[k]), with z the standard normal
// (1+a)/2-quantile. It is an approximation to the mixture's interval in
// Lower and Upper, offered for comparison.
func (r *Result) GaussianInterval(k int, a float64) (lo, hi float64) {
	checkLevel(a)
	return gaussianInterval(r.Mean[k], r.Variance[k], a)
}

// finishChunk is the number of entries a Finish worker takes at a time.
const finishChunk = 512

// Finish computes the scores from the samples added so far. It does not
// change the Accumulator. It returns an error if no sample was added.
//
// Cost: per entry, the interval searches take about 1 to 3 evaluations of a
// B-component CDF for each interval end, and the CRPS pair term B(B-1)/2
// tabulated kernel evaluations, with B the buffered samples.
func (a *Accumulator) Finish() (*Result, error) {
	if a.count == 0 {
		return nil, errors.New("predictive: Finish before any sample was added")
	}
	var newWorker func() entryScorer
	if a.family == Poisson {
		f := a.newPoissonFinisher()
		newWorker = func() entryScorer { return f.newWorker() }
	} else {
		f := a.newFinisher()
		newWorker = func() entryScorer { return f.newWorker() }
	}
	n, nl := a.n, len(a.levels)
	res := &Result{
		Levels:    a.levels,
		Samples:   a.count,
		Buffered:  a.nbuf,
		Mean:      make([]float64, n),
		Variance:  make([]float64, n),
		Lower:     make([][]float64, nl),
		Upper:     make([][]float64, nl),
		MeanWidth: make([]float64, nl),
		Scores:    make([]Scores, len(a.targets)),
	}
	for l := range nl {
		res.Lower[l] = make([]float64, n)
		res.Upper[l] = make([]float64, n)
	}
	for t := range res.Scores {
		res.Scores[t] = Scores{
			PIT:        make([]float64, n),
			LogDensity: make([]float64, n),
			CRPS:       make([]float64, n),
			Coverage:   make([]float64, nl),
		}
		if a.family == Poisson {
			res.Scores[t].PITLeft = make([]float64, n)
		}
	}

	chunks := (n + finishChunk - 1) / finishChunk
	evals := make([]int, chunks)
	// No call fails and nothing cancels, so the pool returns nil.
	_ = workpool.RangeWith(context.Background(), chunks, a.workers, newWorker, func(_ context.Context, w entryScorer, c int) error {
		for k := c * finishChunk; k < min((c+1)*finishChunk, n); k++ {
			evals[c] += w.entry(k, res)
		}
		return nil
	})

	// Means over entries, summed in entry order whatever the workers did.
	nf := float64(n)
	for _, e := range evals {
		res.Evaluations += e
	}
	for l, lev := range a.levels {
		var width float64
		for k := range n {
			width += res.Upper[l][k] - res.Lower[l][k]
		}
		res.MeanWidth[l] = width / nf
		plo, phi := (1-lev)/2, (1+lev)/2
		for t := range res.Scores {
			covered := 0
			left := res.Scores[t].PITLeft
			for k, u := range res.Scores[t].PIT {
				if u >= plo && (left == nil && u <= phi || left != nil && left[k] < phi) {
					covered++
				}
			}
			res.Scores[t].Coverage[l] = float64(covered) / nf
		}
	}
	for t := range res.Scores {
		sc := &res.Scores[t]
		var lpd, crps float64
		for k := range n {
			lpd += sc.LogDensity[k]
			crps += sc.CRPS[k]
		}
		sc.MeanLogDensity, sc.MeanCRPS = lpd/nf, crps/nf
	}
	return res, nil
}

// entryScorer computes one entry's results into a Result and returns the
// number of CDF evaluations it took.
type entryScorer interface {
	entry(k int, res *Result) int
}

// finisher holds what Finish shares between entries: the buffered
// samples' weights and standard deviations and the constants of the CRPS
// pair term.
type finisher struct {
	a      *Accumulator
	exact  bool // every sample is buffered
	nb     int
	w      []float64 // weight of each buffered sample, summing to 1
	sigma2 []float64 // its noise variance in the proxy mixture
	sd     []float64 // and standard deviation
	invSd  []float64
	// sdMin and sdMax are the smallest and largest of sd.
	sdMin, sdMax float64
	// Pair term: for buffered pairs b < c in row-major order, sqrt of
	// sigma2_b + sigma2_c, its inverse, and 2 w_b w_c.
	pairSd, pairInvSd, pairW []float64
	// pairDiag is sum_b w_b^2 A(0, 2 sigma2_b); pairCorrection is added
	// to the buffer's pair sum to replace its sqrt(v) part by the exact one
	// over all samples (zero when exact).
	pairDiag, pairCorrection float64
	// zLo and zHi are the standard normal quantiles of each level's ends.
	zLo, zHi   []float64
	meanSigma2 float64
}

// newFinisher computes the per-sample constants of Finish.
func (a *Accumulator) newFinisher() *finisher {
	nb := a.nbuf
	f := &finisher{
		a:      a,
		exact:  nb == a.count,
		nb:     nb,
		w:      make([]float64, nb),
		sigma2: slices.Clone(a.bufSigma2),
		sd:     make([]float64, nb),
		invSd:  make([]float64, nb),
		zLo:    make([]float64, len(a.levels)),
		zHi:    make([]float64, len(a.levels)),
	}
	for _, v := range a.sigma2 {
		f.meanSigma2 += v
	}
	f.meanSigma2 /= float64(a.count)
	rep := a.representation()
	var bufMean float64
	for b := range nb {
		f.w[b] = rep[b] / float64(a.count)
		bufMean += f.w[b] * f.sigma2[b]
	}
	if !f.exact {
		// Scale the kept noise variances to the exact mean over all
		// samples; every entry's proxy shares them, so their error would
		// not average out over entries.
		floats.Scale(f.meanSigma2/bufMean, f.sigma2)
	}
	for b := range nb {
		f.sd[b] = math.Sqrt(f.sigma2[b])
		f.invSd[b] = 1 / f.sd[b]
	}
	f.sdMin, f.sdMax = extremes(f.sd)
	g0 := a.table.kernel(0) // 2 phi(0) = sqrt(2/pi)
	var proxyRoot float64   // sum_b sum_c w_b w_c sqrt(v_bc), for the correction
	for b := range nb {
		v := 2 * f.sigma2[b]
		f.pairDiag += f.w[b] * f.w[b] * math.Sqrt(v) * g0
		proxyRoot += f.w[b] * f.w[b] * math.Sqrt(v)
		for c := b + 1; c < nb; c++ {
			sd := math.Sqrt(f.sigma2[b] + f.sigma2[c])
			f.pairSd = append(f.pairSd, sd)
			f.pairInvSd = append(f.pairInvSd, 1/sd)
			f.pairW = append(f.pairW, 2*f.w[b]*f.w[c])
			proxyRoot += 2 * f.w[b] * f.w[c] * sd
		}
	}
	if !f.exact {
		// The buffer's pair sum, sum_bc w_b w_c sqrt(v_bc) g(d/sqrt v),
		// has the leading part g(0) sum_bc w_b w_c sqrt(v_bc), which does
		// not depend on the entry; replace it with the same sum over all
		// samples, (1/S^2) sum_st sqrt(sigma2_s + sigma2_t).
		var allRoot float64
		for s, vs := range a.sigma2 {
			row := math.Sqrt(2 * vs)
			for _, vt := range a.sigma2[s+1:] {
				row += 2 * math.Sqrt(vs+vt)
			}
			allRoot += row
		}
		cnt := float64(a.count)
		f.pairCorrection = g0 * (allRoot/(cnt*cnt) - proxyRoot)
	}
	for l, lev := range a.levels {
		f.zLo[l] = distuv.UnitNormal.Quantile((1 - lev) / 2)
		f.zHi[l] = distuv.UnitNormal.Quantile((1 + lev) / 2)
	}
	return f
}

// finishWorker is one goroutine's scratch space.
type finishWorker struct {
	*finisher
	mu []float64
}

func (f *finisher) newWorker() *finishWorker {
	return &finishWorker{finisher: f, mu: make([]float64, f.nb)}
}

// cdfPDF implements cdfEvaluator for the current entry's buffered mixture.
func (w *finishWorker) cdfPDF(x float64) (cdf, pdf, dpdf float64) {
	tab := w.a.table
	invSd, wt := w.invSd[:len(w.mu)], w.w[:len(w.mu)]
	for b, m := range w.mu {
		z := (x - m) * invSd[b]
		c, p := tab.eval(z)
		wp := wt[b] * invSd[b] * p
		cdf += wt[b] * c
		pdf += wp
		dpdf -= wp * z * invSd[b]
	}
	return cdf, pdf, dpdf
}

// entry computes entry k's results into res and returns the number of CDF
// evaluations its quantile searches took.
func (w *finishWorker) entry(k int, res *Result) int {
	a := w.a
	cnt := float64(a.count)
	mean, variance := a.mean[k], a.m2[k]/cnt
	res.Mean[k] = mean
	res.Variance[k] = variance + w.meanSigma2

	// The buffered mixture, its means shifted and scaled to the exact
	// mean and variance of the predictions when not every sample is kept
	// (only shifted if the kept predictions are all equal).
	src := a.buf[k*a.stride : k*a.stride+w.nb]
	copy(w.mu, src)
	if !w.exact {
		var mb, vb float64
		for b, m := range src {
			mb += w.w[b] * m
		}
		for b, m := range src {
			d := m - mb
			vb += w.w[b] * d * d
		}
		r := 1.0
		if vb > 0 {
			r = math.Sqrt(variance / vb)
		}
		for b, m := range src {
			w.mu[b] = mean + (m-mb)*r
		}
	}

	evals := 0
	mo := mixtureMoments(w.w, w.mu, w.sigma2)
	sd := math.Sqrt(mo.variance)
	muMin, muMax := extremes(w.mu)
	for l := range a.levels {
		for end, z := range [2]float64{w.zLo[l], w.zHi[l]} {
			lo, hi := quantileBracket(muMin, muMax, w.sdMin, w.sdMax, z)
			p := (1 - a.levels[l]) / 2
			if end == 1 {
				p = (1 + a.levels[l]) / 2
			}
			x, e := solveQuantile(w, p, cornishFisher(mo, z), lo, hi, sd, a.tol)
			evals += e
			if end == 0 {
				res.Lower[l][k] = x
			} else {
				res.Upper[l][k] = x
			}
		}
	}

	// Pair term of the CRPS: 1/2 sum_bc w_b w_c A(mu_b - mu_c, v_bc).
	pair := w.pairDiag
	tab := a.table
	i := 0
	for b, mb := range w.mu {
		rest := w.mu[b+1:]
		sd, invSd, pw := w.pairSd[i:i+len(rest)], w.pairInvSd[i:i+len(rest)], w.pairW[i:i+len(rest)]
		for c, mc := range rest {
			pair += pw[c] * sd[c] * tab.kernel((mb-mc)*invSd[c])
		}
		i += len(rest)
	}
	pair = 0.5 * (pair + w.pairCorrection)

	for t, tg := range a.targets {
		sc := &res.Scores[t]
		sc.PIT[k] = tg.pit[k] / cnt
		sc.LogDensity[k] = tg.logDensity(k, cnt)
		sc.CRPS[k] = tg.crps[k]/cnt - pair
	}
	return evals
}
