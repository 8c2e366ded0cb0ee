package bnmf

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

// gewekeState is one draw of the parameters and the observed data. The
// hyperparameter slices are indexed by side (0: W, 1: Z) and are nil for
// models without them.
type gewekeState struct {
	w, zt           []float64
	mu, tau, lambda [2][]float64
	sigma2          float64
	a               []float64 // observed values in row-major order
	// The offsets of a Biased model: mu0 (mu), b, c, tau_b, tau_c; b
	// and c are nil without them.
	mu0, tauB, tauC float64
	b, c            []float64
}

// gewekeOffsets are the offsets' hyperparameters of the Geweke and SBC
// cases: of order one, like the factors, so that every quantity moves.
func gewekeOffsets() Offsets {
	return Offsets{M0: 0.5, TauMu: 2, AlphaB: 3, BetaB: 2, AlphaC: 2.5, BetaC: 1.5}
}

func newGewekeState(h gewekeHyper) *gewekeState {
	st := &gewekeState{
		w:  make([]float64, gewekeRows*gewekeK),
		zt: make([]float64, gewekeCols*gewekeK),
		a:  make([]float64, len(gewekeObserved())),
	}
	if h.biases {
		st.b, st.c = make([]float64, gewekeRows), make([]float64, gewekeCols)
	}
	for s, lines := range []int{gewekeRows, gewekeCols} {
		if h.hierarchical {
			st.mu[s] = make([]float64, lines*gewekeK)
			st.tau[s] = make([]float64, lines*gewekeK)
		}
		if h.withLambda {
			st.lambda[s] = make([]float64, lines*gewekeK)
		}
	}
	return st
}

func (st *gewekeState) pred(i, j int) float64 {
	var v float64
	if st.b != nil {
		v = st.mu0 + st.b[i] + st.c[j]
	}
	for k := range gewekeK {
		v += st.w[i*gewekeK+k] * st.zt[j*gewekeK+k]
	}
	return v
}

// gewekeSampler draws from the joint prior with math/rand/v2 and gonum's
// distuv, independently of the package's samplers.
type gewekeSampler struct {
	rng *rand.Rand
	src rand.Source
}

func newGewekeSampler(seed uint64) gewekeSampler {
	src := rand.NewPCG(seed, 0x9e3779b97f4a7c15)
	return gewekeSampler{rng: rand.New(src), src: src}
}

func (g gewekeSampler) gamma(shape, rate float64) float64 {
	return distuv.Gamma{Alpha: shape, Beta: rate, Src: g.src}.Rand()
}

// drawParams draws W, Z, their hyperparameters and sigma^2 exactly from
// the joint prior (the rejection samplers in the file comment).
func (g gewekeSampler) drawParams(h gewekeHyper, st *gewekeState) {
	for s, x := range [2][]float64{st.w, st.zt} {
		for e := range x {
			switch h.kind {
			case "GEE":
				x[e] = g.rng.ExpFloat64() / h.geeLambda
			case "GTT":
				for {
					v := h.gttMu + g.rng.NormFloat64()/math.Sqrt(h.gttTau)
					if v >= 0 {
						x[e] = v
						break
					}
				}
			case "GTTN", "GRRN":
				for {
					mu := h.muMu + g.rng.NormFloat64()/math.Sqrt(h.tauMu)
					tau := g.gamma(h.a, h.b)
					v := mu + g.rng.NormFloat64()/math.Sqrt(tau)
					if v < 0 {
						continue
					}
					// lambda is drawn independently of (mu, tau, w) in the
					// proposal, so drawing it after the first rejection step
					// changes nothing but the cost.
					var lam float64
					if h.withLambda {
						lam = g.gamma(h.alphaLambda+1, h.betaLambda)
						if g.rng.Float64() >= math.Exp(-lam*v) {
							continue
						}
					}
					x[e], st.mu[s][e], st.tau[s][e] = v, mu, tau
					if h.withLambda {
						st.lambda[s][e] = lam
					}
					break
				}
			}
		}
	}
	st.sigma2 = 1 / g.gamma(h.alphaSigma, h.betaSigma)
	if h.biases {
		st.mu0, st.tauB, st.tauC = g.drawOffsets(h.off, st.b, st.c)
	}
}

// drawOffsets draws tau_b, tau_c, mu, b and c from the offsets' prior
// with hyperparameters o, filling b and c, and returns mu, tau_b, tau_c.
func (g gewekeSampler) drawOffsets(o Offsets, b, c []float64) (mu, tauB, tauC float64) {
	tauB, tauC = g.gamma(o.AlphaB, o.BetaB), g.gamma(o.AlphaC, o.BetaC)
	mu = o.M0 + g.rng.NormFloat64()/math.Sqrt(o.TauMu)
	for i := range b {
		b[i] = g.rng.NormFloat64() / math.Sqrt(tauB)
	}
	for j := range c {
		c[j] = g.rng.NormFloat64() / math.Sqrt(tauC)
	}
	return mu, tauB, tauC
}

// drawData draws every observed entry from N(w_i . z_j, sigma^2).
func (g gewekeSampler) drawData(st *gewekeState) {
	sd := math.Sqrt(st.sigma2)
	for q, ij := range gewekeObserved() {
		st.a[q] = st.pred(ij[0], ij[1]) + sd*g.rng.NormFloat64()
	}
}

