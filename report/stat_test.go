package report

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"
)

func TestNewStat(t *testing.T) {
	nan := math.NaN()
	tests := []struct {
		name         string
		xs           []float64
		n, nonFinite int
		mean, sd, se float64 // NaN where undefined
	}{
		{"empty", nil, 0, 0, nan, nan, nan},
		{"one", []float64{2.5}, 1, 0, 2.5, nan, nan},
		// 1, 2, 3: sample variance ((1)^2+0+(1)^2)/2 = 1.
		{"three", []float64{1, 2, 3}, 3, 0, 2, 1, 1 / math.Sqrt(3)},
		// NaN and +Inf are counted, not averaged.
		{"non-finite", []float64{1, math.NaN(), 3, math.Inf(1)}, 2, 2, 2, math.Sqrt2, 1},
		{"all non-finite", []float64{math.Inf(-1)}, 0, 1, nan, nan, nan},
		// The store writes NaN and infinities as +-MaxFloat64.
		{"clamped", []float64{1, math.MaxFloat64, 3, -math.MaxFloat64}, 2, 2, 2, math.Sqrt2, 1},
	}
	same := func(a, b float64) bool {
		return (math.IsNaN(a) && math.IsNaN(b)) || scalar.EqualWithinAbsOrRel(a, b, 1e-12, 1e-12)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newStat(tt.xs)
			if s.N != tt.n || s.NonFinite != tt.nonFinite || !same(s.Mean, tt.mean) || !same(s.SD, tt.sd) || !same(s.SE, tt.se) {
				t.Errorf("got %+v, want N=%d NonFinite=%d Mean=%v SD=%v SE=%v", s, tt.n, tt.nonFinite, tt.mean, tt.sd, tt.se)
			}
		})
	}
}

func TestNewTraceStats(t *testing.T) {
	// Three chains, one cut short and one with a NaN at sweep 2.
	ts := newTraceStats([][]float64{{10, 4, 1}, {20, math.NaN(), 3}, {30}})
	wantMean := []float64{20, 4, 2}
	wantN := []int{3, 1, 2}
	for i := range wantMean {
		if ts.Mean[i] != wantMean[i] || ts.N[i] != wantN[i] {
			t.Errorf("sweep %d: mean %v n %d, want %v and %d", i+1, ts.Mean[i], ts.N[i], wantMean[i], wantN[i])
		}
	}
	if ts.SD[0] != 10 || !math.IsNaN(ts.SD[1]) || ts.SD[2] != math.Sqrt2 {
		t.Errorf("SD = %v, want [10 NaN 1.414…]", ts.SD)
	}
	if ts.NonFinite != 1 {
		t.Errorf("NonFinite = %d, want 1", ts.NonFinite)
	}
}
