package dataset

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"

	"gonum.org/v1/gonum/stat/distuv"

	"github.com/bnmf-lab/bnmf/sparse"
)

// SyntheticOptions configures Synthetic. Zero values mean the defaults,
// which are small enough for a demonstration of every model to run in
// well under a minute.
type SyntheticOptions struct {
	// Rows and Cols are the dimensions M and N, at least 3 each and at most
	// 2^24 cells in all. Zero means 300 rows and 500 columns.
	Rows, Cols int
	// Rank is the rank K of the true matrix, from 1 to min(Rows, Cols).
	// Zero means 5.
	Rank int
	// Density is the fraction of the grid that is observed, in (0, 1]. Zero
	// means 0.07, close to MovieLens 100K's 0.072.
	Density float64
	// NoiseStd is the standard deviation of the Gaussian noise added to the
	// true values before they are rounded to stars. Zero means 0.5; a
	// negative value means no noise.
	NoiseStd float64
	// Seed determines the data: equal options give equal data.
	Seed uint64
}

// Defaults of SyntheticOptions.
const (
	defaultSyntheticRows    = 300
	defaultSyntheticCols    = 500
	defaultSyntheticRank    = 5
	defaultSyntheticDensity = 0.07
	defaultSyntheticNoise   = 0.5
	maxSyntheticCells       = 1 << 24
)

// Shape of the synthetic data: the true values have this mean and
// coefficient of variation, close to MovieLens ratings (mean about 3.5,
// standard deviation about 1.1), and every row and column has at least
// minPerLine ratings so that the paper's cleaning keeps them all.
const (
	syntheticMean = 3.5
	syntheticCV   = 0.3
	minPerLine    = 3
	// propensitySigma is the log-scale spread of how active a user and how
	// popular a movie is; it gives the skewed counts of MovieLens.
	propensitySigma = 1.0
)

// resolved returns o with defaults filled in, or an error for an invalid
// option.
func (o SyntheticOptions) resolved() (SyntheticOptions, error) {
	if o.Rows == 0 {
		o.Rows = defaultSyntheticRows
	}
	if o.Cols == 0 {
		o.Cols = defaultSyntheticCols
	}
	if o.Rank == 0 {
		o.Rank = defaultSyntheticRank
	}
	if o.Density == 0 {
		o.Density = defaultSyntheticDensity
	}
	if o.NoiseStd == 0 {
		o.NoiseStd = defaultSyntheticNoise
	}
	switch {
	case o.Rows < minPerLine || o.Cols < minPerLine:
		return o, fmt.Errorf("synthetic: size %d x %d: rows and columns must be at least %d", o.Rows, o.Cols, minPerLine)
	case float64(o.Rows)*float64(o.Cols) > maxSyntheticCells:
		return o, fmt.Errorf("synthetic: size %d x %d has more than 2^24 cells", o.Rows, o.Cols)
	case o.Rank < 1 || o.Rank > min(o.Rows, o.Cols):
		return o, fmt.Errorf("synthetic: rank %d must be from 1 to %d", o.Rank, min(o.Rows, o.Cols))
	case !(o.Density > 0 && o.Density <= 1):
		return o, fmt.Errorf("synthetic: density %v must be in (0, 1]", o.Density)
	case math.IsNaN(o.NoiseStd) || math.IsInf(o.NoiseStd, 0):
		return o, fmt.Errorf("synthetic: noise standard deviation %v must be finite", o.NoiseStd)
	}
	if o.NoiseStd < 0 {
		o.NoiseStd = 0
	}
	return o, nil
}

