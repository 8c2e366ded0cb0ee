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
