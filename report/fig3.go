package report

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/bnmf-lab/bnmf/dataset"
	"github.com/bnmf-lab/bnmf/experiments"
)

// RatingsFunc returns the distribution of the observed values of a
// study's data (for a rating dataset, its rating distribution, the
// paper's Fig. 3). Its error is printed in the README, so it should not
// name machine-specific paths.
type RatingsFunc func(st *experiments.Study) ([]dataset.RatingCount, error)

// dataKey identifies the data of a study in the report: its dataset and
// its label.
type dataKey struct {
	dataset, label string
}

func dataKeyOf(s *StudySummary) dataKey {
	return dataKey{s.Study.Manifest.Dataset, s.Label()}
}

// loadedData is what the report has of one dataset: its distribution, or
// why it has none.
type loadedData struct {
	counts []dataset.RatingCount
	err    error
}

// datasetsOf returns the distinct data of the studies, in study order.
func datasetsOf(sum *Summary) []dataKey {
	var keys []dataKey
	for _, s := range sum.Studies {
		if k := dataKeyOf(s); !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	return keys
}

// loadData loads the distribution of each study's data once per dataset,
// through the first study that uses it. Every study whose data loaded
// gets its Data, and a scale warning (experiments.ScaleWarning) when the
// values lie far from the scale the default hyperparameters assume, its
// config does not set standardize: true and its manifest does not
// already say so. It returns nil without a loader.
func loadData(sum *Summary, ratings RatingsFunc) map[dataKey]loadedData {
	if ratings == nil {
		return nil
	}
	loaded := make(map[dataKey]loadedData)
	for _, s := range sum.Studies {
		k := dataKeyOf(s)
		d, ok := loaded[k]
		if !ok {
			d.counts, d.err = ratings(s.Study)
			if d.err == nil {
				_, d.err = checkRatingCounts(d.counts)
			}
			loaded[k] = d
		}
		if d.err != nil {
			continue
		}
		s.Data = momentsOf(d.counts)
		// A study with standardize: true fits values of variance 1, as
		// bnmf run (Prepare) judges too: its data get no warning.
		if s.Study.Config != nil && s.Study.Config.Standardize {
			continue
		}
		if w := experiments.ScaleWarning(s.Data.Mean, s.Data.Variance); w != "" && !slices.Contains(s.DataWarnings, w) {
			s.DataWarnings = append(s.DataWarnings, w)
			s.Warnings = append(s.Warnings, w)
		}
	}
	return loaded
}

// fileKey turns a dataset name into a file-name part: lower-case letters,
// digits and dashes.
func fileKey(name string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(name) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b.WriteRune(r)
		default:
			b.WriteByte('-')
		}
	}
	return strings.Trim(b.String(), "-")
}

// writeRatings writes the distribution of each dataset's values, a chart
// into root/figures and a table into the README section b: for a dataset
// of the paper's, its Fig. 3 (a bar per rating), for any other a chart of
// its values (a bar per value, or a histogram when there are more than 24
// distinct values), each followed by the values' mean and variance. A
// dataset whose values could not be loaded is named with the reason
// instead; loaded is nil when the report has no loader.
func writeRatings(b *bytes.Buffer, root string, sum *Summary, loaded map[dataKey]loadedData, paper PaperValues) ([]string, error) {
	keys := datasetsOf(sum)
	if len(keys) == 0 {
		return nil, nil
	}
	allPaper := !slices.ContainsFunc(keys, func(k dataKey) bool { _, ok := paper.Dataset(k.dataset); return !ok })
	if allPaper {
		b.WriteString("## Rating distributions (Fig. 3)\n\n")
	} else {
		b.WriteString("## Value distributions\n\n")
	}
	if loaded == nil {
		b.WriteString("Not drawn: the report was not given a way to load the datasets.\n\n")
		return nil, nil
	}
	var written []string
	for _, k := range keys {
		d := loaded[k]
		p, isPaper := paper.Dataset(k.dataset)
		label := oneLine(k.label)
		if d.err != nil {
			if isPaper {
				fmt.Fprintf(b, "Fig. 3 for %s is not drawn: %s.\n\n", label, oneLine(d.err.Error()))
			} else {
				fmt.Fprintf(b, "The distribution of %s is not drawn: %s.\n\n", label, oneLine(d.err.Error()))
			}
			continue
		}
		title, file, nouns := "Distribution of the values of "+label, "values-"+fileKey(label)+".png", valueNounsOf()
		caption := "Value distribution of " + label
		if isPaper {
			title, file, nouns = "Fig. 3: rating distribution of "+p.Name, "fig3-"+fileKey(k.dataset)+".png", ratingNouns()
			caption = "Rating distribution of " + label
		}
		if err := os.MkdirAll(filepath.Join(root, "figures"), 0o755); err != nil {
			return written, fmt.Errorf("report: %w", err)
		}
		path := filepath.Join(root, "figures", file)
		if err := writeValueChart(path, title, nouns, d.counts); err != nil {
			return written, err
		}
		written = append(written, path)
		fmt.Fprintf(b, "![%s](%s)\n\n", title, relLink(root, path))
		if err := writeValueTable(b, caption, nouns, d.counts); err != nil {
			return written, err
		}
		m := momentsOf(d.counts)
		fmt.Fprintf(b, "\nThe %s have mean %s and variance %s (population variance, the MSE of predicting each by their mean).\n\n",
			nouns.many, fmtSig(m.Mean, 4), fmtSig(m.Variance, 4))
	}
	return written, nil
}
