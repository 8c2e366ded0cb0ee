//go:build !linux

package bnmf

// backWithHugePages does nothing outside Linux; see its Linux version.
func backWithHugePages([]float64) {}
