package report

import (
	"math"
	"testing"
)

func TestFmtMeanSE(t *testing.T) {
	tests := []struct {
		s    Stat
		want string
	}{
		{Stat{}, "—"},
		{Stat{N: 1, Mean: 1.0213, SD: math.NaN(), SE: math.NaN()}, "1.02"},
		{Stat{N: 10, Mean: 1.0213, SE: 0.0123}, "1.021 ± 0.012"},
		{Stat{N: 10, Mean: 1.0213, SE: 0.0041}, "1.021 ± 0.004"}, // three decimals at most for a mean near 1
		{Stat{N: 10, Mean: 27.66, SE: 0.32}, "27.66 ± 0.32"},
		{Stat{N: 10, Mean: 236750.39, SE: 2160}, "236750 ± 2160"},
		{Stat{N: 10, Mean: 0.02003, SE: 0.00012}, "0.0200 ± 0.0001"},
		{Stat{N: 10, Mean: 3.2e9, SE: 4e8}, "3.2e+09 ± 4e+08"},
		{Stat{N: 3, Mean: 2, SE: 0}, "2.00"},
	}
	for _, tt := range tests {
		if got := fmtMeanSE(tt.s); got != tt.want {
			t.Errorf("fmtMeanSE(%+v) = %q, want %q", tt.s, got, tt.want)
		}
	}
}

func TestFormatters(t *testing.T) {
	tests := []struct {
		got, want string
	}{
		{fmtInt(99723), "99,723"},
		{fmtInt(999917), "999,917"},
		{fmtInt(943), "943"},
		{fmtInt(-1234567), "-1,234,567"},
		{fmtG(0.97), "0.97"},
		{fmtPaper(1), "1.00"},
		{fmtFloat(math.Inf(1)), "Inf"},
		{fmtFloat(math.Inf(-1)), "-Inf"},
		{fmtFloat(math.NaN()), "NaN"},
		{fmtFloat(0.1), "0.1"},
		{fmtDuration(42), "42 s"},
		{fmtDuration(210), "3.5 min"},
		{fmtDuration(7560), "2.1 h"},
		{fmtTick(0.5), "0.5"},
		{fmtTick(10000), "10000"},
		{fmtTick(200000), "2e5"},
		{repeatList([]int{0, 2, 3, 4, 9}), "repeat 0, 2–4, 9"},
	}
	for i, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("case %d: got %q, want %q", i, tt.got, tt.want)
		}
	}
}
