package bnmf

import (
	"fmt"
	"runtime"
	"time"

	"github.com/bnmf-lab/bnmf/predictive"
	"github.com/bnmf-lab/bnmf/sparse"
)

// Settings configures Run. Zero values mean the documented defaults.
type Settings struct {
	// Rank is the latent dimension K. It must be positive.
	Rank int

	// Sweeps is the number of Gibbs sweeps (or multiplicative-update
	// iterations for NMF). Zero means 500, the paper's choice. It must be
	// at most MaxSweeps.
	Sweeps int

	// BurnIn is the number of initial sweeps discarded before posterior
	// summaries are accumulated. Zero means DefaultBurnIn, four fifths of
	// Sweeps (400 of 500, the paper's choice); a negative value
	// (NoBurnIn) means none. It must be less than Sweeps. In
	// Result.Settings it holds the number used, NoBurnIn for none, so
	// that those settings run again as they did. BurnInSweeps, KeptSweeps
	// and IsKept apply this rule.
	BurnIn int

	// Thin keeps every Thin-th sweep after burn-in for the posterior
	// summaries. Zero means 1 (keep every sweep).
	Thin int

	// Auto, if not nil, makes RunChains (and Run) run the chains of a
	// Bayesian model until its stopping rule says they have run enough,
	// up to Auto.MaxSweeps, in place of Sweeps, with a burn-in of half
	// the sweeps run; BurnIn must then be 0. See AutoSweeps.
	Auto *AutoSweeps

	// Workers is the number of goroutines that update rows of W and columns
	// of Z in parallel. Zero means runtime.GOMAXPROCS(0). Results do not
	// depend on it.
	Workers int

	// Seed determines every random draw of the run.
	Seed uint64

	// Test holds held-out entries whose values are predicted after every
	// sweep; they never enter the likelihood. It may be empty.
	Test []Entry

	// Scores, if not nil, asks for the posterior predictive distribution
	// of every test entry (the mixture over kept sweeps of N(w_m . z_n,
	// sigma^2)) to be scored against the entry's value and against each
	// vector of ExtraTargets: central intervals, their coverage and width,
	// the log predictive density and the CRPS (package predictive), in
	// Result.Scores. Run sets its Samples to the number of kept sweeps.
	// NMF and the baselines have no posterior and get no scores. The
	// memory it takes is stated in predictive.Accumulator.
	Scores *predictive.Settings
	// ExtraTargets are further vectors of values, one value per test
	// entry, to score the predictions against, such as the noise-free
	// values of a noise study. They need Scores.
	ExtraTargets [][]float64

	// Tracked lists indices into Test whose predictions w_m . z_n are
	// kept for every sweep in Result.Tracked, for convergence
	// diagnostics. It may be empty; an index outside Test is an error.
	Tracked []int

	// Sigma2Start chooses how sigma^2 starts in the Bayesian models; the
	// zero value is Sigma2FromConditional, the paper's protocol. NMF and
	// the baselines have no sigma^2 and ignore it.
	Sigma2Start Sigma2Start

	// Float32Factors makes the Bayesian models' sweeps read the other
	// factor's values from float32 copies of W and Z, which halves the
	// memory they move per observed entry: at the MovieLens 25M shape,
	// where the gathers of rows of W and Z from memory take most of a
	// sweep, this is the faster choice. Each value read differs from the
	// factor's by at most a relative 2^-24 (6e-8), so the conditionals
	// drawn from agree with the default's to about seven digits; but once
	// a rejection sampler's accept test falls the other way (on MovieLens
	// 100K, within 7 to 93 sweeps in 93 of 96 cells), the chain takes a
	// path of its own, so a run's results differ from the default's as
	// another seed's would, not in the seventh digit. Its target
	// distribution is the default's up to that rounding. Off by default:
	// the default keeps every result bit for bit. NMF and the baselines
	// ignore it.
	Float32Factors bool

	// Recorder, if not nil, receives the statistics of every sweep as it
	// finishes.
	Recorder Recorder

	// Draws, if not nil, receives every kept posterior sample (W, Z and
	// sigma^2) of a Bayesian model, in order of sweeps, after the
	// sweep's statistics went to Recorder. NMF and the baselines have no
	// posterior and send none. Recording costs no extra memory in Run;
	// what Draws keeps is its own.
	Draws DrawRecorder
}

// Recorder receives per-sweep statistics during a run, as gonum's
// optimize.Recorder does for optimisation. Returning an error stops the run
// with that error.
type Recorder interface {
	Record(SweepStats) error
}

