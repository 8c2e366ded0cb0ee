package report

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/bnmf-lab/bnmf/experiments"
)

// nestedCVReport is the report of a nested cross-validation (Brouwer &
// Lio's Table 2 and their cross_validation results): per model, the K
// the inner folds chose in each outer fold and the held-out MSE of that
// choice on the outer fold, beside theirs.
type nestedCVReport struct{}

// blioNestedCV is upstream's name of the study.
const blioNestedCV = "cross_validation"

func (nestedCVReport) figure(s *StudySummary, pal Palette) (*Figure, string, error) {
	f, err := rankFigure(s, pal, "held-out MSE on the outer folds against K", "held-out MSE", 0,
		func(g *Group) Stat { return g.TestMSE },
		"Every K fitted to each outer fold's training part and scored on the outer fold. Points: mean over the outer folds; bars: ± one standard error.")
	return f, "nested-cv.png", err
}

// nestedChoices returns the choices of s's used records, each cell
// scored by the held-out MSE of its posterior predictive mean.
func nestedChoices(s *StudySummary) []experiments.NestedChoice {
	return nestedChoicesBy(s, func(x *experiments.Metrics) float64 { return x.TestMSE })
}

// nestedChoicesBy is nestedChoices with each cell scored by score.
func nestedChoicesBy(s *StudySummary, score func(*experiments.Metrics) float64) []experiments.NestedChoice {
	m := s.Study.Manifest
	expected := make(map[experiments.Cell]bool)
	for _, c := range expectedCells(m) {
		expected[c] = true
	}
	records, _ := acceptRecords(s.Study, expected)
	return experiments.NestedChoicesBy(m, records, score)
}

// nestedPublished returns their numbers for s when they come from the
// same protocol: as many outer folds as s has, and per model the same
// grid of K (a baseline has none); a model whose grid differs is dropped.
func nestedPublished(s *StudySummary) (*published, error) {
	pub, err := publishedFor(s, blioNestedCV)
	if pub == nil || err != nil {
		return nil, err
	}
	folds := 0
	for _, r := range pub.rows {
		folds = max(folds, r.OuterFold)
	}
	if folds != s.Study.Manifest.Repeats {
		return nil, nil
	}
	keep := &published{study: pub.study}
	for _, m := range pub.models {
		if ks := pub.ranks(m); len(ks) > 0 && !slices.Equal(ks, s.Ranks) {
			continue
		}
		keep.models = append(keep.models, m)
		for _, r := range pub.rows {
			if r.Model == m {
				keep.rows = append(keep.rows, r)
			}
		}
	}
	if len(keep.models) == 0 {
		return nil, nil
	}
	return keep, nil
}

func (nestedCVReport) tables(s *StudySummary, _ PaperValues, add tableAdder) error {
	pub, err := nestedPublished(s)
	if err != nil {
		return err
	}
	folds := s.Study.Manifest.Repeats
	caption := fmt.Sprintf("Per model: the K that %d inner folds chose in each of %d outer folds (the lowest mean inner held-out MSE over K %s; "+
		"\"first\" marks an outer fold whose inner cells failed, scored at the first listed K as upstream does, \"—\" one whose inner folds have not all run), "+
		"and the held-out MSE of that K on the outer fold, mean ± standard error over the outer folds (n counts those with a score).",
		folds, folds, fmtInts(s.Ranks)) + publishedCaption(pub, s,
		"the K their inner loop chose in each outer fold and their outer-fold MSE, where their grid of K is ours")
	if err := add("nested-cv.md", "Nested cross-validation: chosen K and held-out MSE", caption,
		func(b *bytes.Buffer) error { return writeNestedCVTable(b, s, nestedChoices(s), pub) }); err != nil {
		return err
	}
	if pub == nil {
		return nil
	}
	// Beside their numbers, the same choice made and scored as their code
	// makes it: by the held-out MSE of the product of the factors'
	// posterior means, E[W]E[Z], where ours scores the posterior mean of
	// the product, E[WZ] (results/brouwer-lio/findings.md, claim 21).
	return add("nested-cv-of-means.md", "Nested cross-validation scored as Brouwer & Lio's code scores it",
		"As the table above, with every inner and outer cell scored by the held-out MSE of E[W]E[Z], the product of the factors' posterior means, "+
			"with which Brouwer & Lio's code predicts, in place of the posterior mean of the product, E[WZ]; their columns as above. "+
			"The two estimators can choose different K and score differently (results/brouwer-lio/findings.md, claim 21).",
		func(b *bytes.Buffer) error {
			return writeNestedCVTable(b, s, nestedChoicesBy(s, func(x *experiments.Metrics) float64 { return x.TestMSEOfMeans }), pub)
		})
}

