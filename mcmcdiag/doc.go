// Package mcmcdiag computes convergence diagnostics for Markov chain Monte
// Carlo draws: the rank-normalised split-R-hat and the bulk, tail and
// quantile effective sample sizes (ESS) of Vehtari, Gelman, Simpson,
// Carpenter and Bürkner (2021), "Rank-normalization, folding, and
// localization: an improved R-hat for assessing convergence of MCMC",
// Bayesian Analysis 16(2), 667-718.
//
// The functions reproduce the reference implementation, R's posterior
// package (version 1.4.0), to within rounding: the test suite compares them
// with posterior's own output on committed draws to a relative error of
// 1e-6 (testdata/make_goldens.R makes those files).
//
// # Input
//
// Draws of one scalar quantity are passed as chains x iterations:
// chains[j][t] is draw t of chain j. Every chain must have the same length,
// and there must be at least one chain with at least one draw; ragged or
// empty input is a programmer error and makes every function panic with a
// message starting "mcmcdiag:". Warm-up draws must already be removed.
//
// # Splitting
//
// All diagnostics work on split chains: each chain of n draws becomes two
// chains holding its first floor(n/2) and last floor(n/2) draws. With an
// odd n the middle draw is dropped, as posterior does. A single chain is
// therefore still diagnosed, by comparing its two halves. A chain of one
// draw is not split.
//
// # Undefined values
//
// Where posterior returns NA the functions here return NaN:
//
//   - constant draws (largest minus smallest below 2^-52, an absolute
//     tolerance, as posterior's is_constant);
//   - any NaN among the draws;
//   - fewer than 2 draws per split chain for an R-hat (n < 4), fewer than 3
//     for an ESS (n < 6);
//   - for ESSQuantile, ESSTail, RHatBasic and ESSBasic, any infinite draw.
//     The rank-based RHat and ESSBulk accept infinite draws, since only
//     their ranks matter.
//
// ESSQuantile(p) is also NaN when every draw is at or below the
// p-quantile, which discrete draws can produce (for example 0/1 draws with
// p = 1).
//
// # Cost
//
// For m chains of n draws (S = m*n), each rank normalisation sorts all
// draws, O(S log S). Each ESS sums the autocovariances of the first 32
// lags directly, O(32 S), which suffices for chains whose autocorrelation
// dies out by then; longer sequences use a real FFT of length
// 2*nextn(n/2) per split chain, O(S log n). Memory is O(S). Summarize does
// all of this once per quantity (the README's Speed section gives a
// measured time). A Workspace keeps the buffers and FFT plan between
// calls, so that repeated use does not allocate.
//
// # Differences from posterior
//
// The results equal posterior 1.4.0's up to rounding, with one exception:
// with several chains of 2 or 3 draws, posterior's chain splitting drops a
// matrix dimension and it returns numbers computed from transposed draws;
// here, as posterior does for a single chain, R-hat and ESS are NaN.
// The documentation of later posterior versions says they return NA when
// any single chain is constant; 1.4.0, followed here, returns a number as
// long as the draws as a whole vary (golden case oneconst_4x100).
package mcmcdiag
