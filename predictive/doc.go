// Package predictive scores posterior predictive distributions of held-out
// entries: equal-weight mixtures of normals N(mu_s, sigma2_s) over posterior
// samples s, fed one sample at a time.
package predictive
