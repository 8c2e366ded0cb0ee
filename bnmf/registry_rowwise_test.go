package bnmf

import "testing"

// TestRealValuedSpecs checks the registry's flags of the real-valued
// models: not run by default (so that a config listing no models keeps
// its hash), not needing nonnegative data, real-valued, with posteriors;
// and that no other model is marked real-valued.
func TestRealValuedSpecs(t *testing.T) {
	real := map[string]bool{"GGG": true, "GGGU": true, "GGGA": true, "GGGW": true, "GLL": true, "GLLI": true, "GVG": true, "GVnG": true, "GEG": true}
	for _, s := range Specs() {
		if s.RealValued != real[s.Name] {
			t.Errorf("%s: RealValued %v, want %v", s.Name, s.RealValued, real[s.Name])
		}
		if real[s.Name] && (s.Default || s.Nonnegative || s.Baseline || s.PointEstimate) {
			t.Errorf("%s: Default %v, Nonnegative %v, Baseline %v, PointEstimate %v; want all false",
				s.Name, s.Default, s.Nonnegative, s.Baseline, s.PointEstimate)
		}
	}
}
