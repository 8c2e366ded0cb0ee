package experiments

import "fmt"

// checkTestEntries refuses a split at fraction unobserved f that leaves no
// test entries: its held-out MSE would be stored as 0 and ranked as the
// best. The training set takes exactly round((1 - f) M N) of the data's n
// observed entries, whatever the seed, so one split tells for every
// repeat. key names the config key that set f: a fraction, or a noise
// study's noise_holdout.
func (p *Plan) checkTestEntries(key string, f float64, train, test int) error {
	if test > 0 {
		return nil
	}
	d := p.data
	n := train + test
	grid := d.Rows * d.Cols
	entries := fmt.Sprintf("%d observed %s", n, countNoun(n, "entry", "entries"))
	if key == "noise_holdout" {
		h := p.Config.NoiseHoldout
		// round((1 - h) n) <= n - 1 exactly when h > 1/(2n) (halves round up).
		advice := "the data has too few entries to hold any out"
		if n > 1 {
			advice = fmt.Sprintf("a noise_holdout above %.6g holds out at least one", 0.5/float64(n))
		}
		return p.Config.errorf(key, "noise_holdout %v holds out none of the %s of %s: training takes round((1 - %v) x %d) = %d of them; %s",
			h, entries, d.Name, h, n, train, advice)
	}
	// round((1 - f) M N) <= n - 1 exactly when f > 1 - (n - 1/2)/(M N).
	advice := "the data has too few entries to hold any out"
	if n > 1 {
		advice = fmt.Sprintf("a fraction above %.6g holds out at least one", 1-(float64(n)-0.5)/float64(grid))
	}
	return p.Config.errorf(key, "fraction unobserved %v leaves no test entries in %s: the %d x %d grid has %s, "+
		"and training takes round((1 - %v) x %d) = %d of them; %s", f, d.Name, d.Rows, d.Cols, entries, f, grid, train, advice)
}

// countNoun returns one when n is 1 and many otherwise.
func countNoun(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