// stateFunc is a named scalar function of one draw of a model's
// parameters and data, held in a state of type S: a test function of a
// joint-distribution test or a quantity ranked by simulation-based
// calibration.
type stateFunc[S any] struct {
	name string
	f    func(*S) float64
}

// stateFuncNames returns the names of fs, in order.
func stateFuncNames[S any](fs []stateFunc[S]) []string {
	names := make([]string, len(fs))
	for i, f := range fs {
		names[i] = f.name
	}
	return names
}

// gewekeFunc is a bounded test function of a draw of GEE, GTT, GTTN or
// GRRN (with or without offsets), or a quantity ranked by TestSBC.
type gewekeFunc = stateFunc[gewekeState]

func gewekeFuncs(t *testing.T, h gewekeHyper) []gewekeFunc {
	t.Helper()
	ratio := func(v float64) float64 { return v / (1 + math.Abs(v)) }
	// The median of sigma^2 ~ InvGamma(alpha, beta) is 1/(the median of
	// Gamma(alpha, beta)), the threshold that maximises the indicator's
	// variance.
	median := 1 / distuv.Gamma{Alpha: h.alphaSigma, Beta: h.betaSigma}.Quantile(0.5)
	fs := []gewekeFunc{
		{"W[0][0]", func(s *gewekeState) float64 { return ratio(s.w[0]) }},
		{"W[2][1]", func(s *gewekeState) float64 { return ratio(s.w[2*gewekeK+1]) }},
		{"Z[1][1]", func(s *gewekeState) float64 { return ratio(s.zt[1*gewekeK+1]) }},
		{"1{sigma2<median}", func(s *gewekeState) float64 {
			if s.sigma2 < median {
				return 1
			}
			return 0
		}},
		{"pred(0,0) observed", func(s *gewekeState) float64 { return ratio(s.pred(0, 0)) }},
		{"pred(1,1) unobserved", func(s *gewekeState) float64 { return ratio(s.pred(1, 1)) }},
		{"a(2,2)", func(s *gewekeState) float64 { return ratio(s.a[len(s.a)-1]) }},
	}
	if h.hierarchical {
		fs = append(fs,
			gewekeFunc{"muW[0][0]", func(s *gewekeState) float64 { return ratio(s.mu[0][0]) }},
			gewekeFunc{"tauW[0][0]", func(s *gewekeState) float64 { return ratio(s.tau[0][0]) }},
			gewekeFunc{"tauZ[2][1]", func(s *gewekeState) float64 { return ratio(s.tau[1][2*gewekeK+1]) }},
		)
	}
	if h.biases {
		fs = append(fs,
			gewekeFunc{"mu", func(s *gewekeState) float64 { return ratio(s.mu0) }},
			gewekeFunc{"b[0]", func(s *gewekeState) float64 { return ratio(s.b[0]) }},
			gewekeFunc{"c[2]", func(s *gewekeState) float64 { return ratio(s.c[2]) }},
			gewekeFunc{"tau_b", func(s *gewekeState) float64 { return ratio(s.tauB) }},
			gewekeFunc{"tau_c", func(s *gewekeState) float64 { return ratio(s.tauC) }},
			gewekeFunc{"b[1]*c[1]", func(s *gewekeState) float64 { return ratio(s.b[1] * s.c[1]) }},
		)
	}
	if h.withLambda {
		fs = append(fs,
			gewekeFunc{"lambdaW[0][0]", func(s *gewekeState) float64 { return ratio(s.lambda[0][0]) }},
			gewekeFunc{"lambdaZ[2][1]", func(s *gewekeState) float64 { return ratio(s.lambda[1][2*gewekeK+1]) }},
		)
	}
	return fs
}

// gewekeMarginal runs the marginal-conditional simulator for n independent
// draws and returns each test function's mean and standard error.
func gewekeMarginal(h gewekeHyper, fs []gewekeFunc, n int, seed uint64) (mean, se []float64) {
	g := newGewekeSampler(seed)
	st := newGewekeState(h)
	return gewekeMarginalMoments(fs, st, n, func() {
		g.drawParams(h, st)
		g.drawData(st)
	})
}

// gewekeMarginalMoments runs a marginal-conditional simulator for n
// independent draws and returns each test function's mean and standard
// error: draw replaces st with a new draw of the parameters from the prior
// and of the data given them.
func gewekeMarginalMoments[S any](fs []stateFunc[S], st *S, n int, draw func()) (mean, se []float64) {
	sum, sum2 := make([]float64, len(fs)), make([]float64, len(fs))
	for range n {
		draw()
		for i, f := range fs {
			v := f.f(st)
			sum[i] += v
			sum2[i] += v * v
		}
	}
	mean, se = make([]float64, len(fs)), make([]float64, len(fs))
	for i := range fs {
		mean[i] = sum[i] / float64(n)
		vari := (sum2[i] - sum[i]*mean[i]) / float64(n-1)
		se[i] = math.Sqrt(vari / float64(n))
	}
	return mean, se
}
