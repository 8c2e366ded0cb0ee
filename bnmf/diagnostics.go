package bnmf

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/bnmf-lab/bnmf/mcmcdiag"
)

// Thresholds are the limits of the convergence checks, after Vehtari,
// Gelman, Simpson, Carpenter and Bürkner (2021), "Rank-normalization,
// folding, and localization: an improved R-hat for assessing convergence
// of MCMC", Bayesian Analysis 16(2). A zero field means its default.
type Thresholds struct {
	// MaxRHat is the largest R-hat at which chains count as mixed.
	// Default 1.01.
	MaxRHat float64
	// MinESSPerChain is the smallest bulk-ESS per chain that counts as
	// enough for Diagnose. Default 100.
	MinESSPerChain int
	// MinESS is the smallest bulk- and tail-ESS, pooled over the chains,
	// at which JudgeAuto counts them as having run enough: 400 draws'
	// worth, 100 for each of four chains. Default 400.
	MinESS int
	// MaxSigma2OverVariance is the ratio of a chain's mean sigma^2 to the
	// variance of the training values above which the chain is taken to
	// be stuck: the noise it claims dwarfs all the variation in the data,
	// so it explains nothing (a chain that never left its start).
	// Default 10.
	MaxSigma2OverVariance float64
}

// DefaultThresholds returns the thresholds with every field at its
// default.
func DefaultThresholds() Thresholds { return Thresholds{}.resolved() }

// resolved returns t with its zero fields at their defaults.
func (t Thresholds) resolved() Thresholds {
	t.MaxRHat = orDefault(t.MaxRHat, 1.01)
	if t.MinESSPerChain == 0 {
		t.MinESSPerChain = 100
	}
	if t.MinESS == 0 {
		t.MinESS = 400
	}
	t.MaxSigma2OverVariance = orDefault(t.MaxSigma2OverVariance, 10)
	return t
}

// Stuck reports whether a chain whose mean sigma^2 is ratio times the
// variance of the training values is stuck.
func (t Thresholds) Stuck(ratio float64) bool {
	return ratio > t.resolved().MaxSigma2OverVariance
}

// Diagnostics are the convergence diagnostics of chains over their kept
// sweeps: rank-normalised split-R-hat and bulk- and tail-ESS (package
// mcmcdiag). With one chain, split-R-hat compares its halves. NMF and the
// baselines have no posterior and no diagnostics.
type Diagnostics struct {
	// Chains is the number of chains and Kept the kept sweeps of each.
	Chains int `json:"chains"`
	Kept   int `json:"kept"`
	// TrainMSE, Sigma2 and LogLikelihood diagnose those per-sweep values
	// (sweepQuantities).
	TrainMSE      Convergence `json:"train_mse"`
	Sigma2        Convergence `json:"sigma2"`
	LogLikelihood Convergence `json:"log_likelihood"`
	// Others holds, by name, the diagnostics of the per-sweep quantities
	// that have no field of their own (every one added to
	// sweepQuantities after the three above); absent when there are
	// none, so records without them read and write as before.
	Others map[string]*Convergence `json:"others,omitempty"`
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

// String formats c as "R-hat 1.02, bulk-ESS 310, tail-ESS 250", with "-"
// for an undefined value.
func (c Convergence) String() string {
	f := func(x *float64, format string) string {
		if x == nil || math.IsNaN(*x) {
			return "-"
		}
		return fmt.Sprintf(format, *x)
	}
	return fmt.Sprintf("R-hat %s, bulk-ESS %s, tail-ESS %s", f(c.RHat, "%.3f"), f(c.ESSBulk, "%.0f"), f(c.ESSTail, "%.0f"))
}

// convergence converts an mcmcdiag summary's numbers, NaN to absent.
func convergence(rhat, bulk, tail float64) Convergence {
	opt := func(x float64) *float64 {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil
		}
		return &x
	}
	return Convergence{RHat: opt(rhat), ESSBulk: opt(bulk), ESSTail: opt(tail)}
}

