//go:build !race

package bnmf

// raceEnabled reports whether the tests run under the race detector.
const raceEnabled = false
