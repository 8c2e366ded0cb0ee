package report

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// whatItShows says in one paragraph what a study's numbers show, computed
// from the summary and phrased as what was measured, with its uncertainty.
func whatItShows(s *StudySummary, paper PaperValues) string {
	if s.Found-s.Failed == 0 {
		return "No cell has finished successfully yet, so there is nothing to show; the figures and tables appear once records arrive."
	}
	text := fmt.Sprintf("The report does not know study kind %q.", s.Kind())
	if kr := reportOf(s); kr != nil {
		text = kr.findings(s, paper)
	}
	if s.Found-s.Failed < s.Expected {
		text += fmt.Sprintf(" These statements rest on %d of the %d expected cells; settings with fewer repeats are marked n=found/expected in the tables.",
			s.Found-s.Failed, s.Expected)
	}
	return text
}

// findingRow is one row of a comparison: a setting named prefix+value
// ("K = 20", "ratio 0.5"), the prefix for several values ("ratios "), and
// the key of each model's group in it.
type findingRow struct {
	prefix, value, plural string
	key                   func(model string) Key
}

// rankRows returns a row per rank of the study.
func rankRows(s *StudySummary, key func(model string, rank int) Key) []findingRow {
	rows := make([]findingRow, len(s.Ranks))
	for i, k := range s.Ranks {
		rows[i] = findingRow{"K = ", fmt.Sprint(k), "K = ", func(m string) Key { return key(m, k) }}
	}
	return rows
}

// leaders says which model has the best mean of metric in each row (lower
// is better unless higherBetter), grouping consecutive rows with the same
// leader, and names the rows where the lead over the runner-up is within
// two standard errors. In a study with baselines it says so twice, once
// among the models and once among the baselines, so that "the model with
// the lowest mean" is never a baseline.
func leaders(s *StudySummary, rows []findingRow, metric func(*Group) Stat, higherBetter bool, what string) string {
	if len(s.Baselines()) == 0 {
		return leadersAmong(s, rows, metric, higherBetter, what, nil)
	}
	models := leadersAmong(s, rows, metric, higherBetter, what+" among the models", func(m string) bool { return !isBaseline(m) })
	if len(s.Baselines()) == 1 {
		return models
	}
	baselines := leadersAmong(s, rows, metric, higherBetter, what+" among the baselines", isBaseline)
	return strings.TrimSpace(models + " " + baselines)
}

// leadersAmong is leaders over the models that include accepts (all when
// it is nil).
func leadersAmong(s *StudySummary, rows []findingRow, metric func(*Group) Stat, higherBetter bool, what string, include func(string) bool) string {
	type lead struct {
		model          string
		prefix, plural string
		values         []string
	}
	var leads []lead
	var close, closeLabels []string
	better := func(a, b float64) bool { return (higherBetter && a > b) || (!higherBetter && a < b) }
	for _, row := range rows {
		_, stats := s.row(row.key, metric)
		for i, m := range s.Models {
			if include != nil && !include(m) {
				stats[i] = Stat{} // no value: never best nor runner-up
			}
		}
		best := bestOf(stats, higherBetter)
		bi, ri := -1, -1 // best and runner-up
		for i := range stats {
			if best[i] && bi < 0 {
				bi = i
			}
		}
		if bi < 0 {
			continue
		}
		for i, st := range stats {
			if i != bi && st.N > 0 && isFinite(st.Mean) && (ri < 0 || better(st.Mean, stats[ri].Mean)) {
				ri = i
			}
		}
		m := s.Models[bi]
		if n := len(leads); n > 0 && leads[n-1].model == m && leads[n-1].prefix == row.prefix {
			leads[n-1].values = append(leads[n-1].values, row.value)
		} else {
			leads = append(leads, lead{m, row.prefix, row.plural, []string{row.value}})
		}
		if ri >= 0 {
			b, r := stats[bi], stats[ri]
			se := math.Hypot(b.SE, r.SE)
			if !isFinite(se) || math.Abs(b.Mean-r.Mean) <= 2*se {
				close = append(close, fmt.Sprintf("%s%s (%s %s against %s %s)", row.prefix, row.value, m, fmtMeanSE(b), s.Models[ri], fmtMeanSE(r)))
				closeLabels = append(closeLabels, row.value)
			}
		}
	}
	if len(leads) == 0 {
		return ""
	}
	parts := make([]string, len(leads))
	for i, l := range leads {
		prefix := l.prefix
		if len(l.values) > 1 {
			prefix = l.plural
		}
		parts[i] = fmt.Sprintf("%s at %s%s", l.model, prefix, strings.Join(l.values, ", "))
	}
	out := fmt.Sprintf("The %s is %s.", what, strings.Join(parts, "; "))
	switch {
	case len(close) > 0 && len(close) <= 2:
		out += fmt.Sprintf(" The lead is within two standard errors of the runner-up (or there are too few repeats to tell) at %s, so the order there is not resolved.",
			strings.Join(close, "; "))
	case len(close) > 2:
		out += fmt.Sprintf(" At %s%s the lead is within two standard errors of the runner-up (or there are too few repeats to tell), so the order there is not resolved.",
			rows[0].plural, strings.Join(closeLabels, ", "))
	}
	return out
}

