package bnmf

// Draw is one kept posterior sample of a Bayesian model's chain: the
// state after a sweep that entered the posterior summaries (after burn-in,
// every Thin-th).
type Draw struct {
	// Chain is the index of the chain, as RunChains numbers them (0 for
	// Run), and Sweep the sweep, counted from 1.
	Chain, Sweep int
	// W is the sample of W (M x K) and Zt that of Z transposed (N x K),
	// both row-major: W[m][k] is W[m*K+k] and Z[k][n] is Zt[n*K+k]. They
	// alias the chain's state and hold the sample only during the call
	// to RecordDraw: copy what you keep, and never write to them.
	W, Zt []float64
	// Sigma2 is the sample of the noise variance sigma^2 (0 for the
	// Poisson models).
	Sigma2 float64
	// With offsets (Biased), Mu, B (one per row) and C (one per column)
	// are the samples of mu, b and c, B and C aliasing the state like W;
	// B and C are nil without offsets.
	Mu   float64
	B, C []float64
}

// DrawRecorder receives the kept posterior samples of a run, for callers
// that need more than the posterior means of Result: standard deviations
// of the factors, or samples to predict from later. Returning an error
// stops the run with that error.
type DrawRecorder interface {
	RecordDraw(Draw) error
}
