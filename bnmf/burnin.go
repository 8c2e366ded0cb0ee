package bnmf

// The burn-in rule. Settings.BurnIn is read in one place, here: zero
// means DefaultBurnIn of the sweeps, a negative value (NoBurnIn) none, a
// positive value that many sweeps. Every layer above maps its own
// convention onto it in one line (a study's burn_in: 0 means none and
// becomes NoBurnIn; fit's --burn-in -1 means the default and becomes 0),
// and every reader of a run's settings asks BurnInSweeps, KeptSweeps and
// IsKept rather than repeating the rule.

// DefaultSweeps is the number of sweeps that a Settings.Sweeps of zero
// means: 500, the paper's choice.
const DefaultSweeps = 500

// NoBurnIn is the Settings.BurnIn that discards no sweep.
const NoBurnIn = -1

// DefaultBurnIn returns the burn-in that a Settings.BurnIn of zero means
// for a chain of sweeps sweeps: four fifths of them, rounded down (400 of
// 500, the paper's choice).
func DefaultBurnIn(sweeps int) int { return sweeps * 4 / 5 }

// sweepsOrDefault is s.Sweeps with its default, DefaultSweeps, for zero.
func (s Settings) sweepsOrDefault() int {
	if s.Sweeps == 0 {
		return DefaultSweeps
	}
	return s.Sweeps
}

// thinOrDefault is s.Thin with its default, 1, for zero.
func (s Settings) thinOrDefault() int {
	if s.Thin == 0 {
		return 1
	}
	return s.Thin
}

// BurnInSweeps returns how many initial sweeps s discards: s.BurnIn when
// positive, none when negative, DefaultBurnIn of the sweeps when zero. It
// reads a zero Sweeps as its default, 500, so that it gives the same
// answer for settings as written and as a Result holds them.
func (s Settings) BurnInSweeps() int {
	switch {
	case s.BurnIn > 0:
		return s.BurnIn
	case s.BurnIn < 0:
		return 0
	}
	return DefaultBurnIn(s.sweepsOrDefault())
}

// KeptSweeps returns how many sweeps of a Bayesian model's chain enter
// its posterior summaries under s: every Thin-th of those after the
// burn-in, (Sweeps - BurnInSweeps()) / Thin. It is 0 for settings that
// Run rejects because they keep none.
func (s Settings) KeptSweeps() int {
	return max(0, s.sweepsOrDefault()-s.BurnInSweeps()) / s.thinOrDefault()
}

// IsKept reports whether sweep (counted from 1) of a Bayesian model's
// chain enters its posterior summaries under s: it comes after the
// burn-in and is a multiple of Thin sweeps past it.
func (s Settings) IsKept(sweep int) bool {
	b := s.BurnInSweeps()
	return sweep > b && sweep <= s.sweepsOrDefault() && (sweep-b)%s.thinOrDefault() == 0
}