// convergenceOf converts an mcmcdiag summary, NaN to absent.
func convergenceOf(s mcmcdiag.Summary) Convergence { return convergence(s.RHat, s.ESSBulk, s.ESSTail) }

// Quantity is one diagnosed quantity: its name, as tables and warnings
// give it, and its diagnostics.
type Quantity struct {
	Name string
	*Convergence
}

// sweepQuantity is a per-sweep value of a chain's trace that Diagnose
// diagnoses: its name, its value at trace index i, and for the three
// quantities that records have always carried, the field of Diagnostics
// that holds its diagnostics (nil for any other: Diagnostics.Others holds
// those by name). A new diagnosed quantity is one line of
// sweepQuantities, with a nil field.
type sweepQuantity struct {
	name  string
	field func(d *Diagnostics) *Convergence
	value func(r *Result, i int) float64
}

// sweepQuantities lists the per-sweep values Diagnose diagnoses, in the
// order tables and warnings give them.
func sweepQuantities() []sweepQuantity {
	return []sweepQuantity{
		{"train MSE", func(d *Diagnostics) *Convergence { return &d.TrainMSE }, func(r *Result, i int) float64 { return r.Trace[i].TrainMSE }},
		{"sigma^2", func(d *Diagnostics) *Convergence { return &d.Sigma2 }, func(r *Result, i int) float64 { return r.Trace[i].Sigma2 }},
		{"log-likelihood", func(d *Diagnostics) *Convergence { return &d.LogLikelihood }, func(r *Result, i int) float64 { return r.Trace[i].LogLikelihood }},
	}
}

// slot returns where d holds q's diagnostics: its field, or its entry of
// d.Others, made when missing.
func (q sweepQuantity) slot(d *Diagnostics) *Convergence {
	if q.field != nil {
		return q.field(d)
	}
	if d.Others == nil {
		d.Others = make(map[string]*Convergence)
	}
	if d.Others[q.name] == nil {
		d.Others[q.name] = &Convergence{}
	}
	return d.Others[q.name]
}

// Quantities lists the diagnosed quantities in the order tables and
// warnings give them: those of sweepQuantities that have a field of
// Diagnostics, then those of d.Others by name, then the worst tracked
// prediction, named "the worst of N tracked <tracked> predictions", when
// there is one. The Convergences alias d's.
func (d *Diagnostics) Quantities(tracked string) []Quantity {
	var qs []Quantity
	for _, q := range sweepQuantities() {
		if q.field != nil {
			qs = append(qs, Quantity{q.name, q.field(d)})
		}
	}
	for _, name := range slices.Sorted(maps.Keys(d.Others)) {
		if c := d.Others[name]; c != nil { // a record may hold a null
			qs = append(qs, Quantity{name, c})
		}
	}
	if d.Predictions != nil {
		qs = append(qs, Quantity{fmt.Sprintf("the worst of %d tracked %s predictions", d.Tracked, tracked), d.Predictions})
	}
	return qs
}

// Diagnose computes the diagnostics of the chains over their kept sweeps,
// and the warnings they call for under th, against the variance of the
// training values. The predictions it diagnoses are those of the test
// entries that the chains' Settings.Tracked names, which the warnings
// call "<tracked> predictions" ("held-out" in a study, whose tracked
// entries are held out). It returns nil for a point estimate.
func (c *Chains) Diagnose(trainVariance float64, tracked string, th Thresholds) (*Diagnostics, []string) {
	return c.diagnose(sweepQuantities(), trainVariance, tracked, th)
}

