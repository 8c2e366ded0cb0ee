//go:build !linux

package atomicfile

import "fmt"

// exchange cannot be done atomically here.
func exchange(a, b string) error {
	return fmt.Errorf("exchanging %s and %s: %w", a, b, ErrNoExchange)
}
