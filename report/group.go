package report

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/bnmf-lab/bnmf/experiments"
)

// groupBuilder collects the records of one group.
type groupBuilder struct {
	key      Key
	expected []int // repeats the manifest lists
	found    map[int]bool
	failed   int
	notes    []repeatNote

	train, test, varOver, varOverClean, seconds []float64
	testClean, dataVar, cleanVar                []float64
	traces                                      [][]float64
	// testByRepeat and cleanByRepeat hold the held-out MSE against the
	// test values and against the clean ones by repeat, for skill scores
	// paired by repeat.
	testByRepeat, cleanByRepeat map[int]float64
	// scores are the records' predictive scores, where they have them.
	scores []*experiments.Predictive
}

// repeatNote is a warning about one repeat.
type repeatNote struct {
	repeat int
	text   string
}

// add files a record under the group. Failed records count but give no
// numbers.
// heldOut says whether the study's cells have a test set.
func (b *groupBuilder) add(r experiments.Record, heldOut bool) {
	b.found[r.Cell.Repeat] = true
	if r.Error != "" {
		b.failed++
		b.notes = append(b.notes, repeatNote{r.Cell.Repeat, fmt.Sprintf("repeat %d failed: %s", r.Cell.Repeat, oneLine(r.Error))})
	}
	for _, w := range r.Warnings {
		b.notes = append(b.notes, repeatNote{r.Cell.Repeat, fmt.Sprintf("repeat %d: %s", r.Cell.Repeat, oneLine(w))})
	}
	if r.Error != "" {
		return
	}
	mt := r.Metrics
	b.train = append(b.train, mt.TrainMSE)
	if heldOut {
		b.test = append(b.test, mt.TestMSE)
		setRepeat(&b.testByRepeat, r.Cell.Repeat, mt.TestMSE)
	}
	// The noise metrics are omitted (zero) when not computed.
	if mt.VarOverMSE != 0 {
		b.varOver = append(b.varOver, mt.VarOverMSE)
	}
	if mt.VarOverMSEClean != 0 {
		b.varOverClean = append(b.varOverClean, mt.VarOverMSEClean)
	}
	if mt.TestMSEClean != 0 {
		b.testClean = append(b.testClean, mt.TestMSEClean)
		setRepeat(&b.cleanByRepeat, r.Cell.Repeat, mt.TestMSEClean)
	}
	if mt.DataVariance != 0 {
		b.dataVar = append(b.dataVar, mt.DataVariance)
	}
	if mt.VarOverMSEClean != 0 && mt.TestMSEClean != 0 {
		// The variance of the clean training values, which the record
		// keeps only as this product's first factor.
		b.cleanVar = append(b.cleanVar, mt.VarOverMSEClean*mt.TestMSEClean)
	}
	b.seconds = append(b.seconds, mt.SecondsPerSweep)
	b.traces = append(b.traces, r.Trace.TrainMSE)
	if r.Predictive != nil {
		b.scores = append(b.scores, r.Predictive)
	}
}

// build computes the group's statistics and warnings.
func (b *groupBuilder) build() Group {
	g := Group{
		Key:             b.key,
		Expected:        len(b.expected),
		Found:           len(b.found),
		Failed:          b.failed,
		TrainMSE:        newStat(b.train),
		TestMSE:         newStat(b.test),
		VarOverMSE:      newStat(b.varOver),
		VarOverMSEClean: newStat(b.varOverClean),
		SecondsPerSweep: newStat(b.seconds),
		TestMSEClean:    newStat(b.testClean),
		DataVariance:    newStat(b.dataVar),
		CleanVariance:   newStat(b.cleanVar),
		Trace:           newTraceStats(b.traces),
		testByRepeat:    b.testByRepeat,
		cleanByRepeat:   b.cleanByRepeat,
		Predictive:      newPredictiveStats(b.scores),
	}
	for _, r := range b.expected {
		if !b.found[r] {
			g.Missing = append(g.Missing, r)
		}
	}
	slices.Sort(g.Missing)
	// By repeat, so the order does not depend on the order of the records.
	slices.SortStableFunc(b.notes, func(x, y repeatNote) int { return x.repeat - y.repeat })
	for _, n := range b.notes {
		g.Warnings = append(g.Warnings, n.text)
	}
	for _, v := range []struct {
		name string
		s    Stat
	}{
		{"train MSE", g.TrainMSE}, {"held-out MSE", g.TestMSE},
		{"var(data)/MSE", g.VarOverMSE}, {"var(data)/MSE (clean)", g.VarOverMSEClean},
		{"seconds per sweep", g.SecondsPerSweep},
	} {
		if v.s.NonFinite > 0 {
			g.Warnings = append(g.Warnings, nonFiniteNote(v.s.NonFinite, v.name+" "))
		}
	}
	if g.Trace.NonFinite > 0 {
		g.Warnings = append(g.Warnings, nonFiniteNote(g.Trace.NonFinite, "train MSE trace "))
	}
	return g
}

// setRepeat sets (*m)[repeat] = x, making the map if need be.
func setRepeat(m *map[int]float64, repeat int, x float64) {
	if *m == nil {
		*m = make(map[int]float64)
	}
	(*m)[repeat] = x
}

// nonFiniteNote says that n values of a metric ("held-out MSE ", or "" for
// the metric of a table cell) were left out as non-finite.
func nonFiniteNote(n int, metric string) string {
	return fmt.Sprintf("%d non-finite %s%s left out", n, metric, plural(n, "value", "values"))
}

// isNonFiniteNote reports whether a group warning is a nonFiniteNote.
func isNonFiniteNote(w string) bool {
	return strings.Contains(w, " non-finite ") && strings.HasSuffix(w, " left out")
}

// repeatList writes repeats as "0, 2-5, 9".
func repeatList(rs []int) string {
	var parts []string
	for i := 0; i < len(rs); {
		j := i
		for j+1 < len(rs) && rs[j+1] == rs[j]+1 {
			j++
		}
		if j == i {
			parts = append(parts, strconv.Itoa(rs[i]))
		} else {
			parts = append(parts, fmt.Sprintf("%d–%d", rs[i], rs[j]))
		}
		i = j + 1
	}
	return "repeat " + strings.Join(parts, ", ")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// oneLine folds a message onto one line so it cannot break a table or a
// list item.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
