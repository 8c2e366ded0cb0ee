package mcmcdiag

import (
	"fmt"
	"testing"
)

func BenchmarkSummarize(b *testing.B) {
	for _, n := range []int{100, 1000} {
		chains := ar1Chains(newRand(81), 4, n, 0.5, nil)
		b.Run(fmt.Sprintf("4x%d/fresh", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Summarize(chains)
			}
		})
		b.Run(fmt.Sprintf("4x%d/workspace", n), func(b *testing.B) {
			var w Workspace
			w.Summarize(chains)
			b.ReportAllocs()
			for b.Loop() {
				w.Summarize(chains)
			}
		})
	}
}
