package predictive

import (
	"fmt"
	"testing"
)

// BenchmarkAdd measures one Add over 1e5 entries (the MovieLens 100K test
// set at 98% unobserved has about that many), with one and two targets.
func BenchmarkAdd(b *testing.B) {
	const n, samples = 100000, 100
	p := simulate(n, samples, 0.5, 0.5, 1)
	for _, nt := range []int{1, 2} {
		b.Run(fmt.Sprintf("entries=%d/targets=%d", n, nt), func(b *testing.B) {
			targets := make([][]float64, nt)
			for i := range targets {
				targets[i] = p.draw(uint64(i))
			}
			s := Settings{Samples: samples}
			acc, err := New(targets, s)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if acc.Count() == samples {
					b.StopTimer()
					if acc, err = New(targets, s); err != nil {
						b.Fatal(err)
					}
					b.StartTimer()
				}
				if err := acc.Add(p.mu[i%samples], p.sigma2[i%samples]); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}

// BenchmarkFinish measures Finish over 1e5 entries after 100 samples, with
// buffers of 10, 20 (the default), 50 and 100 samples (exact).
func BenchmarkFinish(b *testing.B) {
	const n, samples = 100000, 100
	p := simulate(n, samples, 0.5, 0.5, 1)
	y := [][]float64{p.draw(2)}
	for _, buffer := range []int{10, 20, 50, 100} {
		b.Run(fmt.Sprintf("entries=%d/S=%d/B=%d", n, samples, buffer), func(b *testing.B) {
			acc := accumulate(b, p, 0, samples, y, Settings{Samples: samples, Buffer: buffer})
			b.ReportAllocs()
			for b.Loop() {
				if _, err := acc.Finish(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
