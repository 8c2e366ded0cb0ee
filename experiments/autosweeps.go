package experiments

import (
	"fmt"
	"math"
	"strings"

	"github.com/bnmf-lab/bnmf/bnmf"
	"github.com/bnmf-lab/bnmf/mcmcdiag"
)

// MinESS is the smallest bulk- and tail-ESS, pooled over a cell's chains,
// at which sweeps: auto counts them as having run enough (with R-hat
// below MaxRHat), after Vehtari et al. (2021), who ask for 400 draws'
// worth: 100 for each of four chains.
const MinESS = 400

// The verdicts of AutoStop.
const (
	// Converged: every quantity watched has R-hat below MaxRHat and bulk-
	// and tail-ESS of at least MinESS.
	Converged = "converged"
	// NotConverged: the chains reached max_sweeps first.
	NotConverged = "not converged"
	// Stuck: a chain is stuck (Diagnostics.MaxSigma2OverVariance above
	// MaxSigma2OverVariance) and cannot mix, so the chains stopped.
	Stuck = "stuck"
)

// AutoStop says how the chains of a cell (or fit) with sweeps: auto
// stopped, and the diagnostics they reached over the kept second half of
// their sweeps: those of the quantities the stopping rule watches,
// sigma^2, the held-out MSE and the worst tracked prediction.
type AutoStop struct {
	// MaxSweeps is the cap; Sweeps the sweeps every chain ran (the chains
	// stop together), the first half of them burn-in.
	MaxSweeps int `json:"max_sweeps"`
	Sweeps    int `json:"sweeps"`
	// Verdict is Converged, NotConverged or Stuck.
	Verdict string `json:"verdict"`
	// Sigma2, TestMSE and Predictions are the diagnostics reached;
	// TestMSE is absent without test entries, Predictions without
	// tracked ones.
	Sigma2      Convergence  `json:"sigma2"`
	TestMSE     *Convergence `json:"test_mse,omitempty"`
	Predictions *Convergence `json:"predictions,omitempty"`
	// MaxSigma2OverVariance is as in Diagnostics.
	MaxSigma2OverVariance float64 `json:"max_sigma2_over_variance"`
}

// AutoRule is the stopping rule of sweeps: auto, a bnmf.Stopper: stop
// when JudgeAuto's verdict is Converged or Stuck.
type AutoRule struct {
	// TrainVariance is the variance of the training values, in the units
	// of the chains the rule is asked about, for the stuck rule.
	TrainVariance float64
}

// Stop implements bnmf.Stopper.
func (r AutoRule) Stop(c *bnmf.Chains) (bool, error) {
	return JudgeAuto(c, r.TrainVariance, 0).Verdict != NotConverged, nil
}

// JudgeAuto diagnoses chains, as bnmf.RunChains with Settings.Auto
// returns them or asks its rule about them, over the kept half of their
// sweeps, against the variance of the training values, and gives the
// verdict with the cap maxSweeps. A quantity all of whose diagnostics are
// undefined (constant draws, as the held-out MSE of an unchanging chain)
// is left out; sigma^2 never is.
func JudgeAuto(c *bnmf.Chains, trainVariance float64, maxSweeps int) *AutoStop {
	first := c.Results[0]
	a := &AutoStop{MaxSweeps: maxSweeps, Sweeps: first.Settings.Sweeps, Verdict: NotConverged}
	kept := keptIndices(first)
	var ws mcmcdiag.Workspace
	of := func(value func(r *bnmf.Result, i int) float64) mcmcdiag.Summary {
		return ws.Summarize(keptSeries(c, kept, value))
	}
	a.Sigma2 = convergenceOf(of(func(r *bnmf.Result, i int) float64 { return r.Trace[i].Sigma2 }))
	watched := []*Convergence{&a.Sigma2}
	if len(first.Settings.Test) > 0 {
		m := convergenceOf(of(func(r *bnmf.Result, i int) float64 { return r.Trace[i].TestMSE }))
		a.TestMSE = &m
		watched = append(watched, a.TestMSE)
	}
	if m := len(first.Settings.Tracked); m > 0 {
		sums := make([]mcmcdiag.Summary, m)
		for e := range m {
			sums[e] = of(func(r *bnmf.Result, i int) float64 { return r.Tracked[i][e] })
		}
		w := mcmcdiag.WorstOf(sums)
		p := convergence(w.RHat, w.ESSBulk, w.ESSTail)
		a.Predictions = &p
		watched = append(watched, a.Predictions)
	}
	a.MaxSigma2OverVariance = maxSigma2OverVariance(c, trainVariance)
	switch {
	case a.MaxSigma2OverVariance > MaxSigma2OverVariance:
		a.Verdict = Stuck
	case enough(watched):
		a.Verdict = Converged
	}
	return a
}

// enough reports whether every quantity qs[0] and every defined one of
// the others has R-hat below MaxRHat and bulk- and tail-ESS of at least
// MinESS.
func enough(qs []*Convergence) bool {
	for i, q := range qs {
		if i > 0 && q.RHat == nil && q.ESSBulk == nil && q.ESSTail == nil {
			continue
		}
		if q.RHat == nil || !(*q.RHat < MaxRHat) || q.ESSBulk == nil || *q.ESSBulk < MinESS || q.ESSTail == nil || *q.ESSTail < MinESS {
			return false
		}
	}
	return true
}

// convergenceOf converts an mcmcdiag summary, NaN to absent.
func convergenceOf(s mcmcdiag.Summary) Convergence { return convergence(s.RHat, s.ESSBulk, s.ESSTail) }

// Warnings says what a verdict other than Converged means, with the
// diagnostics reached; tracked names the test entries ("held-out" in a
// study), as Diagnose's argument does.
func (a *AutoStop) Warnings(tracked string) []string {
	switch a.Verdict {
	case NotConverged:
		parts := []string{"sigma^2 " + a.Sigma2.String()}
		if a.TestMSE != nil {
			parts = append(parts, tracked+" MSE "+a.TestMSE.String())
		}
		if a.Predictions != nil {
			parts = append(parts, "worst tracked "+tracked+" prediction "+a.Predictions.String())
		}
		return []string{fmt.Sprintf("convergence: not converged: sweeps: auto reached max_sweeps %d without R-hat below %v and bulk- and tail-ESS of %d: %s",
			a.MaxSweeps, MaxRHat, MinESS, strings.Join(parts, "; "))}
	case Stuck:
		return []string{fmt.Sprintf("convergence: sweeps: auto stopped after %d sweeps: a chain is stuck (mean sigma^2 %.3g times the training values' variance)",
			a.Sweeps, a.MaxSigma2OverVariance)}
	}
	return nil
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
