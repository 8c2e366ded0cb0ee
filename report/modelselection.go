package report

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"strings"
)

// modelSelectionReport is the report of a model-selection study (Brouwer
// & Lio's Fig. 2 and their model_selection results): held-out MSE over
// the folds against K, beside theirs.
type modelSelectionReport struct{}

// blioModelSelection is upstream's name of the study.
const blioModelSelection = "model_selection"

func (modelSelectionReport) figure(s *StudySummary, pal Palette) (*Figure, string, error) {
	f, err := rankFigure(s, pal, "held-out MSE against K", "held-out MSE", 0,
		func(g *Group) Stat { return g.TestMSE }, "Points: mean over the folds; bars: ± one standard error.")
	return f, "model-selection.png", err
}

func (modelSelectionReport) tables(s *StudySummary, _ PaperValues, add tableAdder) error {
	pub, err := publishedFor(s, blioModelSelection)
	if err != nil {
		return err
	}
	pub = pub.sameFolds(s.Study.Manifest.Repeats)
	caption := fmt.Sprintf("Mean ± standard error over the %d folds of one partition of the observed entries (every rank and model on the same folds); the lowest per model in bold (none for the baselines, whose predictions do not depend on K).",
		s.Study.Manifest.Repeats) + publishedCaption(pub, s,
		"their mean ± standard error over their folds (a fresh partition for each K), at the same K")
	return add("model-selection.md", "Held-out MSE against K (model selection)", caption,
		func(b *bytes.Buffer) error { return writeModelSelectionTable(b, s, pub) })
}

// sameFolds returns p when its numbers come from as many folds as the
// study has, else nil: their columns stand only beside the same protocol.
func (p *published) sameFolds(folds int) *published {
	if p == nil {
		return nil
	}
	n := 0
	for _, m := range p.models {
		for _, k := range p.ranks(m) {
			n = max(n, p.stat(m, func(r *publishedValue) bool { return r.Metric == "MSE" && r.SettingValue == float64(k) }).N)
		}
	}
	if n != folds {
		return nil
	}
	return p
}

// ranks returns the values of K at which p has model's numbers, in the
// order of the table.
func (p *published) ranks(model string) []int {
	var ks []int
	for _, r := range p.rows {
		if r.Model == model && r.Setting == "K" && !math.IsNaN(r.SettingValue) {
			ks = append(ks, int(r.SettingValue))
		}
	}
	return sortedUnique(ks)
}

// publishedCaption says where the "(Brouwer & Lio)" columns come from and
// what they hold, or that there are none and why.
func publishedCaption(p *published, s *StudySummary, what string) string {
	if p == nil {
		return " No \"(Brouwer & Lio)\" columns: their published table has no numbers of this study on " + s.Study.Manifest.Dataset +
			" for these models with these settings (or is not beside the study directories)."
	}
	return fmt.Sprintf(" \"(Brouwer & Lio)\" columns (%s, for %s): %s, from their repository's result files (results/brouwer-lio/published.csv.gz); \"—\" where they have none. Their data are cast to integers (see the README's Data section).",
		p.study, strings.Join(p.models, ", "), what)
}

// writeModelSelectionTable writes a row per rank and, per model, our
// held-out MSE and, for a model in their table, theirs beside it; a last
// row names the K with the lowest mean.
func writeModelSelectionTable(w io.Writer, s *StudySummary, pub *published) error {
	t := mdTable{header: []string{"K"}}
	for _, m := range s.Models {
		t.header = append(t.header, m)
		if pub.has(m) {
			t.header = append(t.header, m+blioColumn)
		}
	}
	theirs := func(m string, k int) Stat {
		return pub.stat(m, func(r *publishedValue) bool {
			return r.Metric == "MSE" && r.Setting == "K" && r.SettingValue == float64(k)
		})
	}
	bestOurs := make(map[string]int)
	bestTheirs := make(map[string]int)
	for _, m := range s.Models {
		if !isBaseline(m) { // a baseline's predictions do not depend on K
			bestOurs[m] = argminRank(s.Ranks, func(k int) Stat {
				return groupStat(s, Key{Model: m, Rank: k}, func(g *Group) Stat { return g.TestMSE })
			})
		}
		bestTheirs[m] = argminRank(s.Ranks, func(k int) Stat { return theirs(m, k) })
	}
	for _, k := range s.Ranks {
		row := []string{fmt.Sprintf("K = %d", k)}
		for _, m := range s.Models {
			g := s.Group(Key{Model: m, Rank: k})
			var st Stat
			if g != nil {
				st = g.TestMSE
			}
			row = append(row, statCell(g, st, bestOurs[m] == k, &t.notes))
			if pub.has(m) {
				c := blioCell(theirs(m, k))
				if bestTheirs[m] == k {
					c = "**" + c + "**"
				}
				row = append(row, c)
			}
		}
		t.rows = append(t.rows, row)
	}
	row := []string{"lowest at"}
	for _, m := range s.Models {
		row = append(row, rankOrDash(bestOurs[m]))
		if pub.has(m) {
			row = append(row, rankOrDash(bestTheirs[m]))
		}
	}
	t.rows = append(t.rows, row)
	return t.render(w)
}

