package experiments

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/bnmf-lab/bnmf/bnmf"
	"github.com/bnmf-lab/bnmf/mcmcdiag"
)

// Thresholds of the convergence checks, after Vehtari, Gelman, Simpson,
// Carpenter and Bürkner (2021), "Rank-normalization, folding, and
// localization: an improved R-hat for assessing convergence of MCMC",
// Bayesian Analysis 16(2).
const (
	// MaxRHat is the largest R-hat at which chains count as mixed.
	MaxRHat = 1.01
	// MinESSPerChain is the smallest bulk-ESS per chain that counts as
	// enough.
	MinESSPerChain = 100
	// MaxSigma2OverVariance is the ratio of a chain's mean sigma^2 to the
	// variance of the training values above which the chain is taken to be
	// stuck: the noise it claims dwarfs all the variation in the data, so
	// it explains nothing (a chain that never left its start).
	MaxSigma2OverVariance = 10
)

// trackedEntries is how many held-out entries a cell tracks for the
// diagnostics of its predictions.
const trackedEntries = 20

// Diagnostics are the convergence diagnostics of a cell's chains over
// their kept sweeps: rank-normalised split-R-hat and bulk- and tail-ESS
// (package mcmcdiag). With one chain, split-R-hat compares its halves.
// NMF and the baselines have no posterior and no diagnostics.
type Diagnostics struct {
	// Chains is the number of chains and Kept the kept sweeps of each.
	Chains int `json:"chains"`
	Kept   int `json:"kept"`
	// TrainMSE, Sigma2 and LogLikelihood diagnose those per-sweep values.
	TrainMSE      Convergence `json:"train_mse"`
	Sigma2        Convergence `json:"sigma2"`
	LogLikelihood Convergence `json:"log_likelihood"`
	// Predictions is the worst over Tracked entries (in a study, held-out
	// entries drawn at random per split, the same for every model): the
	// largest R-hat and the smallest ESS among their predictions
	// w_m . z_n.
	Predictions *Convergence `json:"predictions,omitempty"`
	Tracked     int          `json:"tracked,omitempty"`
	// MaxSigma2OverVariance is the largest ratio, over the chains, of a
	// chain's mean kept sigma^2 to the variance of the training values.
	MaxSigma2OverVariance float64 `json:"max_sigma2_over_variance"`
}

// Convergence holds the diagnostics of one quantity; a field is absent
// where it is undefined (constant or too few draws).
type Convergence struct {
	RHat    *float64 `json:"rhat,omitempty"`
	ESSBulk *float64 `json:"ess_bulk,omitempty"`
	ESSTail *float64 `json:"ess_tail,omitempty"`
}

// convergence converts an mcmcdiag summary, NaN to absent.
func convergence(rhat, bulk, tail float64) Convergence {
	opt := func(x float64) *float64 {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil
		}
		return &x
	}
	return Convergence{RHat: opt(rhat), ESSBulk: opt(bulk), ESSTail: opt(tail)}
}

// TrackedSource returns the random source that picks the held-out entries
// a cell tracks: a ChaCha8 stream keyed by the digest of
// "bnmf/tracked/v1 base=<base> fraction=<f> repeat=<i>", so that every
// model and rank at a split tracks the same entries.
func TrackedSource(base uint64, f float64, repeat int) rand.Source {
	return rand.NewChaCha8(digest(fmt.Sprintf("bnmf/tracked/v1 base=%d fraction=%s repeat=%d",
		base, formatFloat(f), repeat)))
}

// trackedIndices draws up to trackedEntries distinct indices into a test
// set of n entries, in increasing order.
func trackedIndices(src rand.Source, n int) []int {
	if n <= trackedEntries {
		idx := make([]int, n)
		for i := range idx {
			idx[i] = i
		}
		return idx
	}
	perm := rand.New(src).Perm(n)[:trackedEntries]
	out := make([]int, trackedEntries)
	copy(out, perm)
	slices.Sort(out)
	return out
}

// Diagnose computes the diagnostics of chains over their kept sweeps, and
// the warnings they call for, against the variance of the training
// values. The predictions it diagnoses are those of the test entries
// that the chains' Settings.Tracked names, which the warnings call
// "<tracked> predictions" ("held-out" in a study, whose tracked entries
// are held out). It returns nil for a point estimate.
func Diagnose(chains *bnmf.Chains, trainVariance float64, tracked string) (*Diagnostics, []string) {
	first := chains.Results[0]
	if first.PointEstimate {
		return nil, nil
	}
	s := first.Settings
	kept := keptIndices(first)
	n := len(chains.Results)
	series := func(value func(r *bnmf.Result, i int) float64) [][]float64 {
		return keptSeries(chains, kept, value)
	}
	var ws mcmcdiag.Workspace
	of := func(draws [][]float64) Convergence {
		sm := ws.Summarize(draws)
		return convergence(sm.RHat, sm.ESSBulk, sm.ESSTail)
	}
	d := &Diagnostics{
		Chains:        n,
		Kept:          len(kept),
		TrainMSE:      of(series(func(r *bnmf.Result, i int) float64 { return r.Trace[i].TrainMSE })),
		Sigma2:        of(series(func(r *bnmf.Result, i int) float64 { return r.Trace[i].Sigma2 })),
		LogLikelihood: of(series(func(r *bnmf.Result, i int) float64 { return r.Trace[i].LogLikelihood })),
	}
	if m := len(s.Tracked); m > 0 {
		sums := make([]mcmcdiag.Summary, m)
		for e := range m {
			sums[e] = ws.Summarize(series(func(r *bnmf.Result, i int) float64 { return r.Tracked[i][e] }))
		}
		// The worst of each over the entries; an undefined one (NaN)
		// does not count.
		w := mcmcdiag.WorstOf(sums)
		p := convergence(w.RHat, w.ESSBulk, w.ESSTail)
		d.Predictions, d.Tracked = &p, m
	}
	d.MaxSigma2OverVariance = maxSigma2OverVariance(chains, trainVariance)
	return d, d.warnings(trainVariance, tracked)
}

