package experiments

import (
	"math"

	"github.com/bnmf-lab/bnmf/predictive"
)

// Predictive holds the scores of a cell's posterior predictive
// distributions of its held-out entries, the mixture over the kept sweeps
// of every chain of N(w_m . z_n, sigma^2) (package predictive). NMF and
// the baselines have no posterior and no scores; records made before
// scores existed have none either.
type Predictive struct {
	// Levels are the levels of the central intervals.
	Levels []float64 `json:"levels"`
	// Samples is the number of kept sweeps in each mixture, over all
	// chains, and Buffered how many of them the interval ends came from
	// (see predictive.Settings.Buffer).
	Samples  int `json:"samples"`
	Buffered int `json:"buffered"`
	// Width is the mean width of the central interval at each level.
	Width []float64 `json:"width"`
	// Test scores the distributions against the test values; Clean, in a
	// noise study, against the noise-free values.
	Test  ScoreSet  `json:"test"`
	Clean *ScoreSet `json:"clean,omitempty"`
}

// ScoreSet are the scores against one vector of values.
type ScoreSet struct {
	// Coverage is, at each level, the fraction of entries whose value
	// lies in its central interval.
	Coverage []float64 `json:"coverage"`
	// LogDensity is the mean log predictive density of the values, and
	// CRPS their mean continuous ranked probability score (lower is
	// better).
	LogDensity float64 `json:"log_density"`
	CRPS       float64 `json:"crps"`
}

// scoreSettings are the settings of the accumulator every cell scores
// with: the default levels and buffer of package predictive.
func scoreSettings() *predictive.Settings { return &predictive.Settings{} }

// predictiveOf converts the scores of a pooled result; nil for none.
func predictiveOf(r *predictive.Result) *Predictive {
	if r == nil {
		return nil
	}
	set := func(s predictive.Scores) ScoreSet {
		return ScoreSet{Coverage: s.Coverage, LogDensity: finiteOr(s.MeanLogDensity), CRPS: finiteOr(s.MeanCRPS)}
	}
	p := &Predictive{Levels: r.Levels, Samples: r.Samples, Buffered: r.Buffered, Width: r.MeanWidth, Test: set(r.Scores[0])}
	if len(r.Scores) > 1 {
		c := set(r.Scores[1])
		p.Clean = &c
	}
	return p
}

// finiteOr returns x, or the largest float of its sign (-MaxFloat64 for
// NaN: as a log density or score it is as bad as can be), since JSON
// cannot hold a non-finite number.
func finiteOr(x float64) float64 {
	switch {
	case math.IsInf(x, 1):
		return math.MaxFloat64
	case math.IsInf(x, -1) || math.IsNaN(x):
		return -math.MaxFloat64
	}
	return x
}
