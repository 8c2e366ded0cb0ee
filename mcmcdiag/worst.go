package mcmcdiag

import "math"

// Worst is the least favourable diagnostic over several quantities: the
// figures to check before trusting a run as a whole. Quantities whose
// value is NaN are left out of each extreme and listed in Undefined.
type Worst struct {
	// RHat is the largest Summary.RHat, and RHatAt the index of its
	// quantity; NaN and -1 when no quantity has one.
	RHat   float64
	RHatAt int
	// ESSBulk is the smallest Summary.ESSBulk, and ESSBulkAt the index of
	// its quantity; NaN and -1 when no quantity has one.
	ESSBulk   float64
	ESSBulkAt int
	// ESSTail is the smallest Summary.ESSTail, and ESSTailAt the index of
	// its quantity; NaN and -1 when no quantity has one.
	ESSTail   float64
	ESSTailAt int
	// Undefined lists, in increasing order, the quantities whose RHat,
	// ESSBulk or ESSTail is NaN: constant draws (often a quantity fixed by
	// construction, sometimes a stuck sampler), non-finite draws, or too
	// few draws. Callers decide which of these are harmless.
	Undefined []int
}

// WorstOf returns the least favourable R-hat, bulk-ESS and tail-ESS among
// the summaries s, with the index of the quantity behind each.
func WorstOf(s []Summary) Worst {
	w := Worst{
		RHat: math.NaN(), RHatAt: -1,
		ESSBulk: math.NaN(), ESSBulkAt: -1,
		ESSTail: math.NaN(), ESSTailAt: -1,
	}
	for i, q := range s {
		if !math.IsNaN(q.RHat) && (w.RHatAt < 0 || q.RHat > w.RHat) {
			w.RHat, w.RHatAt = q.RHat, i
		}
		if !math.IsNaN(q.ESSBulk) && (w.ESSBulkAt < 0 || q.ESSBulk < w.ESSBulk) {
			w.ESSBulk, w.ESSBulkAt = q.ESSBulk, i
		}
		if !math.IsNaN(q.ESSTail) && (w.ESSTailAt < 0 || q.ESSTail < w.ESSTail) {
			w.ESSTail, w.ESSTailAt = q.ESSTail, i
		}
		if math.IsNaN(q.RHat) || math.IsNaN(q.ESSBulk) || math.IsNaN(q.ESSTail) {
			w.Undefined = append(w.Undefined, i)
		}
	}
	return w
}

// SummarizeAll summarises several quantities, quantities[k] holding the
// chains x iterations draws of quantity k, and returns each Summary with
// the Worst of them. Quantities may differ in shape; each must be valid
// input to Summarize, which panics otherwise.
func SummarizeAll(quantities [][][]float64) ([]Summary, Worst) {
	return new(Workspace).SummarizeAll(quantities)
}

// SummarizeAll is the package-level SummarizeAll using w's buffers.
func (w *Workspace) SummarizeAll(quantities [][][]float64) ([]Summary, Worst) {
	s := make([]Summary, len(quantities))
	for k, q := range quantities {
		s[k] = w.Summarize(q)
	}
	return s, WorstOf(s)
}
