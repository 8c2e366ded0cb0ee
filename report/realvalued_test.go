package report

import (
	"slices"
	"testing"
)

// TestRealValuedModels checks that the models with real-valued factors
// are read from the registry, in the study's order and ignoring case,
// and how their names are joined.
func TestRealValuedModels(t *testing.T) {
	cases := []struct {
		models []string
		want   []string
		joined string
	}{
		{[]string{"GEE", "GTT", "GTTN", "GRRN", "NMF"}, nil, ""},
		{[]string{"GRRN", "GGG"}, []string{"GGG"}, "GGG"},
		{[]string{"gggw", "GRRN", "GGG"}, []string{"gggw", "GGG"}, "gggw and GGG"},
		{[]string{"GGG", "GGGA", "GGGW", "Unknown"}, []string{"GGG", "GGGA", "GGGW"}, "GGG, GGGA and GGGW"},
	}
	for _, tc := range cases {
		got := realValuedModels(tc.models)
		if !slices.Equal(got, tc.want) {
			t.Errorf("realValuedModels(%q) = %q, want %q", tc.models, got, tc.want)
		}
		if j := joinAnd(got); j != tc.joined {
			t.Errorf("joinAnd(%q) = %q, want %q", got, j, tc.joined)
		}
	}
}
