package report

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/bnmf-lab/bnmf/dataset"
)

// RatingsFunc returns the rating distribution of a dataset named as in a
// study's manifest ("movielens-100k"), for Fig. 3. Its error is printed in
// the README, so it should not name machine-specific paths.
type RatingsFunc func(dataset string) ([]dataset.RatingCount, error)

// datasetsOf returns the distinct datasets of the studies, in study order.
func datasetsOf(sum *Summary) []string {
	var names []string
	seen := make(map[string]bool)
	for _, s := range sum.Studies {
		if d := s.Study.Manifest.Dataset; !seen[d] {
			seen[d] = true
			names = append(names, d)
		}
	}
	return names
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

// writeRatings writes Fig. 3, a rating distribution chart and table per
// dataset, into root/figures and the README section b. A dataset whose
// ratings cannot be had is named with the reason instead.
func writeRatings(b *bytes.Buffer, root string, sum *Summary, ratings RatingsFunc, paper PaperValues) ([]string, error) {
	names := datasetsOf(sum)
	if len(names) == 0 {
		return nil, nil
	}
	b.WriteString("## Rating distributions (Fig. 3)\n\n")
	if ratings == nil {
		b.WriteString("Not drawn: the report was not given a way to load the datasets.\n\n")
		return nil, nil
	}
	var written []string
	for _, name := range names {
		counts, err := ratings(name)
		if err != nil {
			fmt.Fprintf(b, "Fig. 3 for %s is not drawn: %s.\n\n", name, oneLine(err.Error()))
			continue
		}
		title := name
		if p, ok := paper.Dataset(name); ok {
			title = p.Name
		}
		if err := os.MkdirAll(filepath.Join(root, "figures"), 0o755); err != nil {
			return written, fmt.Errorf("report: %w", err)
		}
		path := filepath.Join(root, "figures", "fig3-"+fileKey(name)+".png")
		if err := WriteRatingChart(path, "Fig. 3: rating distribution of "+title, counts); err != nil {
			return written, err
		}
		written = append(written, path)
		fmt.Fprintf(b, "![Fig. 3: rating distribution of %s](%s)\n\n", title, relLink(root, path))
		if err := WriteRatingTable(b, name, counts); err != nil {
			return written, err
		}
		b.WriteString("\n")
	}
	return written, nil
}
