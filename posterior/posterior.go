package posterior

import (
	"fmt"
	"math"
	"slices"

	"github.com/bnmf-lab/bnmf/bnmf"
)

// Collector is the bnmf.DrawRecorder of a fit: per chain, it keeps
// the running mean and variance (Welford 1962) of every entry of W and Z
// over all kept sweeps, and copies of the few sweeps that the model file
// stores. Memory: 2 (M + N) K float64s per chain for the moments, plus
// (M + N) K + 1 per stored sample.
//
// NewCollector makes one; set it as bnmf.Settings.Draws, run the chains,
// then Pool.
type Collector struct {
	m, n, k int
	// store lists, in increasing order, which of a chain's kept draws
	// (counted from 0) are stored as samples.
	store []int
	// perChain is the most samples stored per chain.
	perChain int
	chains   []*chainMoments
}

// storePlan returns which of kept draws (counted from 0) to store so
// that per of them are stored, evenly spaced and ending at the last.
func storePlan(kept, per int) []int {
	store := make([]int, per)
	for i := range store {
		store[i] = (i+1)*kept/per - 1
	}
	return store
}

// chainMoments accumulates one chain's draws.
type chainMoments struct {
	count                    int
	meanW, m2W, meanZ, m2Z   []float64 // W is M x K, Z transposed N x K
	samplesW, samplesZ       [][]float64
	samplesSigma2, allSigma2 []float64
	// With offsets: the stored samples of mu, b (M) and c (N).
	samplesMu          []float64
	samplesB, samplesC [][]float64
}

var (
	_ bnmf.DrawRecorder  = (*Collector)(nil)
	_ bnmf.DrawRestarter = (*Collector)(nil)
)

// NewCollector returns a collector for chains chains that keep kept
// draws each, of an m x n matrix at rank k, storing at most maxSamples
// samples over all chains: the same number from each chain, evenly
// spaced over its kept draws and ending at its last.
func NewCollector(m, n, k, chains, kept, maxSamples int) *Collector {
	per := StoredSamples(chains, kept, maxSamples) / chains
	c := &Collector{m: m, n: n, k: k, store: storePlan(kept, per), perChain: per, chains: make([]*chainMoments, chains)}
	for i := range c.chains {
		c.chains[i] = &chainMoments{
			meanW: make([]float64, m*k), m2W: make([]float64, m*k),
			meanZ: make([]float64, n*k), m2Z: make([]float64, n*k),
		}
	}
	return c
}

// RestartDraws implements bnmf.DrawRestarter for --sweeps auto: chain
// starts over, to keep kept draws, of which it stores as many as a chain
// of the announced length would (never more: kept is at most the
// announced number).
func (c *Collector) RestartDraws(chain, kept int) error {
	if chain < 0 || chain >= len(c.chains) || kept < 1 {
		return fmt.Errorf("restarting chain %d of %d to keep %d draws", chain, len(c.chains), kept)
	}
	// Every chain of a block keeps as many, so each call makes the same
	// plan.
	c.store = storePlan(kept, min(c.perChain, kept))
	m, n, k := c.m, c.n, c.k
	c.chains[chain] = &chainMoments{
		meanW: make([]float64, m*k), m2W: make([]float64, m*k),
		meanZ: make([]float64, n*k), m2Z: make([]float64, n*k),
	}
	return nil
}

// StoredSamples returns how many samples a fit of chains chains, each
// keeping kept sweeps, stores when at most maxSamples are asked for: the
// same number from every chain, at least one.
func StoredSamples(chains, kept, maxSamples int) int {
	return chains * max(1, min(kept, maxSamples/chains))
}

