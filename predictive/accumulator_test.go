package predictive

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"
)

// Tolerances of the comparisons between Accumulator (tabulated Phi and phi,
// sums in another order) and Mixture (math.Erfc and math.Exp).
const (
	// tolPIT: each Phi is within 2e-15 of math.Erfc's (TestNormalTable).
	tolPIT = 1e-14
	// tolLogDensity: relative; both are log-sum-exps of the same terms
	// summed in different orders, a few ulps each.
	tolLogDensity = 1e-13
	// tolCRPS: the table's phi is within 3e-13 of exp's, entering with
	// factor 2 sd (sd about 1 here) and summed with weights totalling 1.5.
	tolCRPS = 2e-12
	// tolQuantile, in predictive standard deviations: both searches run
	// with the tolerance searchTol, stopping when Newton's error estimate
	// is below 1e-11 sd, and allowed 10 times that each; the CDFs differ
	// by 1e-14, moving the root by under 1e-13 sd.
	tolQuantile = 2e-10
	searchTol   = 1e-11
)

// TestStreamingMatchesDirect checks every per-entry result and mean of an
// Accumulator that keeps all samples against the direct computation by
// Mixture from the same samples.
func TestStreamingMatchesDirect(t *testing.T) {
	cases := []struct {
		name             string
		entries, samples int
		rho, spread      float64
		buffer           int
	}{
		{"one-sample", 50, 1, 0, 0.5, 0},
		{"buffer-default", 200, 20, 0.5, 0.5, 0},
		{"buffer-above-samples", 100, 30, 0.9, 1, 64},
		{"wide-spread", 100, 12, 0, 5, 12},
		{"identical-predictions", 20, 10, 0, 0, 10},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := simulate(c.entries, c.samples, c.rho, c.spread, 3)
			targets := [][]float64{p.draw(5), p.draw(6)}
			res := finish(t, accumulate(t, p, 0, c.samples, targets, Settings{Samples: c.samples, Buffer: c.buffer, Tol: searchTol}))
			if res.Buffered != c.samples || res.Samples != c.samples {
				t.Fatalf("buffered %d of %d samples, want all %d", res.Buffered, res.Samples, c.samples)
			}
			checkAgainstDirect(t, res, p, 0, c.samples, targets)
		})
	}
}

// checkAgainstDirect compares res with Mixture's results over samples
// [lo, hi) of p.
func checkAgainstDirect(t *testing.T, res *Result, p posterior, lo, hi int, targets [][]float64) {
	t.Helper()
	n := len(targets[0])
	width := make([]float64, len(res.Levels))
	lpd := make([]float64, len(targets))
	crps := make([]float64, len(targets))
	for k := range n {
		m := p.mixture(k, lo, hi)
		sd := math.Sqrt(m.Variance())
		if !scalar.EqualWithinAbsOrRel(res.Mean[k], m.Mean(), 1e-14, 1e-14) || !scalar.EqualWithinRel(res.Variance[k], m.Variance(), 1e-12) {
			t.Fatalf("entry %d: mean, variance %v, %v; direct %v, %v", k, res.Mean[k], res.Variance[k], m.Mean(), m.Variance())
		}
		for l, a := range res.Levels {
			qlo, qhi := m.Interval(a, searchTol)
			if !scalar.EqualWithinAbs(res.Lower[l][k], qlo, tolQuantile*sd) || !scalar.EqualWithinAbs(res.Upper[l][k], qhi, tolQuantile*sd) {
				t.Fatalf("entry %d, level %v: interval [%.15g, %.15g], direct [%.15g, %.15g]", k, a, res.Lower[l][k], res.Upper[l][k], qlo, qhi)
			}
			width[l] += qhi - qlo
		}
		for i, y := range targets {
			sc := res.Scores[i]
			if want := m.CDF(y[k]); !scalar.EqualWithinAbs(sc.PIT[k], want, tolPIT) {
				t.Fatalf("target %d, entry %d: PIT %.16g, direct %.16g", i, k, sc.PIT[k], want)
			}
			want := m.LogProb(y[k])
			if !scalar.EqualWithinRel(sc.LogDensity[k], want, tolLogDensity) {
				t.Fatalf("target %d, entry %d: log density %.16g, direct %.16g", i, k, sc.LogDensity[k], want)
			}
			lpd[i] += want
			want = m.CRPS(y[k])
			if !scalar.EqualWithinAbs(sc.CRPS[k], want, tolCRPS) {
				t.Fatalf("target %d, entry %d: CRPS %.16g, direct %.16g", i, k, sc.CRPS[k], want)
			}
			crps[i] += want
		}
	}
	for l := range res.Levels {
		if want := width[l] / float64(n); !scalar.EqualWithinAbs(res.MeanWidth[l], want, tolQuantile*10) {
			t.Errorf("level %v: mean width %.15g, direct %.15g", res.Levels[l], res.MeanWidth[l], want)
		}
	}
	for i := range targets {
		sc := res.Scores[i]
		if !scalar.EqualWithinRel(sc.MeanLogDensity, lpd[i]/float64(n), tolLogDensity) || !scalar.EqualWithinAbs(sc.MeanCRPS, crps[i]/float64(n), tolCRPS) {
			t.Errorf("target %d: means %v, %v; direct %v, %v", i, sc.MeanLogDensity, sc.MeanCRPS, lpd[i]/float64(n), crps[i]/float64(n))
		}
		// Coverage counts the PITs in each level's range (the PITs were
		// checked above).
		for l, a := range res.Levels {
			covered := 0
			for _, u := range sc.PIT {
				if u >= (1-a)/2 && u <= (1+a)/2 {
					covered++
				}
			}
			if want := float64(covered) / float64(n); sc.Coverage[l] != want {
				t.Errorf("target %d, level %v: coverage %v, want %v", i, a, sc.Coverage[l], want)
			}
		}
	}
}

