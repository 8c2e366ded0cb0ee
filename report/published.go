package report

import (
	"compress/gzip"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/bnmf-lab/bnmf/internal/brouwerlio"
)

// Brouwer & Lio's published numbers. Their repository publishes every
// number of their comparison; results/brouwer-lio/published.csv.gz holds
// them as one tidy table (see its README). A study's report finds the
// table beside the study directories, at
// <parent of the study's directory>/brouwer-lio/published.csv.gz, and
// shows "(Brouwer & Lio)" columns only where the table has numbers of
// the same study on the same dataset for the same model, with the same
// hyperparameters, at the same rank and setting.

// blioColumn is the header suffix of a column of their numbers.
const blioColumn = " (Brouwer & Lio)"

// publishedValue is one row of the published table.
type publishedValue struct {
	// Study is upstream's study directory (model_selection, ...),
	// Experiment its experiment directory (the dataset, with a sameK_
	// prefix where every model ran at K = 5), Dataset our name of the
	// data, Model our name of the model.
	Study, Experiment, Dataset, Model string
	// K is the rank the experiment fixes for the model, -1 when the
	// table leaves it empty.
	K int
	// Setting names what varies (K, fraction_unknown, ...), SettingValue
	// its value (NaN when empty).
	Setting      string
	SettingValue float64
	// OuterFold is the outer fold of a nested cross-validation (from 1),
	// 0 when empty.
	OuterFold int
	// Replicate is the repeat or fold ("1", ...), "mean" for a mean
	// upstream published itself, "" for an outer fold's score.
	Replicate string
	Metric    string
	Value     float64
}

// readPublished reads the gzip-compressed published table from r and
// returns the rows of study on dataset. It checks the header, so a table
// of another shape is an error rather than wrong numbers.
func readPublished(r io.Reader, study, dataset string) ([]publishedValue, error) {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, err
	}
	cr := csv.NewReader(zr)
	cr.ReuseRecord = true
	header, err := cr.Read()
	if err != nil {
		return nil, fmt.Errorf("header: %w", err)
	}
	want := []string{"study", "experiment", "dataset", "model", "upstream_model", "K", "setting", "setting_value",
		"outer_fold", "replicate", "metric", "value"}
	if len(header) < len(want) || !slices.Equal(header[:len(want)], want) {
		return nil, fmt.Errorf("header %v; want it to start %v", header, want)
	}
	var out []publishedValue
	for line := 2; ; line++ {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		if rec[0] != study || rec[2] != dataset {
			continue
		}
		v := publishedValue{Study: rec[0], Experiment: rec[1], Dataset: rec[2], Model: rec[3], K: -1, Setting: rec[6],
			SettingValue: math.NaN(), Replicate: rec[9], Metric: rec[10]}
		bad := func(col string, err error) error { return fmt.Errorf("line %d: %s: %w", line, col, err) }
		if rec[5] != "" {
			if v.K, err = strconv.Atoi(rec[5]); err != nil {
				return nil, bad("K", err)
			}
		}
		if rec[7] != "" {
			if v.SettingValue, err = strconv.ParseFloat(rec[7], 64); err != nil {
				return nil, bad("setting_value", err)
			}
		}
		if rec[8] != "" {
			if v.OuterFold, err = strconv.Atoi(rec[8]); err != nil {
				return nil, bad("outer_fold", err)
			}
		}
		if v.Value, err = strconv.ParseFloat(rec[11], 64); err != nil {
			return nil, bad("value", err)
		}
		out = append(out, v)
	}
}

// publishedPath returns where the report looks for the published table
// of study s: brouwer-lio/published.csv.gz beside its directory.
func publishedPath(s *StudySummary) string {
	return filepath.Join(filepath.Dir(s.Study.Dir), "brouwer-lio", "published.csv.gz")
}

// published holds Brouwer & Lio's numbers for one of our studies: the
// rows of their study on its dataset, of the models whose hyperparameters
// match ours.
type published struct {
	// study is upstream's study the rows come from.
	study string
	rows  []publishedValue
	// models lists the study's models that have rows.
	models []string
	// fit counts, per upstream experiment, the models of models that it
	// ran at one of our study's ranks (see experimentFit).
	fit map[string]int
}

// experimentFit returns, for each experiment of rows, how many of models
// it ran at a rank in ranks: the measure of which of their experiments
// our study reproduces, when several ran a model at the same rank and
// setting. Their sparsity study on MovieLens 100K ran GEEA at K = 2 both
// in the experiment that gives each model its own K (GEE, GTT, GTTN,
// GEEA, GEG, GGGU and GLLI at 2, GLL at 3) and in the one that gives
// every model K = 5 (where GEEA kept 2), each with 10 repeats: a study at
// ranks 2 and 3 reproduces the first, in which eight of its models ran at
// those ranks, against one in the second.
func experimentFit(rows []publishedValue, models []string, ranks []int) map[string]int {
	seen := make(map[[2]string]bool)
	fit := make(map[string]int)
	for i := range rows {
		r := &rows[i]
		key := [2]string{r.Experiment, r.Model}
		if seen[key] || !slices.Contains(models, r.Model) || !slices.Contains(ranks, r.K) {
			continue
		}
		seen[key] = true
		fit[r.Experiment]++
	}
	return fit
}

