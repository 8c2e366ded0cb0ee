package posterior

import (
	"math"
	"math/rand/v2"
	"testing"
)

// permutations calls f with every permutation of 0..n-1.
func permutations(n int, f func([]int)) {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	var rec func(int)
	rec = func(k int) {
		if k == n {
			f(p)
			return
		}
		for i := k; i < n; i++ {
			p[k], p[i] = p[i], p[k]
			rec(k + 1)
			p[k], p[i] = p[i], p[k]
		}
	}
	rec(0)
}

func TestAssignment(t *testing.T) {
	// A known answer: the cheapest assignment is 0->1, 1->0, 2->2 (cost 1+2+2).
	if p := assignment([]float64{4, 1, 3, 2, 0, 5, 3, 2, 2}, 3); p[0] != 1 || p[1] != 0 || p[2] != 2 {
		t.Errorf("assignment = %v, want [1 0 2]", p)
	}
	// Against brute force on random matrices, with ties (small integers)
	// and without.
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 200 {
		n := 1 + trial%6
		cost := make([]float64, n*n)
		for i := range cost {
			if trial%2 == 0 {
				cost[i] = float64(rng.IntN(4))
			} else {
				cost[i] = rng.NormFloat64()
			}
		}
		total := func(p []int) float64 {
			var s float64
			for i, j := range p {
				s += cost[i*n+j]
			}
			return s
		}
		best := math.Inf(1)
		permutations(n, func(p []int) { best = math.Min(best, total(p)) })
		p := assignment(cost, n)
		seen := make([]bool, n)
		for _, j := range p {
			if seen[j] {
				t.Fatalf("trial %d: %v is not a permutation", trial, p)
			}
			seen[j] = true
		}
		// Sums of the same few numbers in another order: equal to 1e-12.
		if got := total(p); math.Abs(got-best) > 1e-12 {
			t.Errorf("trial %d (n=%d): cost %v, brute force %v", trial, n, got, best)
		}
	}
}