// same fails unless a and b are equal bit for bit.
func same(t *testing.T, a, b *Result) {
	t.Helper()
	eq := func(x, y []float64) bool {
		for i := range x {
			if math.Float64bits(x[i]) != math.Float64bits(y[i]) {
				return false
			}
		}
		return len(x) == len(y)
	}
	ok := eq(a.Mean, b.Mean) && eq(a.Variance, b.Variance) && eq(a.MeanWidth, b.MeanWidth) && a.Evaluations == b.Evaluations
	for l := range a.Lower {
		ok = ok && eq(a.Lower[l], b.Lower[l]) && eq(a.Upper[l], b.Upper[l])
	}
	for i := range a.Scores {
		sa, sb := a.Scores[i], b.Scores[i]
		ok = ok && eq(sa.PIT, sb.PIT) && eq(sa.LogDensity, sb.LogDensity) && eq(sa.CRPS, sb.CRPS) && eq(sa.Coverage, sb.Coverage) &&
			sa.MeanCRPS == sb.MeanCRPS && sa.MeanLogDensity == sb.MeanLogDensity
	}
	if !ok {
		t.Error("results differ")
	}
}

// TestWorkersDeterminism checks that Finish gives the same result bit for
// bit with 1 and 4 workers, with a buffer smaller than the samples.
func TestWorkersDeterminism(t *testing.T) {
	p := simulate(2000, 40, 0.5, 0.5, 4)
	targets := [][]float64{p.draw(8)}
	var res [2]*Result
	for i, w := range []int{1, 4} {
		res[i] = finish(t, accumulate(t, p, 0, 40, targets, Settings{Samples: 40, Buffer: 8, Workers: w}))
	}
	same(t, res[0], res[1])
}

// TestCoverageCalibrated draws each entry's y from its own predictive
// mixture, so that the PIT is uniform and the coverage of the level-a
// interval is Binomial(n, a)/n. Each coverage must be within 4.5 binomial
// standard errors sqrt(a (1-a)/n) of a: P(|N(0,1)| > 4.5) = 7e-6, so the
// eight checks fail by chance with probability below 1e-4 for a new seed.
// The intervals themselves must contain y exactly when the PIT says so
// (all samples are buffered, so they are the full mixture's).
func TestCoverageCalibrated(t *testing.T) {
	const n, samples = 20000, 10
	p := simulate(n, samples, 0.3, 1.5, 21)
	targets := [][]float64{p.draw(22), p.draw(23)}
	res := finish(t, accumulate(t, p, 0, samples, targets, Settings{Samples: samples}))
	for i, y := range targets {
		for l, a := range res.Levels {
			se := math.Sqrt(a * (1 - a) / n)
			if got := res.Scores[i].Coverage[l]; !(math.Abs(got-a) <= 4.5*se) {
				t.Errorf("target %d, level %v: coverage %.4f, want within %.4f", i, a, got, 4.5*se)
			}
			disagree := 0
			for k, v := range y {
				in := v >= res.Lower[l][k] && v <= res.Upper[l][k]
				u := res.Scores[i].PIT[k]
				if in != (u >= (1-a)/2 && u <= (1+a)/2) {
					disagree++
				}
			}
			// A y within the quantile tolerance (1e-6 sd) of an interval
			// end may fall on either side: about n * 2 * 1e-6 * 0.4 =
			// 0.02 entries expected.
			if disagree > 1 {
				t.Errorf("target %d, level %v: interval and PIT disagree on %d entries", i, a, disagree)
			}
		}
	}
}

