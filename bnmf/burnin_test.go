package bnmf

import (
	"slices"
	"testing"
)

// TestBurnInRule checks the burn-in rule on settings as written and as
// resolved: the counts, and which sweeps are kept, listed by hand.
func TestBurnInRule(t *testing.T) {
	cases := []struct {
		name           string
		s              Settings
		burnIn, kept   int
		firstKept      []int // the first kept sweeps
		resolvedBurnIn int   // Settings.BurnIn after resolving
	}{
		{"defaults", Settings{}, 400, 100, []int{401, 402, 403}, 400},
		{"default burn-in", Settings{Sweeps: 10}, 8, 2, []int{9, 10}, 8},
		{"default burn-in rounds down", Settings{Sweeps: 9}, 7, 2, []int{8, 9}, 7},
		{"none", Settings{Sweeps: 6, BurnIn: NoBurnIn}, 0, 6, []int{1, 2, 3}, NoBurnIn},
		{"any negative is none", Settings{Sweeps: 6, BurnIn: -7}, 0, 6, []int{1, 2, 3}, NoBurnIn},
		{"given", Settings{Sweeps: 20, BurnIn: 10}, 10, 10, []int{11, 12, 13}, 10},
		{"thinned", Settings{Sweeps: 20, BurnIn: 10, Thin: 3}, 10, 3, []int{13, 16, 19}, 10},
		{"thinned without burn-in", Settings{Sweeps: 7, BurnIn: NoBurnIn, Thin: 2}, 0, 3, []int{2, 4, 6}, NoBurnIn},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, err := Settings{Rank: 1}.withChain(c.s).resolved()
			if err != nil {
				t.Fatal(err)
			}
			if r.BurnIn != c.resolvedBurnIn {
				t.Errorf("resolved BurnIn %d, want %d", r.BurnIn, c.resolvedBurnIn)
			}
			for _, s := range []Settings{c.s, r} {
				if got := s.BurnInSweeps(); got != c.burnIn {
					t.Errorf("%+v: BurnInSweeps %d, want %d", s.BurnIn, got, c.burnIn)
				}
				if got := s.KeptSweeps(); got != c.kept {
					t.Errorf("%+v: KeptSweeps %d, want %d", s.BurnIn, got, c.kept)
				}
				var kept []int
				for sweep := 0; sweep <= s.sweepsOrDefault()+1; sweep++ {
					if s.IsKept(sweep) {
						kept = append(kept, sweep)
					}
				}
				if len(kept) != c.kept || !slices.Equal(kept[:len(c.firstKept)], c.firstKept) {
					t.Errorf("%+v: kept sweeps %v, want %d of them starting %v", s.BurnIn, kept, c.kept, c.firstKept)
				}
			}
		})
	}
}

// withChain returns s with the sweeps, burn-in and thinning of c.
func (s Settings) withChain(c Settings) Settings {
	s.Sweeps, s.BurnIn, s.Thin = c.Sweeps, c.BurnIn, c.Thin
	return s
}
