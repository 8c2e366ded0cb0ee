// Package bnmf implements Gibbs samplers for Bayesian nonnegative matrix
// factorisation (NMF) with a Gaussian likelihood, following Lu and Ye,
// "Flexible and Hierarchical Prior for Bayesian Nonnegative Matrix
// Factorization" (2022), and the non-probabilistic Lee-Seung baseline.
//
// An observed M x N matrix A (rows are users, columns are items) is modelled
// as A = W Z + E with W (M x K) and Z (K x N) nonnegative and E Gaussian
// noise with variance sigma^2. Only the observed entries, held in a sparse
// Matrix, enter the likelihood. The models differ in the priors on W and Z:
//
//   - GEE: exponential priors (Schmidt et al. 2009);
//   - GTT: truncated-normal priors (Brouwer and Lio 2017);
//   - GTTN: truncated-normal priors with a per-entry hierarchical
//     TN-scaled-normal-Gamma prior on their parameters;
//   - GRRN: rectified-normal priors with a per-entry hierarchical
//     RN-scaled-normal-Gamma prior (the paper's proposal);
//   - NMF: Lee-Seung multiplicative updates restricted to observed entries;
//   - GGG, GGGA, GGGW: real-valued Gaussian priors on the rows of W and Z,
//     fixed (GGG), with a precision per latent dimension (GGGA) or with
//     Normal-inverse-Wishart hyperpriors (GGGW, BPMF), each row drawn from
//     its multivariate Gaussian conditional (Brouwer and Lio 2017). Their
//     factors, unlike the others', may be negative (Spec.RealValued).
//
// PGG and PGGG (Brouwer and Lio 2017) model counts instead: a_mn ~
// Poi(w_m . z_n) with Gamma priors (PGGG: with Gamma hyperpriors on each
// row's and column's rate), sampled by splitting each count over the K
// factors; a Spec's Family says which likelihood a model has.
//
// Every Gaussian-likelihood model takes offsets as an option (Biased,
// WithBiases, named with BiasSuffix: "GRRN+b"): A = mu + b 1^T + 1 c^T +
// W Z + E, with normal priors on mu, the row offsets b and the column
// offsets c, Gamma hyperpriors on the offsets' precisions, all drawn
// inside the model's own sweep (Offsets states the defaults).
//
// Gamma densities are written with shape and rate throughout:
// Gamma(x | alpha, beta) = beta^alpha / Gamma(alpha) x^(alpha-1) exp(-beta x).
// The inverse-Gamma prior on sigma^2 is InvGamma(alpha, beta) with shape
// alpha and scale beta, so that 1/sigma^2 ~ Gamma(alpha, beta).
//
// Run drives any Model for a number of sweeps and returns per-sweep
// statistics, posterior predictive summaries for held-out entries and the
// posterior means of W and Z. Every random draw derives from Settings.Seed;
// each row of W (and each column of Z) gets its own stream keyed by seed,
// sweep and row, so results are bit-for-bit identical for any number of
// workers.
//
// The package does no file I/O.
package bnmf