// keptIndices returns the indices into r's trace of the sweeps it kept.
func keptIndices(r *bnmf.Result) []int {
	var kept []int
	for i := range r.Trace {
		if r.Settings.IsKept(i + 1) {
			kept = append(kept, i)
		}
	}
	return kept
}

// keptSeries returns, chains x kept sweeps, the value of each chain at
// the trace indices kept.
func keptSeries(chains *bnmf.Chains, kept []int, value func(r *bnmf.Result, i int) float64) [][]float64 {
	out := make([][]float64, len(chains.Results))
	for c, r := range chains.Results {
		out[c] = make([]float64, len(kept))
		for j, i := range kept {
			out[c][j] = value(r, i)
		}
	}
	return out
}

// maxSigma2OverVariance is the stuck rule's measure: the largest ratio,
// over the chains, of a chain's mean kept sigma^2 to trainVariance (0
// when that is not positive).
func maxSigma2OverVariance(chains *bnmf.Chains, trainVariance float64) float64 {
	var worst float64
	for _, r := range chains.Results {
		if trainVariance > 0 {
			worst = math.Max(worst, r.Sigma2Mean/trainVariance)
		}
	}
	return worst
}

// flagged is a quantity whose diagnostic crossed a threshold, with the
// diagnostic's value.
type flagged struct {
	name  string
	value float64
}

// flags returns the quantities whose R-hat is above MaxRHat (unmixed)
// and those whose bulk-ESS is below MinESSPerChain per chain (few), in
// the order train MSE, sigma^2, log-likelihood, predictions, and whether
// a chain is stuck (its mean sigma^2 above MaxSigma2OverVariance times
// the training values' variance). An absent diagnostic is not flagged.
func (d *Diagnostics) flags(tracked string) (unmixed, few []flagged, stuck bool) {
	type quantity struct {
		name string
		c    *Convergence
	}
	qs := []quantity{{"train MSE", &d.TrainMSE}, {"sigma^2", &d.Sigma2}, {"log-likelihood", &d.LogLikelihood}}
	if d.Predictions != nil {
		qs = append(qs, quantity{fmt.Sprintf("the worst of %d tracked %s predictions", d.Tracked, tracked), d.Predictions})
	}
	for _, q := range qs {
		if q.c.RHat != nil && *q.c.RHat > MaxRHat {
			unmixed = append(unmixed, flagged{q.name, *q.c.RHat})
		}
		if q.c.ESSBulk != nil && *q.c.ESSBulk < float64(MinESSPerChain*d.Chains) {
			few = append(few, flagged{q.name, *q.c.ESSBulk})
		}
	}
	return unmixed, few, d.MaxSigma2OverVariance > MaxSigma2OverVariance
}

// warnings flags what the diagnostics say is wrong, with the numbers.
func (d *Diagnostics) warnings(trainVariance float64, tracked string) []string {
	var out []string
	unmixed, few, stuck := d.flags(tracked)
	list := func(fs []flagged, format string) string {
		parts := make([]string, len(fs))
		for i, f := range fs {
			parts[i] = f.name + " " + fmt.Sprintf(format, f.value)
		}
		return strings.Join(parts, ", ")
	}
	chains := fmt.Sprintf("%d chains", d.Chains)
	if d.Chains == 1 {
		chains = "the two halves of its chain"
	}
	if len(unmixed) > 0 {
		out = append(out, fmt.Sprintf("convergence: R-hat above %v across %s of %d kept sweeps: %s", MaxRHat, chains, d.Kept, list(unmixed, "%.3g")))
	}
	if len(few) > 0 {
		out = append(out, fmt.Sprintf("convergence: bulk-ESS below %d per chain (%d in all): %s", MinESSPerChain, MinESSPerChain*d.Chains, list(few, "%.0f")))
	}
	if stuck {
		out = append(out, fmt.Sprintf("convergence: stuck chain: mean sigma^2 is %.3g times the training values' variance %.3g; the chain did not leave its start",
			d.MaxSigma2OverVariance, trainVariance))
	}
	return out
}
