package predictive

// Family is the distribution family of a predictive mixture's components.
type Family int

const (
	// Normal components N(mu_s, sigma2_s): Mixture, Accumulator.Add.
	Normal Family = iota
	// Poisson components Poi(rate_s) of a count: PoissonMixture,
	// Accumulator.AddPoisson.
	Poisson
)

// String returns "normal" or "poisson".
func (f Family) String() string {
	switch f {
	case Normal:
		return "normal"
	case Poisson:
		return "poisson"
	}
	return "unknown"
}
