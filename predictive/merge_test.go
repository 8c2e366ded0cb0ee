package predictive

import (
	"testing"

	"gonum.org/v1/gonum/floats/scalar"
)

// TestMergeMatchesSingle pools three chains of unequal lengths with Merge
// and checks the result against the direct computation over all samples
// (each part keeps all its samples, so the pool is exact), and that merging
// is reproducible bit for bit and that Finish does not depend on Workers.
func TestMergeMatchesSingle(t *testing.T) {
	p := simulate(300, 45, 0.6, 0.7, 9)
	targets := [][]float64{p.draw(1), p.draw(2)}
	bounds := []int{0, 20, 35, 45}
	var parts []*Accumulator
	for i := 1; i < len(bounds); i++ {
		lo, hi := bounds[i-1], bounds[i]
		parts = append(parts, accumulate(t, p, lo, hi, targets, Settings{Samples: hi - lo, Buffer: 64, Tol: searchTol}))
	}
	merged, err := Merge(parts...)
	if err != nil {
		t.Fatal(err)
	}
	res := finish(t, merged)
	if res.Samples != 45 || res.Buffered != 45 {
		t.Fatalf("merged %d samples, %d buffered; want 45 and 45", res.Samples, res.Buffered)
	}
	checkAgainstDirect(t, res, p, 0, 45, targets)

	again, err := Merge(parts...)
	if err != nil {
		t.Fatal(err)
	}
	again.workers = 3
	same(t, res, finish(t, again))
	// Another order changes only the rounding of the sums.
	reversed, err := Merge(parts[2], parts[0], parts[1])
	if err != nil {
		t.Fatal(err)
	}
	checkAgainstDirect(t, finish(t, reversed), p, 0, 45, targets)
	if err := again.Add(p.mu[0], 1); err == nil {
		t.Error("Add on a merged accumulator succeeded")
	}
}

// TestMergeProxy pools two chains that each keep 10 of 50 samples and
// compares the pool with the exact result over all 100: the exact
// quantities must agree to rounding, and the proxy's within the bounds
// TestProxyAccuracy allows a single accumulator keeping 20 of 100.
func TestMergeProxy(t *testing.T) {
	const n, samples = 2000, 100
	p := simulate(n, samples, 0.5, 0.5, 41)
	y := [][]float64{p.draw(42)}
	exact := finish(t, accumulate(t, p, 0, samples, y, Settings{Samples: samples, Buffer: samples}))
	a := accumulate(t, p, 0, 50, y, Settings{Samples: 50, Buffer: 10})
	b := accumulate(t, p, 50, 100, y, Settings{Samples: 50, Buffer: 10})
	pooled, err := Merge(a, b)
	if err != nil {
		t.Fatal(err)
	}
	res := finish(t, pooled)
	if res.Buffered != 20 || res.Samples != samples {
		t.Fatalf("pool of %d samples keeps %d; want 100 and 20", res.Samples, res.Buffered)
	}
	for k := range n {
		if !scalar.EqualWithinAbs(res.Scores[0].PIT[k], exact.Scores[0].PIT[k], 1e-15) ||
			!scalar.EqualWithinRel(res.Scores[0].LogDensity[k], exact.Scores[0].LogDensity[k], 1e-14) ||
			!scalar.EqualWithinRel(res.Variance[k], exact.Variance[k], 1e-13) {
			t.Fatalf("entry %d: PIT, log density or variance of the pool differ from the exact ones", k)
		}
	}
	e := compareProxy(exact, res)
	t.Logf("CRPS relative error per entry: mean %.2e, max %.2e; 0.95 width: mean %.2e, max %.2e", e.crpsMeanRel, e.crpsMaxRel, e.widthMeanRel, e.widthMaxRel)
	if !(e.crpsMeanRel <= 6e-4 && e.crpsMaxRel <= 1.3e-2 && e.widthMeanRel <= 9e-4 && e.widthMaxRel <= 2e-2) {
		t.Errorf("pooled proxy errors above those allowed for one accumulator keeping 20 of 100")
	}
}