// RecordDraw implements bnmf.DrawRecorder.
func (c *Collector) RecordDraw(d bnmf.Draw) error {
	if d.Chain < 0 || d.Chain >= len(c.chains) || len(d.W) != c.m*c.k || len(d.Zt) != c.n*c.k {
		return fmt.Errorf("a draw of chain %d with %d and %d factor entries does not fit %d chains of a %d x %d matrix at rank %d",
			d.Chain, len(d.W), len(d.Zt), len(c.chains), c.m, c.n, c.k)
	}
	ch := c.chains[d.Chain]
	idx := ch.count
	ch.count++
	welford(ch.meanW, ch.m2W, d.W, ch.count)
	welford(ch.meanZ, ch.m2Z, d.Zt, ch.count)
	ch.allSigma2 = append(ch.allSigma2, d.Sigma2)
	if _, ok := slices.BinarySearch(c.store, idx); ok {
		ch.samplesW = append(ch.samplesW, slices.Clone(d.W))
		ch.samplesZ = append(ch.samplesZ, slices.Clone(d.Zt))
		ch.samplesSigma2 = append(ch.samplesSigma2, d.Sigma2)
		if d.B != nil {
			ch.samplesMu = append(ch.samplesMu, d.Mu)
			ch.samplesB = append(ch.samplesB, slices.Clone(d.B))
			ch.samplesC = append(ch.samplesC, slices.Clone(d.C))
		}
	}
	return nil
}

// welford folds the n-th draw x into the running means and sums of
// squared deviations.
func welford(mean, m2, x []float64, n int) {
	inv := 1 / float64(n)
	for i, v := range x {
		d := v - mean[i]
		mean[i] += d * inv
		m2[i] += d * (v - mean[i])
	}
}

// Posterior is the pooled posterior of a fit, in the data's units.
type Posterior struct {
	// Rows (M), Cols (N) and Rank (K) are the shape of the fit.
	Rows, Cols, Rank int
	// MeanW, SDW (M x K) and MeanZ, SDZ (N x K: Z transposed) are the
	// posterior means and standard deviations over every kept draw of
	// every chain, after the chains' factors were matched (see Pool).
	MeanW, SDW, MeanZ, SDZ []float64
	// SamplesW (M x K each), SamplesZ (N x K each, Z transposed) and
	// SamplesSigma2 are the stored samples, chain by chain.
	SamplesW, SamplesZ [][]float64
	SamplesSigma2      []float64
	// Sigma2 holds sigma^2 at every kept draw of every chain.
	Sigma2 []float64
	// SamplesMu, SamplesB (M each) and SamplesC (N each) are the stored
	// samples of the offsets, nil without them.
	SamplesMu          []float64
	SamplesB, SamplesC [][]float64
	// Permutations[c][k] is the factor of chain c that was matched to
	// factor k of chain 0.
	Permutations [][]int
}

// Pool combines the chains' moments and samples. The posterior of NMF is
// unchanged when the K factors are permuted, so chains started apart
// settle on different orders; averaging them factor by factor would mix
// unrelated factors. Each chain's factors are therefore first matched to
// chain 0's by the assignment that maximises the summed cosine
// similarities of the posterior-mean columns of W and rows of Z
// (assignment). The pooled variance is the mean of the chains' variances
// plus the variance of their means (law of total variance; every chain
// has as many draws). Each factor's scale is not identified either
// (w_k c and z_k / c fit equally well), and only the prior pins it, so
// the standard deviations include any disagreement in scale between
// chains.
func (c *Collector) Pool() *Posterior {
	k := c.k
	p := &Posterior{Rows: c.m, Cols: c.n, Rank: k}
	first := c.chains[0]
	for ci, ch := range c.chains {
		perm := identity(k)
		if ci > 0 {
			perm = matchFactors(first, ch, k)
			permuteColumns(ch.meanW, perm, k)
			permuteColumns(ch.m2W, perm, k)
			permuteColumns(ch.meanZ, perm, k)
			permuteColumns(ch.m2Z, perm, k)
			for s := range ch.samplesW {
				permuteColumns(ch.samplesW[s], perm, k)
				permuteColumns(ch.samplesZ[s], perm, k)
			}
		}
		p.Permutations = append(p.Permutations, perm)
		p.SamplesW = append(p.SamplesW, ch.samplesW...)
		p.SamplesZ = append(p.SamplesZ, ch.samplesZ...)
		p.SamplesSigma2 = append(p.SamplesSigma2, ch.samplesSigma2...)
		p.Sigma2 = append(p.Sigma2, ch.allSigma2...)
		p.SamplesMu = append(p.SamplesMu, ch.samplesMu...)
		p.SamplesB = append(p.SamplesB, ch.samplesB...)
		p.SamplesC = append(p.SamplesC, ch.samplesC...)
	}
	p.MeanW, p.SDW = poolMoments(c.chains, func(ch *chainMoments) ([]float64, []float64) { return ch.meanW, ch.m2W })
	p.MeanZ, p.SDZ = poolMoments(c.chains, func(ch *chainMoments) ([]float64, []float64) { return ch.meanZ, ch.m2Z })
	return p
}

