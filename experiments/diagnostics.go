package experiments

import (
	"fmt"
	"math/rand/v2"
	"slices"
)

// trackedEntries is how many held-out entries a cell tracks for the
// diagnostics of its predictions.
const trackedEntries = 20

// TrackedSource returns the random source that picks the held-out entries
// a cell tracks: a ChaCha8 stream keyed by the digest of
// "bnmf/tracked/v1 base=<base> fraction=<f> repeat=<i>", so that every
// model and rank at a split tracks the same entries.
func TrackedSource(base uint64, f float64, repeat int) rand.Source {
	return rand.NewChaCha8(digest(fmt.Sprintf("bnmf/tracked/v1 base=%d fraction=%s repeat=%d",
		base, formatFloat(f), repeat)))
}

// trackedIndices draws up to trackedEntries distinct indices into a test
// set of n entries, in increasing order.
func trackedIndices(src rand.Source, n int) []int {
	if n <= trackedEntries {
		idx := make([]int, n)
		for i := range idx {
			idx[i] = i
		}
		return idx
	}
	perm := rand.New(src).Perm(n)[:trackedEntries]
	out := make([]int, trackedEntries)
	copy(out, perm)
	slices.Sort(out)
	return out
}
