package experiments

import (
	"fmt"

	"github.com/bnmf-lab/bnmf/bnmf"
)

// needsCounts reports whether cfg lists a model with a Poisson likelihood,
// whose data must be counts (dataset.Options.Counts).
func (c *Config) needsCounts() bool {
	for _, m := range c.Models {
		if s, ok := bnmf.Lookup(m.Name); ok && s.Family == bnmf.Poisson {
			return true
		}
	}
	return false
}

// validateCounts refuses a model with a Poisson likelihood in a noise
// study, whose Gaussian noise makes the data real-valued, and in a study
// that standardizes the data, which makes counts fractions.
func (c *Config) validateCounts() error {
	if c.Kind != KindNoise && !c.Standardize {
		return nil
	}
	why := "a noise study adds Gaussian noise to the data"
	if c.Kind != KindNoise {
		why = "standardize: true divides the data by their standard deviation"
	}
	for i, m := range c.Models {
		if s, ok := bnmf.Lookup(m.Name); ok && s.Family == bnmf.Poisson {
			return c.errorf(fmt.Sprintf("models[%d].name", i), "%s has a Poisson likelihood and needs counts, but %s", m.Name, why)
		}
	}
	return nil
}