// SweepStats describes the state of a chain after one sweep.
type SweepStats struct {
	// Sweep counts sweeps from 1.
	Sweep int
	// TrainMSE is the mean squared error of the current sample W Z on the
	// observed training entries (the paper's Eq. 2 divided by |Omega|).
	TrainMSE float64
	// TestMSE is the mean squared error of the current sample on the test
	// entries, or 0 when there are none.
	TestMSE float64
	// Sigma2 is the current sample of the noise variance sigma^2 (0 for
	// NMF and the Poisson models, which have none).
	Sigma2 float64
	// LogLikelihood is the log-likelihood of the observed training entries
	// under the current sample, sum over Omega of log N(a_mn | w_m . z_n,
	// sigma^2), or of log Poi(a_mn | w_m . z_n) for a model with a Poisson
	// likelihood; NaN for NMF and the baselines, which have no sigma^2.
	LogLikelihood float64
	// Elapsed is the wall time since the start of the run, initialisation
	// included.
	Elapsed time.Duration
	// Chain is the index of the chain, as RunChains numbers them (0 for
	// Run).
	Chain int
}

// MaxSweeps is the largest Settings.Sweeps: ten million. Every sweep
// adds a SweepStats (56 bytes) to Result.Trace and a prediction (8 bytes)
// per tracked entry to Result.Tracked, so a chain of MaxSweeps sweeps
// with the 20 tracked entries of bnmf fit holds 2.2 GB of them; the
// trace's room is reserved when the chain starts.
const MaxSweeps = 10_000_000

// MaxChains is the largest number of chains that a study cell or bnmf fit
// runs: the chains' draws are held in memory together.
const MaxChains = 64

// resolved returns the settings with defaults filled in, or an error that
// names the offending field.
func (s Settings) resolved() (Settings, error) {
	if s.Rank <= 0 {
		return s, fmt.Errorf("bnmf: Settings.Rank is %d; it must be positive", s.Rank)
	}
	if s.Sweeps < 0 {
		return s, fmt.Errorf("bnmf: Settings.Sweeps is %d; it must not be negative", s.Sweeps)
	}
	if s.Sweeps > MaxSweeps {
		return s, fmt.Errorf("bnmf: Settings.Sweeps is %d; it must be at most MaxSweeps, %d", s.Sweeps, MaxSweeps)
	}
	if s.Auto != nil {
		if err := s.validateAuto(); err != nil {
			return s, err
		}
	}
	if s.Sweeps == 0 {
		s.Sweeps = DefaultSweeps
	}
	if s.Auto == nil { // Auto sets the burn-in of each block
		if s.BurnIn = s.BurnInSweeps(); s.BurnIn == 0 {
			s.BurnIn = NoBurnIn // what resolves to none again
		}
		if s.BurnIn >= s.Sweeps {
			return s, fmt.Errorf("bnmf: Settings.BurnIn %d must be less than Sweeps %d", s.BurnIn, s.Sweeps)
		}
	}
	if s.Thin < 0 {
		return s, fmt.Errorf("bnmf: Settings.Thin is %d; it must not be negative", s.Thin)
	}
	if s.Thin == 0 {
		s.Thin = 1
	}
	if s.Auto == nil && s.KeptSweeps() == 0 {
		return s, fmt.Errorf("bnmf: Settings.Thin %d keeps none of the %d sweeps after burn-in", s.Thin, s.Sweeps-s.BurnInSweeps())
	}
	if s.Workers < 0 {
		return s, fmt.Errorf("bnmf: Settings.Workers is %d; it must not be negative", s.Workers)
	}
	if s.Workers == 0 {
		s.Workers = runtime.GOMAXPROCS(0)
	}
	if s.Sigma2Start < Sigma2FromConditional || s.Sigma2Start > Sigma2AtDataVariance {
		return s, fmt.Errorf("bnmf: Settings.Sigma2Start is %v, not one of %v", s.Sigma2Start, Sigma2Starts())
	}
	for i, x := range s.ExtraTargets {
		if len(x) != len(s.Test) {
			return s, fmt.Errorf("bnmf: Settings.ExtraTargets[%d] has %d values for %d test entries", i, len(x), len(s.Test))
		}
	}
	if len(s.ExtraTargets) > 0 && s.Scores == nil {
		return s, fmt.Errorf("bnmf: Settings.ExtraTargets needs Settings.Scores")
	}
	for i, t := range s.Tracked {
		if t < 0 || t >= len(s.Test) {
			return s, fmt.Errorf("bnmf: Settings.Tracked[%d] is %d; it must index Test (%d entries)", i, t, len(s.Test))
		}
	}
	return s, nil
}

// ErrNonFinite is wrapped by the error Run returns when a non-finite value,
// or a hyperparameter outside its support, would enter the state of a
// chain. It is sparse.ErrNonFinite, which the dataset loaders wrap too.
var ErrNonFinite = sparse.ErrNonFinite