// TestAddErrors checks Add's and New's errors, and that a failed Add
// changes nothing.
func TestAddErrors(t *testing.T) {
	y := [][]float64{{1, 2, 3}}
	acc, err := New(y, Settings{Samples: 2})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name   string
		mu     []float64
		sigma2 float64
		want   string
	}{
		{"zero-variance", []float64{1, 2, 3}, 0, "predictive: sample 0 has noise variance 0; it must be positive and finite"},
		{"infinite-variance", []float64{1, 2, 3}, math.Inf(1), "predictive: sample 0 has noise variance +Inf; it must be positive and finite"},
		{"nan-prediction", []float64{1, math.NaN(), 3}, 1, "predictive: sample 0 predicts NaN for entry 1; predictions must be finite"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if err := acc.Add(c.mu, c.sigma2); err == nil || err.Error() != c.want {
				t.Errorf("got error %v, want %q", err, c.want)
			}
		})
	}
	if acc.Count() != 0 {
		t.Fatalf("failed Adds counted %d samples", acc.Count())
	}
	for range 2 {
		if err := acc.Add([]float64{1, 2, 3}, 1); err != nil {
			t.Fatal(err)
		}
	}
	if err := acc.Add([]float64{1, 2, 3}, 1); err == nil || !strings.Contains(err.Error(), "all 2 samples") {
		t.Errorf("third Add of two: got error %v", err)
	}

	news := []struct {
		name    string
		targets [][]float64
		s       Settings
		want    string
	}{
		{"no-targets", nil, Settings{Samples: 1}, "predictive: New needs at least one target vector with at least one entry"},
		{"samples", y, Settings{}, "predictive: Settings.Samples is 0; it must be positive"},
		{"buffer", y, Settings{Samples: 1, Buffer: -1}, "predictive: Settings.Buffer is -1; it must not be negative"},
		{"level", y, Settings{Samples: 1, Levels: []float64{0.5, 1}}, "predictive: Settings.Levels[1]: level 1 must be in (0, 1)"},
		{"level rounds to 1", y, Settings{Samples: 1, Levels: []float64{0.9999999999999999}}, "predictive: Settings.Levels[0]: level 0.9999999999999999 is too close to 1: the upper end's probability (1+level)/2 rounds to 1 in float64, where the quantile is infinite; the largest level is 0.9999999999999998"},
		{"tol", y, Settings{Samples: 1, Tol: math.NaN()}, "predictive: Settings.Tol is NaN; it must be nonnegative and finite"},
		{"workers", y, Settings{Samples: 1, Workers: -2}, "predictive: Settings.Workers is -2; it must not be negative"},
		{"lengths", [][]float64{{1, 2}, {1}}, Settings{Samples: 1}, "predictive: target 1 has 1 values; target 0 has 2"},
		{"non-finite", [][]float64{{1, math.Inf(-1)}}, Settings{Samples: 1}, "predictive: target 0, entry 1 is -Inf; values must be finite"},
	}
	for _, c := range news {
		t.Run("New/"+c.name, func(t *testing.T) {
			if _, err := New(c.targets, c.s); err == nil || err.Error() != c.want {
				t.Errorf("got error %v, want %q", err, c.want)
			}
		})
	}

	other, err := New([][]float64{{1, 2, 4}}, Settings{Samples: 2})
	if err != nil {
		t.Fatal(err)
	}
	if err := other.Add([]float64{1, 2, 3}, 1); err != nil {
		t.Fatal(err)
	}
	if _, err := Merge(acc, other); err == nil || err.Error() != "predictive: Merge part 1: target 0 has other values" {
		t.Errorf("Merge of different targets: got error %v", err)
	}
	if _, err := (&Accumulator{}).Finish(); err == nil {
		t.Error("Finish with no samples succeeded")
	}
}

// TestAddAllocatesNothing checks that Add allocates nothing after New.
func TestAddAllocatesNothing(t *testing.T) {
	p := simulate(1000, 50, 0.5, 0.5, 1)
	acc, err := New([][]float64{p.draw(1), p.draw(2)}, Settings{Samples: 50, Buffer: 10})
	if err != nil {
		t.Fatal(err)
	}
	s := 0
	allocs := testing.AllocsPerRun(40, func() {
		if err := acc.Add(p.mu[s], p.sigma2[s]); err != nil {
			t.Fatal(err)
		}
		s++
	})
	if allocs != 0 {
		t.Errorf("%v allocations per Add, want 0", allocs)
	}
}