// groupStat returns metric of k's group, or an empty Stat when the study
// has none.
func groupStat(s *StudySummary, k Key, metric func(*Group) Stat) Stat {
	if g := s.Group(k); g != nil {
		return metric(g)
	}
	return Stat{}
}

// argminRank returns the rank of ranks whose statistic has the lowest
// finite mean (the first on a tie), or 0 when none has one.
func argminRank(ranks []int, stat func(k int) Stat) int {
	best, at := math.Inf(1), 0
	for _, k := range ranks {
		if st := stat(k); st.N > 0 && isFinite(st.Mean) && st.Mean < best {
			best, at = st.Mean, k
		}
	}
	return at
}

// rankOrDash formats a rank, or "—" for 0 (none).
func rankOrDash(k int) string {
	if k == 0 {
		return "—"
	}
	return fmt.Sprintf("K = %d", k)
}

func (modelSelectionReport) findings(s *StudySummary, _ PaperValues) string {
	pub, err := publishedFor(s, blioModelSelection)
	if err != nil {
		pub = nil // the tables report the error
	}
	pub = pub.sameFolds(s.Study.Manifest.Repeats)
	var parts []string
	for _, m := range s.Models {
		k := argminRank(s.Ranks, func(k int) Stat {
			return groupStat(s, Key{Model: m, Rank: k}, func(g *Group) Stat { return g.TestMSE })
		})
		if k == 0 || isBaseline(m) {
			continue
		}
		p := fmt.Sprintf("%s at K = %d (%s)", m, k, fmtMeanSE(groupStat(s, Key{Model: m, Rank: k}, func(g *Group) Stat { return g.TestMSE })))
		if pub.has(m) {
			theirs := argminRank(s.Ranks, func(k int) Stat {
				return pub.stat(m, func(r *publishedValue) bool {
					return r.Metric == "MSE" && r.Setting == "K" && r.SettingValue == float64(k)
				})
			})
			p += fmt.Sprintf("; Brouwer & Lio's lowest at %s", rankOrDash(theirs))
		}
		parts = append(parts, p)
	}
	if len(parts) == 0 {
		return ""
	}
	return "Lowest mean held-out MSE over the folds: " + strings.Join(parts, "; ") + "."
}

func (modelSelectionReport) grid(s *StudySummary) string {
	return fmt.Sprintf(", %d folds", s.Study.Manifest.Repeats)
}

// rankFigure draws metric against K, one line per model (mean ± one
// standard error over the groups' repeats) over the groups of inner fold
// fold (0 outside nested cross-validation). It returns ErrNoData if no
// group has a value.
func rankFigure(s *StudySummary, pal Palette, what, yLabel string, fold int, metric func(*Group) Stat, note string) (*Figure, error) {
	inFold := func(g *Group) Stat {
		if g.Fold != fold {
			return Stat{}
		}
		return metric(g)
	}
	ys, ok := figureScale(s, inFold, sparsityCapRatio)
	if !ok {
		return nil, ErrNoData
	}
	xs := make([]float64, len(s.Ranks))
	for i, k := range s.Ranks {
		xs[i] = float64(k)
	}
	var pts []statSeries
	for _, m := range s.Models {
		ss := statSeries{model: m}
		for _, k := range s.Ranks {
			if g := s.Group(Key{Model: m, Rank: k, Fold: fold}); g != nil {
				ss.add(float64(k), g, metric(g))
			}
		}
		pts = append(pts, ss)
	}
	p := newPanel(upperFirst(what)+countLabel(groupsOf(pts), func(g *Group) int { return metric(g).N }), "K", yLabel, ys)
	p.X.Tick.Marker = valueTicks(xs, func(x float64) string { return fmt.Sprintf("%d", int(x)) })
	padX(p, xs)
	panel, cl, err := drawStatSeries(p, pts, pal, ys, minGap(xs))
	if err != nil {
		return nil, err
	}
	f := &Figure{Title: figureTitle(s, what), Cols: 1, Panels: []Panel{panel}}
	f.Legend = legendFor(drawnModels(f.Panels, s.Models), pal, false, true)
	f.Note = note + cl.note("Bars")
	return f, nil
}