// publishedFor returns Brouwer & Lio's numbers of their study `study` for
// s: nil when the table is absent or has none for s's dataset and models.
// A row stands beside ours when s runs its model with the hyperparameters
// of its experiment (their sparsity study on MovieLens 100K gives the
// volume prior another gamma where every model has K = 5). An unreadable
// table is an error.
func publishedFor(s *StudySummary, study string) (*published, error) {
	// Their hyperparameters differ between experiments only in whether
	// every model has K = 5 (sameK_): "" stands for the others.
	if !slices.ContainsFunc(s.Models, func(m string) bool {
		return sameHyperparameters(s, study, "", m) || sameHyperparameters(s, study, brouwerlio.SameKPrefix, m)
	}) {
		return nil, nil // no need to read the table
	}
	path := publishedPath(s)
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	defer f.Close() // read-only: a close error loses nothing
	rows, err := readPublished(f, study, s.Study.Manifest.Dataset)
	if err != nil {
		return nil, fmt.Errorf("report: %s: %w", path, err)
	}
	p := &published{study: study}
	same := make(map[[2]string]bool) // by experiment and model
	for _, m := range s.Models {
		n := len(p.rows)
		for _, r := range rows {
			if r.Model != m {
				continue
			}
			key := [2]string{r.Experiment, m}
			ok, seen := same[key]
			if !seen {
				ok = sameHyperparameters(s, study, r.Experiment, m)
				same[key] = ok
			}
			if ok {
				p.rows = append(p.rows, r)
			}
		}
		if len(p.rows) > n {
			p.models = append(p.models, m)
		}
	}
	if len(p.rows) == 0 {
		return nil, nil
	}
	p.fit = experimentFit(p.rows, p.models, s.Ranks)
	return p, nil
}

// has reports whether p has numbers of model.
func (p *published) has(model string) bool { return p != nil && slices.Contains(p.models, model) }

// stat summarises the values of model's rows that match: over
// replicates when upstream gives them, else its own published mean. When
// rows of several of their experiments match (their sparsity study on
// MovieLens 100K at K = 5 ran once with 10 and once with 20 repeats), it
// returns the one experiment that fits our study best (experimentFit),
// or nothing when no one does: statRepeats tells them apart by repeats
// too.
func (p *published) stat(model string, match func(*publishedValue) bool) Stat {
	return p.statRepeats(model, 0, match)
}

// statRepeats is stat, and when rows of several experiments match, the
// statistic of the one experiment with n replicates (any number if n is
// 0); when several have n, the one among them that ran the most of our
// study's models at our study's ranks (p.fit), and none if no single
// experiment is left.
func (p *published) statRepeats(model string, n int, match func(*publishedValue) bool) Stat {
	if p == nil {
		return Stat{}
	}
	type values struct{ reps, means []float64 }
	byExp := make(map[string]*values)
	var exps []string
	for i := range p.rows {
		r := &p.rows[i]
		if r.Model != model || !match(r) {
			continue
		}
		v, ok := byExp[r.Experiment]
		if !ok {
			v = &values{}
			byExp[r.Experiment] = v
			exps = append(exps, r.Experiment)
		}
		if r.Replicate == "mean" {
			v.means = append(v.means, r.Value)
		} else {
			v.reps = append(v.reps, r.Value)
		}
	}
	stats := make([]Stat, 0, len(exps))
	for _, e := range exps {
		if v := byExp[e]; len(v.reps) > 0 {
			stats = append(stats, newStat(v.reps))
		} else {
			stats = append(stats, newStat(v.means))
		}
	}
	if len(stats) == 1 {
		return stats[0]
	}
	var found []int
	for i, st := range stats {
		if n == 0 || st.N+st.NonFinite == n {
			found = append(found, i)
		}
	}
	best, ties := -1, 0
	for _, i := range found {
		switch f := p.fit[exps[i]]; {
		case best < 0 || f > p.fit[exps[best]]:
			best, ties = i, 1
		case f == p.fit[exps[best]]:
			ties++
		}
	}
	if best < 0 || ties > 1 {
		return Stat{}
	}
	return stats[best]
}

// blioCell formats a statistic of their numbers: mean ± standard error
// over their replicates, "—" for none.
func blioCell(s Stat) string { return fmtMeanSE(s) }
