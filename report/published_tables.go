package report

import (
	"bytes"
	"fmt"
	"io"
	"slices"
)

// Tables of our sparsity, noise and convergence studies beside Brouwer &
// Lio's published numbers of the same study, dataset, model (with their
// hyperparameters), K and fraction or noise ratio. A study with no such
// match gets no table.

// blioAxis describes the setting a sparsity or noise study varies, as
// their table names it.
type blioAxis struct {
	// study is upstream's study, setting its name of the setting.
	study, setting string
	// name names the setting in our tables; values are the study's.
	name   string
	values []float64
	// key returns the key of model at rank k and setting v.
	key func(model string, k int, v float64) Key
}

// blioPair is a model at a rank that both they and we ran.
type blioPair struct {
	model string
	rank  int
}

// pairs returns the models and ranks of s that they ran at the same
// rank (their K column) in study ax.study, with a number at some value of
// ax.
func (ax blioAxis) pairs(s *StudySummary, pub *published) []blioPair {
	var out []blioPair
	for _, m := range pub.models {
		for _, k := range s.Ranks {
			i := slices.IndexFunc(pub.rows, func(r publishedValue) bool {
				return r.Model == m && r.K == k && r.Setting == ax.setting && r.Metric == "MSE" &&
					slices.Contains(ax.values, r.SettingValue)
			})
			if i >= 0 {
				out = append(out, blioPair{m, k})
			}
		}
	}
	return out
}

// addBrouwerLioAxisTable adds, when their table has matching numbers, a
// table of our held-out MSE and theirs at each value of ax, a pair of
// columns per model and rank they ran.
func addBrouwerLioAxisTable(s *StudySummary, add tableAdder, ax blioAxis, file, what string) error {
	pub, err := publishedFor(s, ax.study)
	if err != nil || pub == nil {
		return err
	}
	pairs := ax.pairs(s, pub)
	if len(pairs) == 0 {
		return nil
	}
	caption := statsCaption + " of the held-out MSE " + what + ", beside theirs at the same K and " + ax.name + "." +
		publishedCaption(pub, s, "their mean ± standard error over their repeats") +
		" Their splits and noise follow their own protocol (see configs/README.md)."
	return add(file, "Held-out MSE beside Brouwer & Lio's", caption, func(b *bytes.Buffer) error {
		return writeBrouwerLioAxisTable(b, s, pub, ax, pairs)
	})
}

// writeBrouwerLioAxisTable writes a row per value of ax and, per pair,
// our held-out MSE and theirs.
func writeBrouwerLioAxisTable(w io.Writer, s *StudySummary, pub *published, ax blioAxis, pairs []blioPair) error {
	t := mdTable{header: []string{ax.name}}
	for _, p := range pairs {
		t.header = append(t.header, fmt.Sprintf("%s, K = %d", p.model, p.rank), fmt.Sprintf("%s, K = %d%s", p.model, p.rank, blioColumn))
	}
	for _, v := range ax.values {
		row := []string{fmtG(v)}
		for _, p := range pairs {
			g := s.Group(ax.key(p.model, p.rank, v))
			var st Stat
			if g != nil {
				st = g.TestMSE
			}
			theirs := pub.statRepeats(p.model, s.Study.Manifest.Repeats, func(r *publishedValue) bool {
				return r.K == p.rank && r.Setting == ax.setting && r.SettingValue == v && r.Metric == "MSE"
			})
			row = append(row, statCell(g, st, false, &t.notes), blioCell(theirs))
		}
		t.rows = append(t.rows, row)
	}
	return t.render(w)
}

// addBrouwerLioSparsityTable adds the sparsity study's table beside
// theirs (fractions of the whole grid unobserved, as theirs).
func addBrouwerLioSparsityTable(s *StudySummary, add tableAdder) error {
	return addBrouwerLioAxisTable(s, add, blioAxis{
		study: "sparsity", setting: "fraction_unknown", name: "fraction unobserved", values: s.Grid,
		key: func(m string, k int, v float64) Key { return Key{Model: m, Rank: k, Fraction: v} },
	}, "sparsity-brouwer-lio.md", "against the fraction unobserved")
}

// addBrouwerLioNoiseTable adds the noise study's table beside theirs
// (held-out MSE against the noisy test values, as theirs).
func addBrouwerLioNoiseTable(s *StudySummary, add tableAdder) error {
	return addBrouwerLioAxisTable(s, add, blioAxis{
		study: "noise", setting: "noise_to_signal", name: "noise-to-signal ratio", values: s.Grid,
		key: func(m string, k int, v float64) Key { return Key{Model: m, Rank: k, NoiseRatio: v} },
	}, "noise-brouwer-lio.md", "against the noisy test values")
}

// addBrouwerLioConvergenceTable adds, when their table has the same
// models at the same K, our final train MSE beside their mean train MSE
// at the same iteration (their mean over runs, as they published it).
func addBrouwerLioConvergenceTable(s *StudySummary, add tableAdder) error {
	pub, err := publishedFor(s, "convergence")
	if err != nil || pub == nil {
		return err
	}
	sweeps := float64(s.Study.Manifest.Sweeps)
	theirs := func(m string, k int) Stat {
		return pub.stat(m, func(r *publishedValue) bool {
			return r.K == k && r.Setting == "iteration" && r.SettingValue == sweeps && r.Metric == "train_MSE"
		})
	}
	var pairs []blioPair
	for _, m := range pub.models {
		for _, k := range s.Ranks {
			if theirs(m, k).N > 0 {
				pairs = append(pairs, blioPair{m, k})
			}
		}
	}
	if len(pairs) == 0 {
		return nil
	}
	caption := statsCaption + fmt.Sprintf(" of the train MSE after %d sweeps, beside theirs after as many iterations at the same K.", s.Study.Manifest.Sweeps) +
		publishedCaption(pub, s, "the mean over their runs of the train MSE of each iteration's draw, as they published it (no standard error)")
	return add("convergence-brouwer-lio.md", "Final train MSE beside Brouwer & Lio's", caption, func(b *bytes.Buffer) error {
		t := mdTable{header: []string{"Model", "K", "train MSE", "train MSE" + blioColumn}}
		for _, p := range pairs {
			g := s.Group(Key{Model: p.model, Rank: p.rank})
			var st Stat
			if g != nil {
				st = g.TrainMSE
			}
			t.rows = append(t.rows, []string{p.model, fmt.Sprintf("%d", p.rank), statCell(g, st, false, &t.notes), blioCell(theirs(p.model, p.rank))})
		}
		return t.render(b)
	})
}