// TestBufferSelection checks which samples the buffer keeps: the first of
// B equal runs, deterministically.
func TestBufferSelection(t *testing.T) {
	cases := []struct {
		samples, buffer int
		want            []int
	}{
		{10, 5, []int{0, 2, 4, 6, 8}},
		{100, 4, []int{0, 25, 50, 75}},
		{7, 20, []int{0, 1, 2, 3, 4, 5, 6}},
		{5, 2, []int{0, 2}},
		{100, 30, []int{0, 3, 6, 10, 13, 16, 20, 23, 26, 30, 33, 36, 40, 43, 46, 50, 53, 56, 60, 63, 66, 70, 73, 76, 80, 83, 86, 90, 93, 96}},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("S=%d/B=%d", c.samples, c.buffer), func(t *testing.T) {
			acc, err := New([][]float64{{0}}, Settings{Samples: c.samples, Buffer: c.buffer})
			if err != nil {
				t.Fatal(err)
			}
			for i := range c.samples {
				if err := acc.Add([]float64{float64(i)}, 1); err != nil {
					t.Fatal(err)
				}
			}
			got := make([]int, acc.nbuf)
			for b := range got {
				got[b] = int(acc.buf[b])
			}
			if fmt.Sprint(got) != fmt.Sprint(c.want) {
				t.Errorf("kept samples %v, want %v", got, c.want)
			}
		})
	}
}

// TestFinishEarly checks that Finish works after fewer samples than
// declared (a run stopped early): the buffer has kept the first sample, and
// the streamed quantities are exact over the samples added.
func TestFinishEarly(t *testing.T) {
	p := simulate(50, 3, 0.5, 0.5, 2)
	y := [][]float64{p.draw(3)}
	for _, added := range []int{1, 3} {
		res := finish(t, accumulate(t, p, 0, added, y, Settings{Samples: 100}))
		if res.Samples != added || res.Buffered != 1 {
			t.Errorf("after %d samples: %d samples, %d buffered; want %d and 1", added, res.Samples, res.Buffered, added)
		}
		for k := range y[0] {
			m := p.mixture(k, 0, added)
			if got, want := res.Scores[0].PIT[k], m.CDF(y[0][k]); !scalar.EqualWithinAbs(got, want, tolPIT) {
				t.Fatalf("after %d samples, entry %d: PIT %v, direct %v", added, k, got, want)
			}
			if lo, hi := res.Lower[0][k], res.Upper[0][k]; !(lo < res.Mean[k] && res.Mean[k] < hi) {
				t.Fatalf("after %d samples, entry %d: 0.5 interval [%v, %v] misses the mean %v", added, k, lo, hi, res.Mean[k])
			}
		}
	}
}

// TestCoverageBoundary checks the convention for a PIT exactly on an
// interval end: the central interval is closed, so an observed value at
// either quantile is covered (as Mixture.Interval documents: y lies in
// the interval exactly when CDF(y) lies in [(1-a)/2, (1+a)/2]). Two
// samples, one centred on y (CDF 1/2) and one 100 sds away (CDF 0 or 1),
// put the PIT of entry 0 at exactly 0.75 and that of entry 1 at exactly
// 0.25, the ends of the 50% interval; entry 2's PIT is 0.5.
func TestCoverageBoundary(t *testing.T) {
	y := []float64{0, 0, 0}
	acc, err := New([][]float64{y}, Settings{Samples: 2, Levels: []float64{0.5, 0.25}})
	if err != nil {
		t.Fatal(err)
	}
	for _, mu := range [][]float64{{0, 0, 0}, {-100, 100, 0}} {
		if err := acc.Add(mu, 1); err != nil {
			t.Fatal(err)
		}
	}
	res, err := acc.Finish()
	if err != nil {
		t.Fatal(err)
	}
	sc := res.Scores[0]
	if want := []float64{0.75, 0.25, 0.5}; !slices.Equal(sc.PIT, want) {
		t.Fatalf("PIT %v, want exactly %v", sc.PIT, want)
	}
	// Level 0.5: both ends are hit and covered, as is the middle. Level
	// 0.25 ([0.375, 0.625]): only the middle.
	if want := []float64{1, 1.0 / 3}; !slices.Equal(sc.Coverage, want) {
		t.Errorf("coverage %v at levels %v, want %v", sc.Coverage, res.Levels, want)
	}
}
