package regression

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

const (
	// k1Claim is the claim's number on the findings page.
	k1Claim = 20
	// k1Study is the model selection on MovieLens 100K.
	k1Study = "blio-ml100k-model-selection"
	// k1Signs and k1SignsLong are the committed outputs of
	// scripts/blio-k1-signs: ten starts of every K = 1 cell of seven
	// real-valued models, and the four far-off cells run to 20,000
	// sweeps.
	k1Signs     = "../results/brouwer-lio/k1-signs.csv"
	k1SignsLong = "../results/brouwer-lio/k1-signs-long.csv"
	// k1Folds is the number of folds, ours and theirs.
	k1Folds = 10
	// k1Users and k1Films are the rows and columns of MovieLens 100K.
	k1Users, k1Films = 943, 1473
)

// k1Bayesian are the Bayesian models of the study's records, whose K = 1
// cells the claim covers.
var k1Bayesian = []string{"GEE", "GTT", "GTTN", "GEEA", "GEG", "GGGU", "GLL", "GLLI", "GRRN"}

// k1Rerun are the models of k1-signs.csv with their number of split
// chains as the page states it, in the page's order.
var k1Rerun = []struct {
	model string
	split int
}{{"GGGU", 7}, {"GLLI", 8}, {"GGG", 4}, {"GGGA", 3}, {"GLL", 0}, {"GGGW", 0}, {"GL21", 0}}

// k1Chain is one row of k1-signs.csv: one chain of a K = 1 cell.
type k1Chain struct {
	model                string
	fold, start, sweeps  int
	trainMSE, testMSE    float64
	stored               string // the record's held-out MSE as printed, for start 0 of a stored cell
	testMSEText          string // the held-out MSE as printed
	meanWNeg, meanZNeg   int
	meanNegShare         float64
	minorUsers, minorFlm int // the rows and columns of the posterior means' less common sign
}

// split reports whether the chain's posterior means predict a share of
// the training ratings below zero; the test checks that every chain
// predicts either none or more than a tenth.
func (c k1Chain) split() bool { return c.meanNegShare > 0 }

// readK1Signs reads a CSV written by scripts/blio-k1-signs, skipping its
// comment lines.
func readK1Signs(t *testing.T, path string) []k1Chain {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.Comment = '#'
	head, err := r.Read()
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	col := make(map[string]int, len(head))
	for i, h := range head {
		col[h] = i
	}
	var out []k1Chain
	for line := 2; ; line++ {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		field := func(name string) string {
			i, ok := col[name]
			if !ok {
				t.Fatalf("%s: no column %q", path, name)
			}
			return rec[i]
		}
		num := func(name string) float64 {
			v, err := strconv.ParseFloat(field(name), 64)
			if err != nil {
				t.Fatalf("%s, row %d: %s: %v", path, line, name, err)
			}
			return v
		}
		integer := func(name string) int {
			v, err := strconv.Atoi(field(name))
			if err != nil {
				t.Fatalf("%s, row %d: %s: %v", path, line, name, err)
			}
			return v
		}
		c := k1Chain{
			model: field("model"), fold: integer("fold"), start: integer("start"), sweeps: integer("sweeps"),
			trainMSE: num("train_mse"), testMSE: num("test_mse"), testMSEText: field("test_mse"), stored: field("stored_test_mse"),
			meanWNeg: integer("mean_w_neg"), meanZNeg: integer("mean_z_neg"),
			meanNegShare: num("mean_train_neg_share"),
		}
		c.minorUsers, c.minorFlm = min(c.meanWNeg, k1Users-c.meanWNeg), min(c.meanZNeg, k1Films-c.meanZNeg)
		out = append(out, c)
	}
}

// k1Span accumulates the smallest and largest of some values.
type k1Span struct{ lo, hi float64 }

func newK1Span() k1Span { return k1Span{math.Inf(1), math.Inf(-1)} }

func (s *k1Span) add(x float64) { s.lo, s.hi = math.Min(s.lo, x), math.Max(s.hi, x) }

// text prints the span as the page does, "lo to hi", with digits after
// the point.
func (s k1Span) text(digits int) string {
	return fmt.Sprintf("%.*f to %.*f", digits, s.lo, digits, s.hi)
}

// pct prints the span of shares as percentages with one digit after the
// point, "lo% to hi%".
func (s k1Span) pct() string { return fmt.Sprintf("%.1f%% to %.1f%%", 100*s.lo, 100*s.hi) }

// clopperPearson returns the exact 95% interval of a binomial rate from
// k successes in n trials.
func clopperPearson(k, n int) (lo, hi float64) {
	if k > 0 {
		lo = distuv.Beta{Alpha: float64(k), Beta: float64(n - k + 1)}.Quantile(0.025)
	}
	hi = 1
	if k < n {
		hi = distuv.Beta{Alpha: float64(k + 1), Beta: float64(n - k)}.Quantile(0.975)
	}
	return lo, hi
}

// k1At returns xs[i], or "?" when xs is shorter, so that a missing
// value shows as a mismatch on the page rather than a panic.
func k1At(xs []string, i int) string {
	if i < len(xs) {
		return xs[i]
	}
	return "?"
}
