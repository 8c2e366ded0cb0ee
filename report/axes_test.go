package report

import (
	"math"
	"slices"
	"testing"
)

func TestChooseYScale(t *testing.T) {
	tests := []struct {
		name        string
		vals        []float64
		capRatio    float64
		log         bool
		floor, ceil float64
	}{
		{"narrow", []float64{0.9, 1.2, 2.5}, 0, false, 0, 0},
		{"decades", []float64{0.5, 3000}, 0, true, 0.25, 0},
		{"zero keeps linear", []float64{0, 3000}, 0, false, 0, 0},
		{"capped", []float64{0.97, 1.5, 236750}, 30, true, 0.485, 29.1},
		{"cap not reached", []float64{1, 20}, 30, true, 0.5, 0},
		{"non-finite ignored", []float64{1, math.Inf(1), 2}, 30, false, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := chooseYScale(tt.vals, tt.capRatio)
			if s.log != tt.log || math.Abs(s.floor-tt.floor) > 1e-12 || math.Abs(s.ceil-tt.ceil) > 1e-9 {
				t.Errorf("got %+v, want log=%v floor=%v ceil=%v", s, tt.log, tt.floor, tt.ceil)
			}
		})
	}
	s := yScale{log: true, floor: 0.5, ceil: 30}
	for _, c := range []struct {
		v, y    float64
		clipped bool
	}{{100, math.Log10(30), true}, {10, 1, false}, {-1, math.Log10(0.5), true}} {
		if y, cl := s.y(c.v); math.Abs(y-c.y) > 1e-12 || cl != c.clipped {
			t.Errorf("y(%v) = %v, %v; want %v, %v", c.v, y, cl, c.y, c.clipped)
		}
	}
}

func TestLogTicks(t *testing.T) {
	labels := func(lo, hi float64) []string {
		var out []string
		for _, tk := range (logTicks{}).Ticks(math.Log10(lo), math.Log10(hi)) {
			if tk.Label != "" {
				out = append(out, tk.Label)
			}
		}
		return out
	}
	tests := []struct {
		lo, hi float64
		want   []string
	}{
		{0.4, 3000, []string{"1", "10", "100", "1000"}}, // decades
		{0.9, 30, []string{"1", "2", "5", "10", "20"}},  // under two decades: 1-2-5
		{0.5, 2.6e5, []string{"1", "10", "100", "1000", "10000", "1e5"}},
	}
	for _, tt := range tests {
		if got := labels(tt.lo, tt.hi); !slices.Equal(got, tt.want) {
			t.Errorf("ticks on [%v, %v]: %v, want %v", tt.lo, tt.hi, got, tt.want)
		}
	}
	// Under half a decade the linear ticks of the values are used, placed
	// at their logarithms.
	for _, tk := range (logTicks{}).Ticks(math.Log10(0.9), math.Log10(1.4)) {
		if tk.Label != "" && (tk.Value < math.Log10(0.9)-1e-9 || tk.Value > math.Log10(1.4)+1e-9) {
			t.Errorf("tick %q at %v is outside the axis", tk.Label, tk.Value)
		}
	}
}

func TestUnsqueeze(t *testing.T) {
	tests := []struct {
		name    string
		byModel map[string][]float64
		ys      yScale
		ceil    float64
	}{
		// The others fill 0.1 of 1.7: the ceiling leaves them two thirds.
		{"one model far above", map[string][]float64{"A": {1.0, 1.02}, "B": {1.05, 1.1}, "C": {2.3, 2.7}}, yScale{}, 1.15},
		{"spread evenly", map[string][]float64{"A": {1, 1.5}, "B": {1.2, 1.8}, "C": {2, 2.5}}, yScale{}, 0},
		{"a single other mean", map[string][]float64{"A": {1}, "C": {5}}, yScale{}, 0},
		// MovieLens 100K's Fig. 5: GTT and GTTN reach thousands too, so
		// the others fill most of the log axis up to its ceiling.
		{"log axis, others spread", map[string][]float64{"GEE": {0.9, 316769}, "GTT": {0.87, 4304}, "GRRN": {0.86, 1.08}},
			chooseYScale([]float64{0.86, 316769}, 30), 25.8},
		// On a log axis the share is measured in decades: 1 to 1.2 in
		// 1 to 25 is 6% of the axis.
		{"log axis, squeezed", map[string][]float64{"A": {1, 1.1}, "B": {1.05, 1.2}, "C": {2, 25}},
			chooseYScale([]float64{1, 25}, 30), math.Pow(1.2, 1.5)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := unsqueeze(tt.ys, tt.byModel)
			if math.Abs(got.ceil-tt.ceil) > 1e-9 || got.log != tt.ys.log {
				t.Errorf("got %+v, want ceiling %v on the same scale as %+v", got, tt.ceil, tt.ys)
			}
		})
	}
}

func TestDistinctTicks(t *testing.T) {
	for _, r := range [][2]float64{{1.0, 1.15}, {0.99, 1.01}, {0, 100}, {1000, 1001}} {
		seen := make(map[string]bool)
		for _, tk := range (distinctTicks{}).Ticks(r[0], r[1]) {
			if tk.Label == "" {
				continue
			}
			if seen[tk.Label] {
				t.Errorf("axis %v: label %q twice", r, tk.Label)
			}
			seen[tk.Label] = true
		}
		if len(seen) < 2 {
			t.Errorf("axis %v: %d labels, want at least 2", r, len(seen))
		}
	}
}
