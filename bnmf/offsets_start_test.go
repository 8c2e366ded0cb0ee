package bnmf

import (
	"strings"
	"testing"
)

// TestOffsetsStart checks that a chain with offsets starts them at fixed
// values whatever its seed: mu at M0, b and c at 0, tau_b and tau_c at
// their hyperpriors' means.
func TestOffsetsStart(t *testing.T) {
	train, _, _, _ := plantedBiased(t, 12, 15, 2, 0.5, 11)
	model := Biased{Model: GRRN{}, Offsets: Offsets{M0: 2.5, TauMu: 0.5, AlphaB: 2, BetaB: 0.3, AlphaC: 1.5, BetaC: 0.8}}
	for _, seed := range []uint64{1, 2, 99} {
		ch, err := model.newChain(train, 2)
		if err != nil {
			t.Fatal(err)
		}
		c := ch.(*gibbsChain)
		p := newPool(1, seed, c.scratchSize())
		if err := c.init(p); err != nil {
			t.Fatal(err)
		}
		p.close()
		o := c.off
		if o.mu != 2.5 || o.tauB != 2/0.3 || o.tauC != 1.5/0.8 {
			t.Errorf("seed %d: mu %v, tau_b %v, tau_c %v; want 2.5, %v, %v", seed, o.mu, o.tauB, o.tauC, 2/0.3, 1.5/0.8)
		}
		for i, v := range o.b {
			if v != 0 {
				t.Fatalf("seed %d: b[%d] starts at %v, want 0", seed, i, v)
			}
		}
		for j, v := range o.c {
			if v != 0 {
				t.Fatalf("seed %d: c[%d] starts at %v, want 0", seed, j, v)
			}
		}
	}
}

// TestCaughtOffsetsWarning checks which offsets the warning names: a line
// more than ten standard deviations of the training values from its
// side's mean, on either side, and nothing at or under that.
func TestCaughtOffsetsWarning(t *testing.T) {
	cases := []struct {
		name  string
		b, c  []float64
		sd    float64
		names []string // substrings the warning holds; nil: no warning
	}{
		{"ordinary", []float64{-1, 0.5, 1.2}, []float64{0.3, -2, 2}, 1.2, nil},
		// Column 1 lies 105.8 from the mean -34.2 of its side: 88.2 sd.
		{"column far below", []float64{-1, 0.5, 1.2}, []float64{0.3, -140, 1, 2}, 1.2, []string{"column 1's c_j -140 lie more than 10 standard deviations of the training values (1.2)"}},
		{"row far above", []float64{0, 0, 0, 0, 50}, []float64{0, 1}, 1, []string{"row 4's b_i 50 lie"}},
		{"both", []float64{0, 0, 0, 0, 50}, []float64{0, 0, 0, -80}, 1, []string{"row 4's b_i 50 and column 3's c_j -80 lie"}},
		// Deviations from the side's mean, not from 0: a common shift of
		// every offset (which mu can take up) is no sign.
		{"shifted side", []float64{-30, -31, -29}, []float64{0, 1}, 1, nil},
		{"at the limit", []float64{0, 20}, []float64{0}, 1, nil},
		{"no spread of the data", []float64{0, 100}, nil, 0, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w := caughtOffsetsWarning(&OffsetSummary{B: tc.b, C: tc.c}, tc.sd)
			if tc.names == nil {
				if w != "" {
					t.Errorf("warning %q, want none", w)
				}
				return
			}
			for _, s := range tc.names {
				if !strings.Contains(w, s) {
					t.Errorf("warning %q does not hold %q", w, s)
				}
			}
		})
	}
}
