package main

import "strconv"

// defaultMinObserved is the default of predict --min-observed: a column
// needs this many observed entries in the data file to be ranked by
// --top. A column rated once or twice has a factor that its ratings pin
// down in one or two of the K directions only; in the others its
// posterior is its prior, whose spread lets its predictions rise far
// above any rating (bnmf's TestSparseColumnPosterior checks that this is
// the posterior, not a sampler's fault).
const defaultMinObserved = 10

// columnCounts returns the number of observed entries of every column.
func (m *fittedModel) columnCounts() []int32 {
	counts := make([]int32, m.Cols)
	for _, j := range m.ObservedCol {
		counts[j]++
	}
	return counts
}

// rangeFlag says where a predictive mean lies relative to the training
// values' range: "above" their largest, "below" their smallest, else
// "in"; "" for a model file that does not record the range.
func (m *fittedModel) rangeFlag(mean float64) string {
	if len(m.TrainRange) != 2 {
		return ""
	}
	switch {
	case mean > m.TrainRange[1]:
		return "above"
	case mean < m.TrainRange[0]:
		return "below"
	}
	return "in"
}

// minObservedUsage is predict --min-observed's help.
var minObservedUsage = "with --top, rank only columns with at least `N` observed entries in the data file (default " +
	strconv.Itoa(defaultMinObserved) + "; 0 or 1 ranks every column)"