// poolMoments returns the pooled means and standard deviations of the
// chains' moments of one factor matrix.
func poolMoments(chains []*chainMoments, of func(*chainMoments) (mean, m2 []float64)) (mean, sd []float64) {
	m0, _ := of(chains[0])
	mean = make([]float64, len(m0))
	sd = make([]float64, len(m0))
	inv := 1 / float64(len(chains))
	for _, ch := range chains {
		cm, m2 := of(ch)
		for i := range mean {
			mean[i] += cm[i] * inv
			sd[i] += m2[i] / float64(ch.count) * inv
		}
	}
	for _, ch := range chains {
		cm, _ := of(ch)
		for i := range mean {
			d := cm[i] - mean[i]
			sd[i] += d * d * inv
		}
	}
	for i, v := range sd {
		sd[i] = math.Sqrt(v)
	}
	return mean, sd
}

// matchFactors returns the permutation perm such that factor perm[k] of
// ch best matches factor k of ref (see Pool).
func matchFactors(ref, ch *chainMoments, k int) []int {
	cost := make([]float64, k*k)
	for a := range k {
		for b := range k {
			cost[a*k+b] = -cosineColumns(ref.meanW, ch.meanW, a, b, k) - cosineColumns(ref.meanZ, ch.meanZ, a, b, k)
		}
	}
	return assignment(cost, k)
}

// cosineColumns returns the cosine similarity of column a of x and column
// b of y, both row-major with k columns; 0 when either is zero.
func cosineColumns(x, y []float64, a, b, k int) float64 {
	var xy, xx, yy float64
	for i := a; i < len(x); i += k {
		u, v := x[i], y[i-a+b]
		xy += u * v
		xx += u * u
		yy += v * v
	}
	if xx == 0 || yy == 0 {
		return 0
	}
	return xy / math.Sqrt(xx*yy)
}

// permuteColumns reorders the k columns of the row-major x so that the
// new column j is the old column perm[j].
func permuteColumns(x []float64, perm []int, k int) {
	row := make([]float64, k)
	for i := 0; i < len(x); i += k {
		for j, from := range perm {
			row[j] = x[i+from]
		}
		copy(x[i:i+k], row)
	}
}

// identity returns the identity permutation of k factors.
func identity(k int) []int {
	p := make([]int, k)
	for i := range p {
		p[i] = i
	}
	return p
}

// Rescale maps a posterior of values divided by scale back to the
// values' units: W, its standard deviations and samples times scale (Z
// keeps its scale), sigma^2 times scale^2.
func (p *Posterior) Rescale(scale float64) {
	if scale == 1 {
		return
	}
	mul := func(xs []float64, f float64) {
		for i := range xs {
			xs[i] *= f
		}
	}
	mul(p.MeanW, scale)
	mul(p.SDW, scale)
	for _, w := range p.SamplesW {
		mul(w, scale)
	}
	mul(p.SamplesSigma2, scale*scale)
	mul(p.SamplesMu, scale)
	for i := range p.SamplesB {
		mul(p.SamplesB[i], scale)
		mul(p.SamplesC[i], scale)
	}
	mul(p.Sigma2, scale*scale)
}
