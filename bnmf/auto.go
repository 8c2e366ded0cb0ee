package bnmf

import (
	"context"
	"errors"
	"fmt"
	"sync"
)

// AutoSweeps makes RunChains choose how many sweeps its chains run,
// instead of Settings.Sweeps: they run in blocks, and after each block a
// stopping rule (Stop) looks at what they would return if they stopped
// there and says whether they have run enough; MaxSweeps caps them.
//
// Burn-in is the first half of the sweeps run, Stan's warm-up convention:
// a chain stopped after N sweeps keeps sweeps N/2+1 to N (every Thin-th),
// and its Result is exactly that of Run with Sweeps N and BurnIn N/2,
// which its Result.Settings hold (without Auto). So
// that the kept half is always whole blocks, each block is as long as
// every sweep before it: the checks come after the sweeps that
// AutoCheckpoints lists, MaxSweeps halved until the next halving would
// fall below 100, and a chain runs at most twice the sweeps it needed.
// Block boundaries do not change the draws: a chain stopped after N sweeps
// equals one run straight to N.
//
// NMF and the baselines have no posterior to converge; they ignore Auto
// and run Settings.Sweeps.
type AutoSweeps struct {
	// MaxSweeps caps the sweeps of each chain; at least MinAutoSweeps.
	MaxSweeps int
	// Stop is the stopping rule, asked after every block but the last;
	// it is required.
	Stop Stopper
}

// Stopper decides whether chains that RunChains runs with Settings.Auto
// have run enough.
type Stopper interface {
	// Stop receives the results the chains would return if they stopped
	// now: each chain's Result as Run with Sweeps the sweeps run so far
	// and BurnIn half of them returns it, and a nil Pooled. It returns
	// true to stop them there. An error stops RunChains with that error.
	Stop(*Chains) (bool, error)
}

// StopFunc adapts a function to a Stopper.
type StopFunc func(*Chains) (bool, error)

// Stop calls f.
func (f StopFunc) Stop(c *Chains) (bool, error) { return f(c) }

// DrawRestarter is implemented by a DrawRecorder that can discard what it
// has received, which Settings.Auto needs: a chain that runs on keeps only
// the sweeps of its last block, so before each block RunChains calls
// RestartDraws with the chain's index and the number of draws the block
// will send if it is the last, and the chain's earlier draws are no
// longer kept.
type DrawRestarter interface {
	RestartDraws(chain, kept int) error
}

// firstAutoCheck is the fewest sweeps after which AutoCheckpoints checks,
// unless MaxSweeps is fewer.
const firstAutoCheck = 100

// MinAutoSweeps is the smallest AutoSweeps.MaxSweeps: a chain of 4
// sweeps keeps 2, the fewest for which a split R-hat is defined on two
// chains.
const MinAutoSweeps = 4

// AutoCheckpoints returns, in increasing order, the sweeps after which
// RunChains with AutoSweeps.MaxSweeps maxSweeps asks whether its chains
// have run enough: maxSweeps, maxSweeps/2, maxSweeps/4, ... (integer
// halvings) down to the last that is not below 100, or maxSweeps alone
// when that is below 200. Each is twice the one before, rounded down, so
// the second half of a chain is the last block run.
func AutoCheckpoints(maxSweeps int) []int {
	if maxSweeps < 1 {
		return nil
	}
	var out []int
	for n := maxSweeps; ; n /= 2 {
		out = append(out, n)
		if n/2 < firstAutoCheck {
			break
		}
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// validateAuto checks s.Auto against the settings as given.
func (s Settings) validateAuto() error {
	a := s.Auto
	switch {
	case a.MaxSweeps < MinAutoSweeps || a.MaxSweeps > MaxSweeps:
		return fmt.Errorf("bnmf: Settings.Auto.MaxSweeps is %d; it must be between %d and MaxSweeps, %d", a.MaxSweeps, MinAutoSweeps, MaxSweeps)
	case a.Stop == nil:
		return errors.New("bnmf: Settings.Auto needs a Stop rule")
	case s.BurnIn != 0:
		return fmt.Errorf("bnmf: Settings.BurnIn is %d; with Settings.Auto the burn-in is half the sweeps run, and BurnIn must be 0", s.BurnIn)
	case s.Draws != nil:
		if _, ok := s.Draws.(DrawRestarter); !ok {
			return errors.New("bnmf: Settings.Auto needs a Settings.Draws that implements DrawRestarter")
		}
	}
	first := AutoCheckpoints(a.MaxSweeps)[0]
	if s.Thin > 0 && (first-first/2)/s.Thin == 0 {
		return fmt.Errorf("bnmf: Settings.Thin %d keeps none of the %d sweeps of the first block of Settings.Auto", s.Thin, first-first/2)
	}
	return nil
}

// blockSettings returns the resolved settings s of a chain stopped after
// n sweeps under Settings.Auto: n sweeps with a burn-in of n/2, and no
// Auto, so that they run again as the chain ran.
func blockSettings(s Settings, n int) Settings {
	s.Sweeps, s.BurnIn, s.Auto = n, n/2, nil
	if s.BurnIn == 0 {
		s.BurnIn = NoBurnIn
	}
	return s
}

// runAuto is RunChains with s.Auto for a Bayesian model: it runs the n
// chains block by block, parallel of them at once with perChain workers
// each, until s.Auto.Stop says stop or MaxSweeps is reached. Every chain
// is held in memory from the first block to the last.
func runAuto(ctx context.Context, model Model, train *Matrix, s Settings, n, parallel, perChain int) ([]*Result, error) {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var mu sync.Mutex
	states := make([]*runState, n)
	defer func() {
		for _, r := range states {
			if r != nil {
				r.close()
			}
		}
	}()
	results := make([]*Result, n)
	checks := AutoCheckpoints(s.Auto.MaxSweeps)
	for b, sweeps := range checks {
		bs := blockSettings(s, sweeps)
		err := eachChain(ctx, n, parallel, func(c int) error {
			cs := chainSettings(bs, c, perChain, &mu)
			if d, ok := cs.Draws.(DrawRestarter); ok {
				mu.Lock()
				err := d.RestartDraws(c, cs.KeptSweeps())
				mu.Unlock()
				if err != nil {
					return fmt.Errorf("bnmf: draw recorder: %w", err)
				}
			}
			var err error
			if b == 0 {
				states[c], err = startRun(model, train, cs)
				if err == nil {
					states[c].deferScores = true // finished once the chains stop
				}
			} else {
				err = states[c].extend(cs)
			}
			if err == nil {
				err = states[c].advance(ctx, sweeps)
			}
			if err == nil {
				results[c], err = states[c].result()
			}
			return err
		})
		if err != nil {
			return nil, err
		}
		if b == len(checks)-1 {
			break
		}
		stop, err := s.Auto.Stop.Stop(&Chains{Results: results})
		if err != nil {
			return nil, fmt.Errorf("bnmf: the stopping rule after %d sweeps: %w", sweeps, err)
		}
		if stop {
			break
		}
		results = make([]*Result, n)
	}
	if n == 1 && results[0].scoring != nil {
		var err error
		if results[0].Scores, err = results[0].scoring.Finish(); err != nil {
			return nil, fmt.Errorf("%s: scoring the predictions: %w", model.Name(), err)
		}
	}
	return results, nil
}