// Synthetic generates the "synthetic" dataset: ratings from 1 to 5 stars
// observed on a sparse, MovieLens-like pattern of a nonnegative matrix of
// rank Rank.
//
// The truth is W Z with W (M x K) and Z (K x N) drawn entrywise from
// Gamma(a, a), of mean 1, where a = 1/(sqrt(1 + 0.09 K) - 1) makes the
// entries of W Z have a coefficient of variation of 0.3 for any K; W is
// scaled by 3.5/K so that they have mean 3.5. Exactly
// round(Density M N) cells are observed: each row i and column j has an
// activity p_i, q_j drawn from a log-normal distribution, and the cells are
// a weighted sample without replacement with weights p_i q_j (Efraimidis
// and Spirakis 2006, "Weighted random sampling with a reservoir"), except
// that the 3 best cells of every row and every column by the same sampling
// keys are always kept. An observed value is the true value plus
// N(0, NoiseStd^2) noise, rounded to a whole star and clipped to [1, 5].
//
// Draws come from PCG streams keyed by Seed, one each for the factors, the
// observed pattern and the noise, so changing the noise level keeps the
// pattern and the truth.
func Synthetic(opts SyntheticOptions) (*Ratings, error) {
	o, err := opts.resolved()
	if err != nil {
		return nil, err
	}
	m, n, k := o.Rows, o.Cols, o.Rank
	w, z := syntheticFactors(o, rand.NewPCG(o.Seed, 1))
	cells, err := syntheticPattern(o, rand.NewPCG(o.Seed, 2))
	if err != nil {
		return nil, err
	}
	noise := rand.New(rand.NewPCG(o.Seed, 3))
	entries := make([]sparse.Entry, len(cells))
	for t, c := range cells {
		i, j := c/n, c%n
		var v float64
		for l := range k {
			v += w[i*k+l] * z[l*n+j]
		}
		if o.NoiseStd > 0 {
			v += o.NoiseStd * noise.NormFloat64()
		}
		entries[t] = sparse.Entry{Row: i, Col: j, Value: min(max(math.Round(v), 1), 5)}
	}
	return &Ratings{
		Name:    SyntheticName,
		Rows:    m,
		Cols:    n,
		Entries: entries,
		RowIDs:  numberedIDs(m),
		ColIDs:  numberedIDs(n),
	}, nil
}

// syntheticFactors draws W (row-major M x K) and Z (row-major K x N).
func syntheticFactors(o SyntheticOptions, src rand.Source) (w, z []float64) {
	a := 1 / (math.Sqrt(1+syntheticCV*syntheticCV*float64(o.Rank)) - 1)
	g := distuv.Gamma{Alpha: a, Beta: a, Src: src}
	scale := syntheticMean / float64(o.Rank)
	w = make([]float64, o.Rows*o.Rank)
	for i := range w {
		w[i] = scale * g.Rand()
	}
	z = make([]float64, o.Rank*o.Cols)
	for i := range z {
		z[i] = g.Rand()
	}
	return w, z
}

// syntheticPattern returns the observed cells, as row-major indices i*N+j
// in increasing order.
func syntheticPattern(o SyntheticOptions, src rand.Source) ([]int, error) {
	m, n := o.Rows, o.Cols
	rng := rand.New(src)
	p := make([]float64, m)
	for i := range p {
		p[i] = math.Exp(propensitySigma * rng.NormFloat64())
	}
	q := make([]float64, n)
	for j := range q {
		q[j] = math.Exp(propensitySigma * rng.NormFloat64())
	}
	// Efraimidis-Spirakis keys: the largest log(u)/w form a weighted
	// sample without replacement.
	key := make([]float64, m*n)
	for i := range m {
		for j := range n {
			key[i*n+j] = math.Log(1-rng.Float64()) / (p[i] * q[j])
		}
	}
	kept := make([]bool, m*n)
	forced := 0
	keep := func(c int) {
		if !kept[c] {
			kept[c] = true
			forced++
		}
	}
	for i := range m {
		for _, c := range bestCells(key, i*n, 1, n) {
			keep(c)
		}
	}
	for j := range n {
		for _, c := range bestCells(key, j, n, m) {
			keep(c)
		}
	}
	total := int(math.Round(o.Density * float64(m) * float64(n)))
	if total < forced {
		return nil, fmt.Errorf("synthetic: density %v gives %d ratings, fewer than the %d needed for %d in every row and column",
			o.Density, total, forced, minPerLine)
	}
	rest := make([]int, 0, m*n-forced)
	for c, k := range kept {
		if !k {
			rest = append(rest, c)
		}
	}
	slices.SortFunc(rest, func(a, b int) int {
		if c := cmp.Compare(key[b], key[a]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	for _, c := range rest[:total-forced] {
		kept[c] = true
	}
	cells := make([]int, 0, total)
	for c, k := range kept {
		if k {
			cells = append(cells, c)
		}
	}
	return cells, nil
}

// bestCells returns the positions of the minPerLine largest keys among
// key[start], key[start+stride], ..., len of them.
func bestCells(key []float64, start, stride, length int) []int {
	best := make([]int, 0, minPerLine+1)
	for t := range length {
		c := start + t*stride
		pos := len(best)
		for pos > 0 && key[best[pos-1]] < key[c] {
			pos--
		}
		if pos < minPerLine {
			best = slices.Insert(best, pos, c)
			if len(best) > minPerLine {
				best = best[:minPerLine]
			}
		}
	}
	return best
}

// numberedIDs returns "1", ..., "n".
func numberedIDs(n int) []string {
	ids := make([]string, n)
	for i := range ids {
		ids[i] = strconv.Itoa(i + 1)
	}
	return ids
}
