package bnmf

import (
	"fmt"
	"math"
)

// positive checks that a hyperparameter is positive and finite.
func positive(model, field string, v float64) error {
	if !(v > 0) || math.IsInf(v, 0) {
		return fmt.Errorf("bnmf: %s.%s is %v; it must be positive and finite", model, field, v)
	}
	return nil
}

// orDefault returns v, or def when v is zero.
func orDefault(v, def float64) float64 {
	if v == 0 {
		return def
	}
	return v
}