// diagnose is Diagnose over the per-sweep quantities qs.
func (c *Chains) diagnose(qs []sweepQuantity, trainVariance float64, tracked string, th Thresholds) (*Diagnostics, []string) {
	first := c.Results[0]
	if first.PointEstimate {
		return nil, nil
	}
	kept := keptIndices(first)
	var ws mcmcdiag.Workspace
	d := &Diagnostics{Chains: len(c.Results), Kept: len(kept)}
	for _, q := range qs {
		*q.slot(d) = convergenceOf(ws.Summarize(keptSeries(c, kept, q.value)))
	}
	if w, ok := c.worstTracked(&ws, kept); ok {
		d.Predictions, d.Tracked = &w, len(first.Settings.Tracked)
	}
	d.MaxSigma2OverVariance = maxSigma2OverVariance(c, trainVariance)
	return d, d.warnings(trainVariance, tracked, th.resolved())
}

// worstTracked returns the worst diagnostics over the tracked entries'
// predictions (the largest R-hat, the smallest ESS; an undefined one does
// not count), or false when the chains track none.
func (c *Chains) worstTracked(ws *mcmcdiag.Workspace, kept []int) (Convergence, bool) {
	m := len(c.Results[0].Settings.Tracked)
	if m == 0 {
		return Convergence{}, false
	}
	sums := make([]mcmcdiag.Summary, m)
	for e := range m {
		sums[e] = ws.Summarize(keptSeries(c, kept, func(r *Result, i int) float64 { return r.Tracked[i][e] }))
	}
	w := mcmcdiag.WorstOf(sums)
	return convergence(w.RHat, w.ESSBulk, w.ESSTail), true
}

// keptIndices returns the indices into r's trace of the sweeps it kept.
func keptIndices(r *Result) []int {
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
func keptSeries(c *Chains, kept []int, value func(r *Result, i int) float64) [][]float64 {
	out := make([][]float64, len(c.Results))
	for ci, r := range c.Results {
		out[ci] = make([]float64, len(kept))
		for j, i := range kept {
			out[ci][j] = value(r, i)
		}
	}
	return out
}

// maxSigma2OverVariance is the stuck rule's measure: the largest ratio,
// over the chains, of a chain's mean kept sigma^2 to trainVariance (0
// when that is not positive).
func maxSigma2OverVariance(c *Chains, trainVariance float64) float64 {
	var worst float64
	for _, r := range c.Results {
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

// flags returns the quantities whose R-hat is above th.MaxRHat
// (unmixed) and those whose bulk-ESS is below th.MinESSPerChain per chain
// (few), in the order of Quantities, and whether a chain is stuck (its
// mean sigma^2 above th.MaxSigma2OverVariance times the training values'
// variance). An absent diagnostic is not flagged. th is resolved.
func (d *Diagnostics) flags(tracked string, th Thresholds) (unmixed, few []flagged, stuck bool) {
	for _, q := range d.Quantities(tracked) {
		if q.RHat != nil && *q.RHat > th.MaxRHat {
			unmixed = append(unmixed, flagged{q.Name, *q.RHat})
		}
		if q.ESSBulk != nil && *q.ESSBulk < float64(th.MinESSPerChain*d.Chains) {
			few = append(few, flagged{q.Name, *q.ESSBulk})
		}
	}
	return unmixed, few, th.Stuck(d.MaxSigma2OverVariance)
}

// warnings flags what the diagnostics say is wrong under th (resolved),
// with the numbers.
func (d *Diagnostics) warnings(trainVariance float64, tracked string, th Thresholds) []string {
	var out []string
	unmixed, few, stuck := d.flags(tracked, th)
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
		out = append(out, fmt.Sprintf("convergence: R-hat above %v across %s of %d kept sweeps: %s", th.MaxRHat, chains, d.Kept, list(unmixed, "%.3g")))
	}
	if len(few) > 0 {
		out = append(out, fmt.Sprintf("convergence: bulk-ESS below %d per chain (%d in all): %s", th.MinESSPerChain, th.MinESSPerChain*d.Chains, list(few, "%.0f")))
	}
	if stuck {
		out = append(out, fmt.Sprintf("convergence: stuck chain: mean sigma^2 is %.3g times the training values' variance %.3g; the chain did not leave its start",
			d.MaxSigma2OverVariance, trainVariance))
	}
	return out
}