func convergenceFindings(s *StudySummary) string {
	text := leaders(s, rankRows(s, func(m string, k int) Key { return Key{Model: m, Rank: k} }),
		func(g *Group) Stat { return g.TrainMSE }, false, "lowest mean final train MSE")
	var falls, not []string
	for _, m := range s.Models {
		var ks []int
		var means []float64
		for _, k := range s.Ranks {
			if g := s.Group(Key{Model: m, Rank: k}); g != nil && g.TrainMSE.N > 0 && isFinite(g.TrainMSE.Mean) {
				ks, means = append(ks, k), append(means, g.TrainMSE.Mean)
			}
		}
		if len(ks) < 2 {
			continue
		}
		lowest := 0
		steady := true
		for i := 1; i < len(means); i++ {
			steady = steady && means[i] < means[i-1]
			if means[i] < means[lowest] {
				lowest = i
			}
		}
		if steady {
			falls = append(falls, fmt.Sprintf("%s (%s at K = %d to %s at K = %d)", m, fmtSig(means[0], 3), ks[0], fmtSig(means[len(means)-1], 3), ks[len(ks)-1]))
		} else {
			not = append(not, fmt.Sprintf("%s (lowest %s at K = %d)", m, fmtSig(means[lowest], 3), ks[lowest]))
		}
	}
	if len(falls) > 0 {
		text += " Mean final train MSE falls with every increase of K for " + strings.Join(falls, ", ") + "."
	}
	if len(not) > 0 {
		text += " It does not fall steadily with K for " + strings.Join(not, ", ") + "."
	}
	return strings.TrimSpace(text)
}

func sparsityFindings(s *StudySummary, paper PaperValues) string {
	// The highest fraction unobserved that has results.
	f, have := 0.0, false
	for _, g := range s.Groups {
		if g.TestMSE.N > 0 && (!have || g.Fraction > f) {
			f, have = g.Fraction, true
		}
	}
	if !have {
		return "No cell has a held-out MSE yet."
	}
	what := fmt.Sprintf("lowest mean held-out MSE at the highest fraction unobserved, %s,", fmtG(f))
	if top := s.Grid[len(s.Grid)-1]; f < top {
		what = fmt.Sprintf("lowest mean held-out MSE at fraction unobserved %s, the highest with results so far (the study goes up to %s),", fmtG(f), fmtG(top))
	}
	text := leaders(s, rankRows(s, func(m string, k int) Key { return Key{Model: m, Rank: k, Fraction: f} }),
		func(g *Group) Stat { return g.TestMSE }, false, what)
	var worst *Group
	for i := range s.Groups {
		g := &s.Groups[i]
		if g.Fraction == f && g.TestMSE.N > 0 && isFinite(g.TestMSE.Mean) && (worst == nil || g.TestMSE.Mean > worst.TestMSE.Mean) {
			worst = g
		}
	}
	if worst != nil {
		text += fmt.Sprintf(" The largest mean at that fraction is %s's %s at K = %d.", worst.Model, fmtMeanSE(worst.TestMSE), worst.Rank)
	}
	var paperLeads []string
	for _, k := range s.Ranks {
		best, bestV := "", math.Inf(1)
		for _, m := range s.Models {
			if v, ok := paper.HeldOutMSE(s.Study.Manifest.Dataset, f, m, k); ok && v < bestV {
				best, bestV = m, v
			}
		}
		if best != "" {
			paperLeads = append(paperLeads, fmt.Sprintf("%s at K = %d (%s)", best, k, fmtPaper(bestV)))
		}
	}
	if len(paperLeads) > 0 {
		text += fmt.Sprintf(" For comparison, the paper's Table 2 has the lowest value at this fraction for %s; it gives no NMF column.", strings.Join(paperLeads, ", "))
	}
	text += skillFindings(s, f)
	return strings.TrimSpace(text)
}

