package posterior

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/bnmf-lab/bnmf/bnmf"
)

func TestStoredDraws(t *testing.T) {
	tests := []struct {
		chains, kept, max int
		want              []int
	}{
		{4, 100, 100, []int{3, 7, 11}}, // 25 per chain, every fourth: the first three shown
		{2, 20, 100, []int{0, 1, 2}},   // all 20 kept draws
		{3, 10, 6, []int{4, 9}},        // 2 per chain, ending at the last
		{1, 5, 1, []int{4}},
	}
	for _, tt := range tests {
		c := NewCollector(2, 2, 1, tt.chains, tt.kept, tt.max)
		if per := min(tt.kept, tt.max/tt.chains); len(c.store) != per || !slices.Equal(c.store[:len(tt.want)], tt.want) || c.store[len(c.store)-1] != tt.kept-1 {
			t.Errorf("%d chains of %d kept, at most %d: stored %v, want %d starting %v and ending at %d", tt.chains, tt.kept, tt.max, c.store, per, tt.want, tt.kept-1)
		}
	}
}

// TestPoolMatchesPermutedChains feeds two chains whose draws are the same
// up to a permutation of the factors: pooling must match them back, so
// that the pooled means are chain 0's and the standard deviations those
// within one chain, with no spread between chains.
func TestPoolMatchesPermutedChains(t *testing.T) {
	const m, n, k, kept = 7, 5, 3, 6
	perm := []int{2, 0, 1} // chain 0's factor f is chain 1's factor perm[f]
	rng := rand.New(rand.NewPCG(1, 1))
	c := NewCollector(m, n, k, 2, kept, 100)
	// Distinct factors: factor f has entries near f+1.
	var direct [][]float64
	for s := range kept {
		w := make([]float64, m*k)
		zt := make([]float64, n*k)
		for i := range w {
			w[i] = float64(i%k+1) + 0.1*rng.Float64()
		}
		for i := range zt {
			zt[i] = float64(i%k+1)*rng.Float64() + float64(i)
		}
		direct = append(direct, slices.Clone(w))
		if err := c.RecordDraw(bnmf.Draw{Chain: 0, Sweep: s, W: w, Zt: zt, Sigma2: 1}); err != nil {
			t.Fatal(err)
		}
		pw, pz := slices.Clone(w), slices.Clone(zt)
		inv := make([]int, k)
		for j, f := range perm {
			inv[f] = j
		}
		permuteColumns(pw, inv, k)
		permuteColumns(pz, inv, k)
		if err := c.RecordDraw(bnmf.Draw{Chain: 1, Sweep: s, W: pw, Zt: pz, Sigma2: 2}); err != nil {
			t.Fatal(err)
		}
	}
	post := c.Pool()
	if !slices.Equal(post.Permutations[1], perm) {
		t.Fatalf("chain 1 matched by %v, want %v", post.Permutations[1], perm)
	}
	for i := range m * k {
		var mean, ss float64
		for _, w := range direct {
			mean += w[i] / kept
		}
		for _, w := range direct {
			ss += (w[i] - mean) * (w[i] - mean)
		}
		// Welford's running moments against the two-pass ones: equal to
		// 1e-12.
		if math.Abs(post.MeanW[i]-mean) > 1e-12*mean || math.Abs(post.SDW[i]-math.Sqrt(ss/kept)) > 1e-12 {
			t.Fatalf("W entry %d: mean %v, sd %v; want %v, %v", i, post.MeanW[i], post.SDW[i], mean, math.Sqrt(ss/kept))
		}
	}
	for s := range kept {
		if !slices.Equal(post.SamplesW[kept+s], post.SamplesW[s]) {
			t.Fatalf("stored sample %d of chain 1 is not chain 0's after matching", s)
		}
	}
	if len(post.Sigma2) != 2*kept || post.Sigma2[0] != 1 || post.Sigma2[kept] != 2 {
		t.Errorf("sigma^2 draws %v", post.Sigma2)
	}
	if err := c.RecordDraw(bnmf.Draw{Chain: 2, W: make([]float64, m*k), Zt: make([]float64, n*k)}); err == nil {
		t.Error("a draw of an unknown chain was accepted")
	}
}
