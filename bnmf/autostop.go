package bnmf

import (
	"fmt"
	"strings"

	"github.com/bnmf-lab/bnmf/mcmcdiag"
)

// The verdicts of AutoStop.
const (
	// Converged: every quantity watched has R-hat below the MaxRHat and
	// bulk- and tail-ESS of at least the MinESS of the Thresholds.
	Converged = "converged"
	// NotConverged: the chains reached their cap of sweeps first.
	NotConverged = "not converged"
	// Stuck: a chain is stuck and cannot mix, so the chains stopped: its
	// mean sigma^2 exceeds the Thresholds' MaxSigma2OverVariance times
	// the training values' variance both over the kept half of its
	// sweeps (Diagnostics.MaxSigma2OverVariance) and over their last
	// quarter, so that a chain still coming down from a huge start (the
	// paper's start puts sigma^2 near 1e6 for GEE at K = 50) is not taken
	// for one that stays up.
	Stuck = "stuck"
)

// AutoStop says how chains run with Settings.Auto stopped, and the
// diagnostics they reached over the kept second half of their sweeps:
// those of the quantities the stopping rule watches, sigma^2, the
// held-out MSE and the worst tracked prediction.
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
	// LogLikelihood stands in for sigma^2 in chains that have none (a
	// Poisson likelihood's, whose sigma^2 is 0 at every sweep).
	LogLikelihood *Convergence `json:"log_likelihood,omitempty"`
	// MaxSigma2OverVariance is as in Diagnostics.
	MaxSigma2OverVariance float64 `json:"max_sigma2_over_variance"`
}

// AutoRule is the stopping rule of Settings.Auto that `bnmf fit --sweeps
// auto` and a study's sweeps: auto use, a Stopper: stop when JudgeAuto's
// verdict is Converged or Stuck.
type AutoRule struct {
	// TrainVariance is the variance of the training values, in the units
	// of the chains the rule is asked about, for the stuck rule.
	TrainVariance float64
	// Thresholds are the rule's limits; the zero value means the
	// defaults.
	Thresholds Thresholds
}

// Stop implements Stopper.
func (r AutoRule) Stop(c *Chains) (bool, error) {
	return c.JudgeAuto(r.TrainVariance, 0, r.Thresholds).Verdict != NotConverged, nil
}

// JudgeAuto diagnoses the chains, as RunChains with Settings.Auto returns
// them or asks its rule about them, over the kept half of their sweeps,
// against the variance of the training values, and gives the verdict
// under th with the cap maxSweeps. A quantity all of whose diagnostics
// are undefined (constant draws, as the held-out MSE of an unchanging
// chain) is left out; sigma^2 never is, except in chains of a model with
// a Poisson likelihood (Result.Family), which have none: their
// log-likelihood takes its place.
func (c *Chains) JudgeAuto(trainVariance float64, maxSweeps int, th Thresholds) *AutoStop {
	th = th.resolved()
	first := c.Results[0]
	a := &AutoStop{MaxSweeps: maxSweeps, Sweeps: first.Settings.Sweeps, Verdict: NotConverged}
	kept := keptIndices(first)
	var ws mcmcdiag.Workspace
	of := func(value func(r *Result, i int) float64) Convergence {
		return convergenceOf(ws.Summarize(keptSeries(c, kept, value)))
	}
	a.Sigma2 = of(func(r *Result, i int) float64 { return r.Trace[i].Sigma2 })
	watched := []*Convergence{&a.Sigma2}
	if first.Family == Poisson {
		ll := of(func(r *Result, i int) float64 { return r.Trace[i].LogLikelihood })
		a.LogLikelihood = &ll
		watched[0] = a.LogLikelihood
	}
	if len(first.Settings.Test) > 0 {
		m := of(func(r *Result, i int) float64 { return r.Trace[i].TestMSE })
		a.TestMSE = &m
		watched = append(watched, a.TestMSE)
	}
	if p, ok := c.worstTracked(&ws, kept); ok {
		a.Predictions = &p
		watched = append(watched, a.Predictions)
	}
	a.MaxSigma2OverVariance = maxSigma2OverVariance(c, trainVariance)
	switch {
	case th.Stuck(a.MaxSigma2OverVariance) && th.Stuck(recentSigma2OverVariance(c, trainVariance)):
		a.Verdict = Stuck
	case enough(watched, th):
		a.Verdict = Converged
	}
	return a
}

// recentSigma2OverVariance is the largest ratio, over the chains, of a
// chain's mean sigma^2 over the last quarter of its sweeps (at least one)
// to trainVariance (0 when that is not positive).
func recentSigma2OverVariance(c *Chains, trainVariance float64) float64 {
	var worst float64
	if !(trainVariance > 0) {
		return 0
	}
	for _, r := range c.Results {
		n := len(r.Trace)
		from := n - max(1, n/4)
		var sum float64
		for _, st := range r.Trace[from:] {
			sum += st.Sigma2
		}
		worst = max(worst, sum/float64(n-from)/trainVariance)
	}
	return worst
}

// enough reports whether every quantity qs[0] and every defined one of
// the others has R-hat below th.MaxRHat and bulk- and tail-ESS of at
// least th.MinESS (th resolved).
func enough(qs []*Convergence, th Thresholds) bool {
	minESS := float64(th.MinESS)
	for i, q := range qs {
		if i > 0 && q.RHat == nil && q.ESSBulk == nil && q.ESSTail == nil {
			continue
		}
		if q.RHat == nil || !(*q.RHat < th.MaxRHat) || q.ESSBulk == nil || *q.ESSBulk < minESS || q.ESSTail == nil || *q.ESSTail < minESS {
			return false
		}
	}
	return true
}

// Warnings says what a verdict other than Converged means under th, with
// the diagnostics reached; tracked names the test entries ("held-out" in
// a study), as Diagnose's argument does.
func (a *AutoStop) Warnings(tracked string, th Thresholds) []string {
	th = th.resolved()
	switch a.Verdict {
	case NotConverged:
		parts := []string{"sigma^2 " + a.Sigma2.String()}
		if a.LogLikelihood != nil {
			parts = []string{"log-likelihood " + a.LogLikelihood.String()}
		}
		if a.TestMSE != nil {
			parts = append(parts, tracked+" MSE "+a.TestMSE.String())
		}
		if a.Predictions != nil {
			parts = append(parts, "worst tracked "+tracked+" prediction "+a.Predictions.String())
		}
		return []string{fmt.Sprintf("convergence: not converged: sweeps: auto reached max_sweeps %d without R-hat below %v and bulk- and tail-ESS of %d: %s",
			a.MaxSweeps, th.MaxRHat, th.MinESS, strings.Join(parts, "; "))}
	case Stuck:
		return []string{fmt.Sprintf("convergence: sweeps: auto stopped after %d sweeps: a chain is stuck (mean sigma^2 %.3g times the training values' variance)",
			a.Sweeps, a.MaxSigma2OverVariance)}
	}
	return nil
}
