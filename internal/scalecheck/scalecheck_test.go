package scalecheck

import (
	"strings"
	"testing"
)

func TestWarning(t *testing.T) {
	tests := []struct {
		name           string
		mean, variance float64
		want           string // in the warning; "" for none
	}{
		{"MovieLens 100K", 3.53, 1.27, ""},
		{"a 1-10 scale", 6.5, 6, ""},
		{"bounds", MeanMax, VarianceMin, ""},
		{"mean 43, variance 1907", 43, 1907, "mean 43 and variance 1,907"},
		{"variance only", 3.5, 25, "mean 3.5 and variance 25"},
		{"mean only", 0.2, 0.5, "mean 0.2 and variance 0.5"},
		{"tiny variance", 1, 0.0123, "variance 0.0123"},
		{"not a number", 3, 0, "variance 0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Warning(tt.mean, tt.variance)
			switch {
			case tt.want == "" && got != "":
				t.Errorf("got warning %q, want none", got)
			case tt.want != "" && !strings.Contains(got, tt.want):
				t.Errorf("got %q, want it to contain %q", got, tt.want)
			case tt.want != "" && !strings.Contains(got, "standardize: true"):
				t.Errorf("%q does not point to rescaling", got)
			}
		})
	}
}