// skillFindings says, per rank at fraction f, how the model with the
// lowest mean held-out MSE (baselines aside) fares against the best
// baseline, or "" for a study without baselines.
func skillFindings(s *StudySummary, f float64) string {
	var parts, refs []string
	for _, k := range s.Ranks {
		groups, stats := s.row(func(m string) Key { return Key{Model: m, Rank: k, Fraction: f} },
			func(g *Group) Stat { return g.TestMSE })
		bi := s.bestBaseline(groups, testMSE())
		mi := -1
		for i, st := range stats {
			if !isBaseline(s.Models[i]) && st.N > 0 && isFinite(st.Mean) && (mi < 0 || st.Mean < stats[mi].Mean) {
				mi = i
			}
		}
		if bi < 0 || mi < 0 {
			continue
		}
		sk := skillStat(groups[mi], groups[bi], testMSE())
		if sk.N == 0 {
			continue
		}
		parts = append(parts, fmt.Sprintf("%s %s at K = %d", s.Models[mi], fmtMeanSE(sk), k))
		if !slices.Contains(refs, s.Models[bi]) {
			refs = append(refs, s.Models[bi])
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return fmt.Sprintf(" Against the best baseline (%s), the skill 1 − MSE/MSE of the baseline, paired by repeat, of the model with the lowest mean held-out MSE at that fraction is %s.",
		strings.Join(refs, ", "), strings.Join(parts, "; "))
}

func noiseFindings(s *StudySummary) string {
	metric := func(g *Group) Stat { return g.VarOverMSE }
	var parts []string
	for _, k := range s.Ranks {
		rows := make([]findingRow, len(s.Grid))
		for i, r := range s.Grid {
			rows[i] = findingRow{"ratio ", fmtG(r), "ratios ", func(m string) Key { return Key{Model: m, Rank: k, NoiseRatio: r} }}
		}
		text := leaders(s, rows, metric, true, fmt.Sprintf("highest mean var(data)/MSE (against the noisy test values) at K = %d", k))
		if text == "" {
			continue
		}
		// The spread between the best and worst model, relative to the best.
		lo, hi := math.Inf(1), math.Inf(-1)
		var loRow, hiRow string
		for _, row := range rows {
			_, stats := s.row(row.key, metric)
			top, bottom := math.Inf(-1), math.Inf(1)
			for _, st := range stats {
				if st.N > 0 && isFinite(st.Mean) {
					top, bottom = math.Max(top, st.Mean), math.Min(bottom, st.Mean)
				}
			}
			if top > 0 && top >= bottom {
				spread := (top - bottom) / top
				if spread < lo {
					lo, loRow = spread, row.value
				}
				if spread > hi {
					hi, hiRow = spread, row.value
				}
			}
		}
		if !math.IsInf(lo, 0) {
			text += fmt.Sprintf(" The lowest model's mean is %.0f%% below the highest at ratio %s and %.0f%% below at ratio %s, the smallest and largest gaps.",
				100*lo, loRow, 100*hi, hiRow)
		}
		parts = append(parts, text)
	}
	return strings.Join(parts, " ")
}
