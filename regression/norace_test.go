//go:build !race

package regression

// raceEnabled reports whether the tests run under the race detector.
const raceEnabled = false
