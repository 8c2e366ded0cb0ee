package report

import (
	"fmt"
	"math"
	"testing"

	"github.com/bnmf-lab/bnmf/experiments"
)

// fixture describes a small synthetic study. Every number is a
// deterministic function of the cell, so the golden files are stable.
type fixture struct {
	kind        string
	models      []string
	ranks       []int
	fractions   []float64
	noiseRatios []float64
	repeats     int
	sweeps      int
	burnIn      int
	// drop lists cells to leave without a record; fail and nan list cells
	// whose record failed or has a non-finite final metric.
	drop, fail, nan []experiments.Cell
	// warn lists cells whose record carries a warning.
	warn []experiments.Cell
	// dataset and label name the data, rows, cols and observed describe
	// it, and mseScale multiplies every MSE; zero values mean MovieLens
	// 100K on the scale of its ratings.
	dataset, label       string
	rows, cols, observed int
	mseScale             float64
}

func (fx fixture) cells() []experiments.Cell {
	var cells []experiments.Cell
	for _, m := range fx.models {
		for _, k := range fx.ranks {
			xs := []float64{0}
			switch fx.kind {
			case experiments.KindSparsity:
				xs = fx.fractions
			case experiments.KindNoise:
				xs = fx.noiseRatios
			}
			for _, x := range xs {
				for r := range fx.repeats {
					c := experiments.Cell{Model: m, Rank: k, Repeat: r}
					if fx.kind == experiments.KindSparsity {
						c.Fraction = x
					} else if fx.kind == experiments.KindNoise {
						c.NoiseRatio = x
					}
					cells = append(cells, c)
				}
			}
		}
	}
	return cells
}

// modelLevel is a model's converged error in the fixture: GRRN best and
// improving with rank, GEE overfitting with rank, NMF worst.
func modelLevel(model string, rank int) float64 {
	k := float64(rank) / 10
	switch model {
	case "GEE":
		return 0.60 + 0.02*k
	case "GTT":
		return 0.70 - 0.01*k
	case "GTTN":
		return 0.72 - 0.01*k
	case "GRRN":
		return 0.80 - 0.05*k
	case "NMF":
		return 0.90
	}
	return 0.75
}

// heldOut is a model's held-out MSE in the fixture; GEE explodes at high
// rank and sparsity as in the paper's Table 2.
func heldOut(model string, rank int, f float64) float64 {
	growth := math.Exp((f - 0.93) * 40 * float64(rank) / 50)
	switch model {
	case "GRRN":
		return 0.95 + 2*(f-0.93)
	case "GEE":
		return 1.0 + 3e-6*math.Exp((f-0.93)*float64(rank)*10) // 2e5 at K = 50, 0.98
	case "NMF":
		return 1.2 * growth
	case "ColumnMean": // a baseline: the same at every rank
		return 1.12 + 0.5*(f-0.93)
	case "Bias": // a baseline better than every model at high sparsity
		return 0.9 + 0.5*(f-0.93)
	}
	return 1.0 + 0.05*growth*float64(len(model))/4
}

func contains(cells []experiments.Cell, c experiments.Cell) bool {
	for _, x := range cells {
		if x == c {
			return true
		}
	}
	return false
}

