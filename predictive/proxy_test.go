package predictive

import (
	"math"
	"testing"
)

// proxyError compares the buffered result with the exact one.
type proxyError struct {
	crpsMeanRel, crpsMaxRel, meanCRPSRel    float64
	widthMeanRel, widthMaxRel, meanWidthRel float64 // at the widest level
}

func compareProxy(exact, proxy *Result) proxyError {
	var e proxyError
	n := float64(len(exact.Mean))
	l := len(exact.Levels) - 1
	for k := range exact.Mean {
		c := math.Abs(proxy.Scores[0].CRPS[k]-exact.Scores[0].CRPS[k]) / exact.Scores[0].CRPS[k]
		e.crpsMeanRel += c / n
		e.crpsMaxRel = math.Max(e.crpsMaxRel, c)
		we := exact.Upper[l][k] - exact.Lower[l][k]
		w := math.Abs(proxy.Upper[l][k]-proxy.Lower[l][k]-we) / we
		e.widthMeanRel += w / n
		e.widthMaxRel = math.Max(e.widthMaxRel, w)
	}
	e.meanCRPSRel = (proxy.Scores[0].MeanCRPS - exact.Scores[0].MeanCRPS) / exact.Scores[0].MeanCRPS
	e.meanWidthRel = (proxy.MeanWidth[l] - exact.MeanWidth[l]) / exact.MeanWidth[l]
	return e
}

// TestProxyAccuracy measures what a buffer smaller than the samples costs
// in accuracy: it compares the results from B kept samples with the exact
// ones from all 100 (B = S) on 4000 entries whose predictions move between
// samples like a sampler's (see simulate), and fails if an error exceeds
// about three times the value measured with these seeds (the package
// documentation quotes the measured values; the test is deterministic, so
// the margins only guard against regressions).
func TestProxyAccuracy(t *testing.T) {
	if testing.Short() {
		t.Skip("4000 entries x 100 samples, six times")
	}
	cases := []struct {
		name        string
		rho, spread float64
		buffer      int
		// Bounds on the relative errors: per entry, mean and largest, of
		// the CRPS and of the 0.95 interval's width; of the mean CRPS and
		// the mean width.
		crpsMean, crpsMax, meanCRPS, widthMean, widthMax, meanWidth float64
	}{
		{"spread=0.5/B=10", 0.5, 0.5, 10, 8e-4, 1.5e-2, 3e-4, 1.2e-3, 3.5e-2, 6e-4},
		{"spread=0.5/B=20", 0.5, 0.5, 20, 6e-4, 1.3e-2, 1.5e-4, 9e-4, 2e-2, 2.5e-4},
		{"spread=0.5/B=50", 0.5, 0.5, 50, 3e-4, 1e-2, 3e-5, 4.5e-4, 9e-3, 7e-5},
		{"spread=0.5/rho=0.9/B=20", 0.9, 0.5, 20, 3e-4, 8e-3, 4e-5, 4e-4, 1e-2, 8e-5},
		{"spread=1.5/B=20", 0.5, 1.5, 20, 1.2e-2, 0.28, 1.6e-3, 3e-2, 0.35, 4.7e-3},
		{"spread=1.5/B=50", 0.5, 1.5, 50, 6e-3, 0.1, 3.5e-4, 1.3e-2, 0.13, 6e-4},
	}
	const n, samples = 4000, 100
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := simulate(n, samples, c.rho, c.spread, 31)
			y := [][]float64{p.draw(32)}
			exact := finish(t, accumulate(t, p, 0, samples, y, Settings{Samples: samples, Buffer: samples}))
			proxy := finish(t, accumulate(t, p, 0, samples, y, Settings{Samples: samples, Buffer: c.buffer}))
			e := compareProxy(exact, proxy)
			t.Logf("CRPS relative error per entry: mean %.2e, max %.2e; of the mean CRPS %.2e", e.crpsMeanRel, e.crpsMaxRel, e.meanCRPSRel)
			t.Logf("0.95 width relative error per entry: mean %.2e, max %.2e; of the mean width %.2e", e.widthMeanRel, e.widthMaxRel, e.meanWidthRel)
			t.Logf("CDF evaluations per interval end: %.2f", float64(proxy.Evaluations)/float64(n*2*len(proxy.Levels)))
			for _, b := range []struct {
				what         string
				got, allowed float64
			}{
				{"mean per-entry CRPS error", e.crpsMeanRel, c.crpsMean},
				{"largest per-entry CRPS error", e.crpsMaxRel, c.crpsMax},
				{"error of the mean CRPS", math.Abs(e.meanCRPSRel), c.meanCRPS},
				{"mean per-entry width error", e.widthMeanRel, c.widthMean},
				{"largest per-entry width error", e.widthMaxRel, c.widthMax},
				{"error of the mean width", math.Abs(e.meanWidthRel), c.meanWidth},
			} {
				if !(b.got <= b.allowed) {
					t.Errorf("%s %.3g, allowed %.3g", b.what, b.got, b.allowed)
				}
			}
			// Everything else is exact over all samples.
			for k := range exact.Mean {
				if proxy.Scores[0].PIT[k] != exact.Scores[0].PIT[k] || proxy.Scores[0].LogDensity[k] != exact.Scores[0].LogDensity[k] || proxy.Mean[k] != exact.Mean[k] {
					t.Fatalf("entry %d: PIT, log density or mean depend on the buffer", k)
				}
			}
		})
	}
}
