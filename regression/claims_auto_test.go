package regression

import (
	"math"
	"testing"

	"github.com/bnmf-lab/bnmf/bnmf"
	"github.com/bnmf-lab/bnmf/experiments"
)

// autoFirstCell is one cell of the first look at ml100k-table2-auto in
// results/README.md ("chains run until they converge"): a Bayesian model
// at rank K, 97% unobserved, repeat 0, with the numbers the page prints.
type autoFirstCell struct {
	model string
	rank  int
	// sweeps and verdict are how its chains stopped under sweeps: auto;
	// auto, pooled500 and one500 its held-out MSE with sweeps: auto (4
	// chains), after 500 sweeps with 4 chains pooled (ml100k-diagnostics)
	// and after 500 sweeps of one chain (ml100k-sparsity, the paper's
	// protocol), at the page's three decimals.
	sweeps                  int
	verdict                 string
	auto, pooled500, one500 float64
}

// autoFirstCells are the page's table.
var autoFirstCells = []autoFirstCell{
	{"GEE", 20, 8000, bnmf.NotConverged, 1.325, 1.344, 1.409},
	{"GEE", 30, 8000, bnmf.NotConverged, 1.835, 1.878, 1.862},
	{"GEE", 40, 8000, bnmf.Converged, 2.760, 2.774, 2.814},
	{"GTT", 20, 8000, bnmf.NotConverged, 1.071, 1.073, 1.108},
	{"GTT", 30, 8000, bnmf.Converged, 1.306, 1.309, 1.325},
	{"GTT", 40, 8000, bnmf.NotConverged, 1.720, 1.715, 1.719},
	{"GTTN", 20, 8000, bnmf.NotConverged, 1.089, 1.095, 1.132},
	{"GTTN", 30, 4000, bnmf.Converged, 1.341, 1.343, 1.364},
	{"GTTN", 40, 4000, bnmf.Converged, 1.788, 1.787, 1.809},
	{"GRRN", 20, 8000, bnmf.NotConverged, 0.919, 0.929, 1.022},
	{"GRRN", 30, 8000, bnmf.NotConverged, 0.916, 0.930, 0.993},
}

// TestClaimsAutoFirstCells checks the first look at the run-to-convergence
// study in results/README.md, cell by cell (adding the study's other
// cells leaves these records, and so the test, as they are): the sweeps
// and verdict of each cell's chains (and, at the cap, the largest R-hat
// of the quantities the rule watches, 1.011 to 1.128), its held-out MSE beside the same
// cell's after 500 sweeps of 4 pooled chains and of one chain, at the
// page's three decimals; that running on from 500 sweeps changes the
// 4-chain MSE by -2.3% to +0.3%, while pooling four chains alone moves
// GRRN's by -9.0% and -6.4% (K = 20, 30); and that GRRN at K = 20 ends
// within 0.6% of the bias baseline's 0.914 on the same split.
func TestClaimsAutoFirstCells(t *testing.T) {
	byCell := func(name string) map[experiments.Cell]*experiments.Record {
		st := committedStudy(t, name)
		out := make(map[experiments.Cell]*experiments.Record, len(st.Records))
		for i := range st.Records {
			out[st.Records[i].Cell] = &st.Records[i]
		}
		return out
	}
	auto, pooled, one := byCell("ml100k-table2-auto"), byCell("ml100k-diagnostics"), byCell("ml100k-sparsity")
	get := func(m map[experiments.Cell]*experiments.Record, name string, c experiments.Cell) *experiments.Record {
		r, ok := m[c]
		if !ok || r.Error != "" {
			t.Fatalf("%s: no successful record of %s", name, c.Key())
		}
		return r
	}
	round3 := func(x float64) float64 { return math.Round(x*1000) / 1000 }
	lo, hi := math.Inf(1), math.Inf(-1)
	rhatLo, rhatHi := math.Inf(1), math.Inf(-1)
	for _, w := range autoFirstCells {
		c := experiments.Cell{Model: w.model, Rank: w.rank, Fraction: 0.97}
		a, p, o := get(auto, "ml100k-table2-auto", c), get(pooled, "ml100k-diagnostics", c), get(one, "ml100k-sparsity", c)
		if a.AutoSweeps == nil || a.Sweeps != w.sweeps || a.AutoSweeps.Verdict != w.verdict {
			t.Errorf("%s: %d sweeps, verdict %v; the page says %d, %s", c.Key(), a.Sweeps, a.AutoSweeps, w.sweeps, w.verdict)
		}
		if a.Chains != 4 || p.Chains != 4 || o.Chains > 1 {
			t.Errorf("%s: %d, %d and %d chains; the page compares 4, 4 and 1", c.Key(), a.Chains, p.Chains, o.Chains)
		}
		got := [3]float64{round3(a.Metrics.TestMSE), round3(p.Metrics.TestMSE), round3(o.Metrics.TestMSE)}
		if want := [3]float64{w.auto, w.pooled500, w.one500}; got != want {
			t.Errorf("%s: held-out MSE %v (auto, 4 chains at 500, one chain at 500); the page says %v", c.Key(), got, want)
		}
		if w.verdict == bnmf.NotConverged {
			worst := 0.0
			for _, q := range []*bnmf.Convergence{&a.AutoSweeps.Sigma2, a.AutoSweeps.TestMSE, a.AutoSweeps.Predictions} {
				if q != nil && q.RHat != nil {
					worst = math.Max(worst, *q.RHat)
				}
			}
			rhatLo, rhatHi = math.Min(rhatLo, worst), math.Max(rhatHi, worst)
		}
		change := a.Metrics.TestMSE/p.Metrics.TestMSE - 1
		lo, hi = math.Min(lo, change), math.Max(hi, change)
	}
	if math.Round(rhatLo*1000) != 1011 || math.Round(rhatHi*1000) != 1128 {
		t.Errorf("the cells at the cap reach a largest watched R-hat of %.3f to %.3f; the page says 1.011 to 1.128", rhatLo, rhatHi)
	}
	if math.Round(lo*1000) != -23 || math.Round(hi*1000) != 3 {
		t.Errorf("running on from 500 sweeps changes the 4-chain MSE by %.1f%% to %.1f%%; the page says -2.3%% to +0.3%%", 100*lo, 100*hi)
	}
	for k, want := range map[int]float64{20: -9.0, 30: -6.4} {
		c := experiments.Cell{Model: "GRRN", Rank: k, Fraction: 0.97}
		if got := 100 * (pooled[c].Metrics.TestMSE/one[c].Metrics.TestMSE - 1); math.Round(got*10)/10 != want {
			t.Errorf("GRRN K = %d: pooling four chains moves the MSE by %.1f%%; the page says %.1f%%", k, got, want)
		}
	}
	grrn := get(auto, "ml100k-table2-auto", experiments.Cell{Model: "GRRN", Rank: 20, Fraction: 0.97}).Metrics.TestMSE
	bias := get(auto, "ml100k-table2-auto", experiments.Cell{Model: "Bias", Rank: 20, Fraction: 0.97}).Metrics.TestMSE
	if round3(bias) != 0.914 || !(grrn > bias && grrn/bias-1 < 0.006) {
		t.Errorf("GRRN at K = 20 is %.4f against the bias baseline's %.4f; the page says within 0.6%% of 0.914", grrn, bias)
	}
}