// study builds the fixture's Study.
func (fx fixture) study(t testing.TB, dir, name string) *experiments.Study {
	t.Helper()
	cells := fx.cells()
	if fx.dataset == "" {
		fx.dataset, fx.rows, fx.cols, fx.observed = "movielens-100k", 943, 1473, 99723
	}
	if fx.mseScale == 0 {
		fx.mseScale = 1
	}
	m := experiments.Manifest{
		Version: experiments.RecordVersion, Study: name, Kind: fx.kind, ConfigHash: "c0ffee",
		Dataset: fx.dataset, DatasetLabel: fx.label, Rows: fx.rows, Cols: fx.cols, Observed: fx.observed, BaseSeed: 42,
		Sweeps: fx.sweeps, BurnIn: fx.burnIn, Thin: 1, Models: fx.models, Ranks: fx.ranks,
		Fractions: fx.fractions, NoiseRatios: fx.noiseRatios, Repeats: fx.repeats, Cells: cells,
	}
	st := &experiments.Study{Dir: dir, Manifest: m}
	for i, c := range cells {
		if contains(fx.drop, c) {
			continue
		}
		jitter := 1 + 0.02*float64(c.Repeat-1) // repeats 0, 1, 2 spread by ±2%
		if c.Model == "ColumnMean" {
			jitter = 1 + 0.03*float64(c.Repeat-1) // so that skill varies by repeat
		}
		r := experiments.Record{
			Version: experiments.RecordVersion, Study: name, Kind: fx.kind, ConfigHash: "c0ffee",
			Cell: c, Seed: uint64(1000 + i), Dataset: m.Dataset, Rows: m.Rows, Cols: m.Cols,
			TrainEntries: fx.observed, Sweeps: fx.sweeps, BurnIn: fx.burnIn, Thin: 1,
			WallSeconds: 2.5,
		}
		level := modelLevel(c.Model, c.Rank) * jitter
		r.Trace.TrainMSE = make([]float64, fx.sweeps)
		for s := range fx.sweeps {
			r.Trace.TrainMSE[s] = level + 3000*jitter*math.Exp(-float64(s)/2.5)
		}
		r.Metrics.TrainMSE = level
		r.Metrics.SecondsPerSweep = 0.001 * float64(c.Rank) * jitter
		switch fx.kind {
		case experiments.KindSparsity:
			r.Metrics.TestMSE = heldOut(c.Model, c.Rank, c.Fraction) * jitter * fx.mseScale
			r.TestEntries = 1000
		case experiments.KindNoise:
			r.Metrics.VarOverMSE = 1.25 / (1 + c.NoiseRatio) * jitter / modelLevel(c.Model, 50)
			r.Metrics.VarOverMSEClean = 1.3 / (1 + c.NoiseRatio/4) * jitter / modelLevel(c.Model, 50)
			r.Metrics.TestMSE = 1 / r.Metrics.VarOverMSE // the noisy training values' variance is 1
			r.Metrics.DataVariance = 1
			r.Metrics.TestMSEClean = 1.25 / r.Metrics.VarOverMSEClean // the clean ones' is 1.25
		}
		if contains(fx.nan, c) {
			r.Metrics.TrainMSE, r.Metrics.TestMSE = math.NaN(), math.Inf(1)
		}
		if contains(fx.warn, c) {
			r.Warnings = []string{"effective sample size of sigma2 is 12, below 100"}
		}
		if contains(fx.fail, c) {
			r.Error = fmt.Sprintf("sampler: sigma2 draw is not finite at sweep %d", 7)
			r.Metrics = experiments.Metrics{}
			r.Trace = experiments.Trace{}
		}
		st.Records = append(st.Records, r)
	}
	return st
}

// Standard fixtures, small enough for fast tests.
func convergenceFixture() fixture {
	return fixture{kind: experiments.KindConvergence, models: []string{"GEE", "GTT", "GTTN", "GRRN", "NMF"},
		ranks: []int{10, 20, 30}, repeats: 3, sweeps: 40, burnIn: 30}
}

func sparsityFixture() fixture {
	return fixture{kind: experiments.KindSparsity, models: []string{"GEE", "GTT", "GTTN", "GRRN", "NMF"},
		ranks: []int{20, 30, 40, 50}, fractions: []float64{0.93, 0.94, 0.95, 0.96, 0.97, 0.98},
		repeats: 3, sweeps: 10, burnIn: 5}
}

func noiseFixture() fixture {
	return fixture{kind: experiments.KindNoise, models: []string{"GEE", "GTT", "GTTN", "GRRN", "NMF"},
		ranks: []int{50}, noiseRatios: []float64{0, 0.1, 0.2, 0.5, 1, 2, 5, 10}, repeats: 3, sweeps: 10, burnIn: 5}
}

// troubledSparsity is a sparsity study with one of each problem: a missing
// repeat, a failed cell, a non-finite value, a record warning, a record from
// another config and a problem reported by the collector.
func troubledSparsity(t testing.TB, dir string) *experiments.Study {
	t.Helper()
	fx := sparsityFixture()
	fx.drop = []experiments.Cell{{Model: "GEE", Rank: 50, Fraction: 0.98, Repeat: 2}}
	fx.fail = []experiments.Cell{{Model: "GTT", Rank: 40, Fraction: 0.97, Repeat: 1}}
	fx.nan = []experiments.Cell{{Model: "NMF", Rank: 20, Fraction: 0.98, Repeat: 0}}
	fx.warn = []experiments.Cell{{Model: "GRRN", Rank: 20, Fraction: 0.97, Repeat: 0}}
	st := fx.study(t, dir, "table2")
	foreign := st.Records[0]
	foreign.ConfigHash = "deadbeef"
	st.Records = append(st.Records, foreign)
	st.Problems = []string{"records/0042.json: unexpected end of JSON input"}
	return st
}