// writeNestedCVTable writes a row per model: our chosen K per outer fold
// and outer-fold MSE, then theirs where they have the model.
func writeNestedCVTable(w io.Writer, s *StudySummary, choices []experiments.NestedChoice, pub *published) error {
	t := mdTable{header: []string{"Model", "chosen K", "held-out MSE"}}
	if pub != nil {
		t.header = append(t.header, "chosen K"+blioColumn, "held-out MSE"+blioColumn)
	}
	for _, m := range s.Models {
		var ks []string
		var mses []float64
		for _, c := range choices {
			if c.Model != m {
				continue
			}
			k := rankOrDash(c.Rank)
			if c.Rank != 0 {
				k = fmt.Sprintf("%d", c.Rank)
			}
			if c.Fallback {
				k += " (first)"
			}
			ks = append(ks, k)
			if !math.IsNaN(c.TestMSE) {
				mses = append(mses, c.TestMSE)
			}
		}
		st := newStat(mses)
		cell := fmtMeanSE(st)
		if st.N < s.Study.Manifest.Repeats {
			cell += fmt.Sprintf(" (n=%d/%d)", st.N, s.Study.Manifest.Repeats)
		}
		chosen := strings.Join(ks, ", ")
		if isBaseline(m) {
			chosen = "— (no K)" // its predictions do not depend on K
		}
		row := []string{m, chosen, cell}
		if pub != nil {
			if pub.has(m) {
				row = append(row, theirChosen(pub, m), blioCell(pub.stat(m, func(r *publishedValue) bool {
					return r.Metric == "MSE" && r.OuterFold > 0 && r.Replicate == ""
				})))
			} else {
				row = append(row, "—", "—")
			}
		}
		t.rows = append(t.rows, row)
	}
	return t.render(w)
}

// theirChosen lists the K their inner loop chose in each outer fold, or
// "—" for a model without a choice (a baseline).
func theirChosen(pub *published, model string) string {
	byFold := make(map[int]int)
	folds := 0
	for _, r := range pub.rows {
		if r.Model == model && r.Metric == "chosen_K" {
			byFold[r.OuterFold] = int(r.Value)
			folds = max(folds, r.OuterFold)
		}
	}
	if folds == 0 {
		return "—"
	}
	parts := make([]string, folds)
	for f := range folds {
		parts[f] = "—"
		if k, ok := byFold[f+1]; ok {
			parts[f] = fmt.Sprintf("%d", k)
		}
	}
	return strings.Join(parts, ", ")
}

func (nestedCVReport) findings(s *StudySummary, _ PaperValues) string {
	choices := nestedChoices(s)
	pub, err := nestedPublished(s)
	if err != nil {
		pub = nil // the tables report the error
	}
	var parts []string
	for _, m := range s.Models {
		var mses []float64
		for _, c := range choices {
			if c.Model == m && !math.IsNaN(c.TestMSE) {
				mses = append(mses, c.TestMSE)
			}
		}
		st := newStat(mses)
		if st.N == 0 {
			continue
		}
		p := fmt.Sprintf("%s %s", m, fmtMeanSE(st))
		if pub.has(m) {
			p += fmt.Sprintf(" (Brouwer & Lio: %s)", fmtMeanSE(pub.stat(m, func(r *publishedValue) bool {
				return r.Metric == "MSE" && r.OuterFold > 0 && r.Replicate == ""
			})))
		}
		parts = append(parts, p)
	}
	if len(parts) == 0 {
		return ""
	}
	return "Held-out MSE of the chosen K on the outer folds: " + strings.Join(parts, "; ") + "."
}

func (nestedCVReport) grid(s *StudySummary) string {
	return fmt.Sprintf(", %d outer and %d inner folds", s.Study.Manifest.Repeats, s.Study.Manifest.Repeats)
}
