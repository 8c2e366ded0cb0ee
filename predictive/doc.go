// Package predictive scores posterior predictive distributions of held-out
// entries against observed values, streaming over posterior samples.
//
// A sampler that keeps S posterior samples predicts, for a held-out entry,
// the equal-weight mixture over samples s of N(mu_s, sigma2_s), with mu_s
// the sample's prediction for the entry and sigma2_s its noise variance.
// Mixture computes everything about one such mixture directly from all its
// components. Accumulator computes the same for every test entry at once,
// fed one sample at a time by Add, and Finish turns the sums into per-entry
// results and their means over entries (a Result):
//
//   - central predictive intervals at the given levels (0.5, 0.8, 0.9 and
//     0.95 by default): quantiles of the mixture found by a root-finder on
//     its CDF (Mixture.Quantile), not a normal approximation; the
//     moment-matched normal interval is offered separately
//     (Mixture.GaussianInterval, Result.GaussianInterval);
//   - the log predictive density at the observed y,
//     log((1/S) sum_s N(y | mu_s, sigma2_s)), summed without underflow;
//   - the CRPS in the closed form for normal mixtures of Grimit, Gneiting,
//     Berrocal and Johnson (2006, QJRMS 132);
//   - the PIT, F(y) = (1/S) sum_s Phi((y - mu_s)/sigma_s), and from it the
//     coverage of each interval: y lies in the central level-a interval
//     exactly when F(y) lies in [(1-a)/2, (1+a)/2].
//
// # What is exact
//
// Each entry's mean and variance, PIT (hence coverage), log density and
// the first CRPS term, (1/S) sum_s A(y - mu_s, sigma2_s), are running sums
// over all S samples, updated in O(1) per entry and sample. The interval
// ends and the CRPS pair term, (1/(2 S^2)) sum_(s,t) A(mu_s - mu_t,
// sigma2_s + sigma2_t), need all samples at once; they come from a buffer
// of B samples per entry (Settings.Buffer, 20 by default), chosen
// deterministically as the first of B equal runs of the S samples. When
// B >= S the buffer holds every sample and every result is exact.
//
// When B < S the intervals and the pair term are those of a proxy mixture:
// the B kept predictions, shifted and scaled so that their mean and
// variance equal the exact running ones over all S samples, with the kept
// noise variances scaled so that their mean equals the exact mean over all
// samples (the proxy's mean and variance are then exact). The pair term of
// the proxy then matches the exact one to second order in (mu_s -
// mu_t)/sigma (A(m, v) = sqrt(v) (2 phi(0) + phi(0) m^2/v + O(m^4/v^2))),
// and its leading sqrt(v) part, which does not depend on the entry, is
// replaced by the exact sum over all samples. On synthetic posteriors with
// S = 100 whose predictions move between samples by 0.1 to 0.5 noise
// standard deviations (AR(1), autocorrelation 0.5, noise variances varying
// by 1%; TestProxyAccuracy), B = 20 gives per-entry relative errors of
// 2.0e-4 on average (4.4e-3 at most) in the CRPS and 2.9e-4 (6.3e-3) in
// the width of the 0.95 interval, and errors of -4e-5 and -8e-5 in their
// means over entries; the same buffer used as it is had errors of 1.4e-2
// (0.15) and 9.7e-3 (7.7e-2) per entry, +3.3e-3 and -3.5e-3 in the means.
// With predictions moving by up to 1.5 noise standard deviations the
// proxy's errors grow to 4.1e-3 (9.4e-2) and 9.8e-3 (0.12) per entry and
// -5e-4 and -1.6e-3 in the means; B = 50 halves the per-entry errors.
//
// # Cost
//
// The exact pair term costs S(S-1)/2 kernel evaluations per entry, and
// Finish on a buffer of B samples B(B-1)/2: with S = 100, B = 20 cuts the
// pair term 26-fold. Add costs O(T) per entry and sample for T targets.
// On the MovieLens 100K shape with GRRN at K = 50, over a run of 500
// sweeps keeping 100, the default scores add a few percent to the
// sampling, where B = S would add about a third, most of it the exact pair
// term (the README's Speed section gives the measurements). Hence the
// default B = 20.
//
// Add evaluates Phi and phi from a table of Taylor polynomials (accurate
// to 2e-16 and 1e-15 absolute; TestNormalTable), and the density for the
// log-sum-exp from the same table when |y - mu_s| <= 4 sigma_s (6e-14
// relative), from math.Exp otherwise. The quantile search (see
// Mixture.Quantile) stops when Newton's error estimate is below
// Settings.Tol (default 1e-6) predictive standard deviations, and takes
// about one CDF evaluation per interval end from its Cornish-Fisher start.
//
// # Memory
//
// An Accumulator holds n (B + 2 + 6T) float64s for n entries and T target
// vectors: 27.2 MB for n = 1e5, B = 20 and T = 2, and 272 MB for n = 1e6.
//
// # Pooling chains
//
// Give each chain its own Accumulator and pool them with Merge, which
// combines the running sums exactly (Chan et al.'s update for the variance,
// rescaled log-sum-exps) and concatenates the buffers. Floating-point sums
// depend on the order of the parts; Merge combines them in the order given,
// so merging chains in a fixed order (by chain index) makes the result
// reproducible bit for bit, whatever the number of workers. Finish's
// Workers setting never changes its result: each entry is computed alone
// and the means over entries are summed in entry order.
//
// # Counts
//
// With Settings.Family Poisson the components are Poisson distributions
// of a count, Poi(rate_s), fed by AddPoisson; PoissonMixture is the direct
// reference. The log density becomes the log probability mass, the CRPS
// the sum over counts x of (F(x) - 1{x >= y})^2, computed as (1/S) sum_s
// E|X_s - y| in closed form minus the pair term sum_x F(x)(1 - F(x)) of
// the buffered mixture, and the central interval at level a runs from the
// smallest count with F >= (1-a)/2 to the smallest with F >= (1+a)/2, so
// that it holds at least a of the probability. Scores.PITLeft gives
// F(y-1) beside the PIT F(y). See poisson_accumulator.go for the buffer.
//
// # Several targets
//
// New takes one or more target vectors (say the noisy and the clean test
// values of a noise study). The buffer, the intervals and the pair term are
// shared; only the PIT, log density and CRPS first term are kept per
// target.
package predictive
