# make_goldens.R writes the golden files that mcmcdiag's tests compare
# against: the draws of each test case (draws/<case>.csv) and the
# diagnostics that R's posterior package computes from them (expected.csv),
# plus posterior's autocovariance of a few sequences (autocovariance.csv).
#
# Generated with R 4.2.2 Patched (2022-11-10 r83330), posterior 1.4.0,
# matrixStats 0.63.0, RNGkind Mersenne-Twister / Inversion / Rejection.
#
# Run from this directory:  Rscript make_goldens.R
# The Go tests only read the files this script writes; they never run R.
#
# Layout of draws/<case>.csv: a header "chain1,...,chainM", then one row per
# iteration, one column per chain, every value printed with 17 significant
# digits so that it parses back to the same double. expected.csv has one
# row per case; NA marks a value posterior returns as NA.

suppressPackageStartupMessages(library(posterior))
stopifnot(packageVersion("posterior") == "1.4.0")
RNGkind("Mersenne-Twister", "Inversion", "Rejection")
ns <- asNamespace("posterior")

ar1 <- function(n, rho) {
  x <- numeric(n)
  x[1] <- rnorm(1, sd = 1 / sqrt(1 - rho^2))
  for (t in seq_len(n)[-1]) x[t] <- rho * x[t - 1] + rnorm(1)
  x
}
chains <- function(m, n, gen) {
  matrix(unlist(lapply(seq_len(m), function(j) gen(n))), nrow = n, ncol = m)
}

# Each case: name, seed, and a function returning an iterations x chains matrix.
cases <- list(
  list("iid_1x100", 1, function() chains(1, 100, rnorm)),
  list("iid_1x1000", 2, function() chains(1, 1000, rnorm)),
  list("iid_2x101", 3, function() chains(2, 101, rnorm)),
  list("iid_4x100", 4, function() chains(4, 100, rnorm)),
  list("iid_4x101", 5, function() chains(4, 101, rnorm)),
  list("iid_4x1000", 6, function() chains(4, 1000, rnorm)),
  list("ar09_1x1000", 7, function() chains(1, 1000, function(n) ar1(n, 0.9))),
  list("ar09_4x100", 8, function() chains(4, 100, function(n) ar1(n, 0.9))),
  list("ar09_4x1000", 9, function() chains(4, 1000, function(n) ar1(n, 0.9))),
  list("ar099_2x101", 10, function() chains(2, 101, function(n) ar1(n, 0.99))),
  list("ar099_4x1000", 11, function() chains(4, 1000, function(n) ar1(n, 0.99))),
  list("arneg09_4x1000", 12, function() chains(4, 1000, function(n) ar1(n, -0.9))),
  list("shift_4x100", 13, function() chains(4, 100, rnorm) +
         matrix(rep(c(0, 0, 0, 2), each = 100), 100, 4)),
  list("shift_2x1000", 14, function() chains(2, 1000, rnorm) +
         matrix(rep(c(0, 0.5), each = 1000), 1000, 2)),
  list("scale_4x1000", 15, function() chains(4, 1000, rnorm) *
         matrix(rep(c(1, 1, 1, 3), each = 1000), 1000, 4)),
  list("cauchy_4x100", 16, function() chains(4, 100, rcauchy)),
  list("cauchy_4x1000", 17, function() chains(4, 1000, rcauchy)),
  list("t15_2x101", 18, function() chains(2, 101, function(n) rt(n, df = 1.5))),
  list("trend_1x1000", 19, function() chains(1, 1000, rnorm) +
         matrix(seq(0, 3, length.out = 1000), 1000, 1)),
  list("pois_4x100", 20, function() chains(4, 100, function(n) rpois(n, 1.5))),
  list("bern_4x1000", 21, function() chains(4, 1000, function(n) rbinom(n, 1, 0.03))),
  list("round_2x101", 22, function() round(chains(2, 101, rnorm), 1)),
  list("const_4x100", 23, function() matrix(2.5, 100, 4)),
  list("const_1x100", 24, function() matrix(-1, 100, 1)),
  list("stuck_4x100", 25, function() matrix(rep(1:4, each = 100), 100, 4)),
  list("oneconst_4x100", 26, function() cbind(chains(3, 100, rnorm), rep(0.5, 100))),
  list("tiny_4x100", 27, function() chains(4, 100, rnorm) * 1e-20),
  list("inf_4x100", 28, function() { x <- chains(4, 100, rnorm); x[5, 2] <- Inf; x }),
  list("nan_4x100", 29, function() { x <- chains(4, 100, rnorm); x[7, 3] <- NaN; x }),
  list("short_1x4", 30, function() chains(1, 4, rnorm)),
  list("short_1x7", 31, function() chains(1, 7, rnorm)),
  list("short_4x5", 32, function() chains(4, 5, rnorm)),
  list("short_4x6", 33, function() chains(4, 6, rnorm)),
  list("short_2x13", 34, function() chains(2, 13, rnorm)),
  list("single_1x1", 35, function() chains(1, 1, rnorm)),
  list("single_4x1", 36, function() chains(4, 1, rnorm))
)

fmt <- function(v) ifelse(is.na(v) & !is.nan(v), "NA",
                          ifelse(is.nan(v), "NaN", sprintf("%.17g", v)))
q <- function(x, p) suppressWarnings(unname(ess_quantile(x, p)))
rows <- list()
for (cs in cases) {
  name <- cs[[1]]
  set.seed(cs[[2]])
  x <- as.matrix(cs[[3]]())
  m <- ncol(x)
  body <- apply(x, 1, function(r) paste(fmt(r), collapse = ","))
  writeLines(c(paste0("chain", seq_len(m), collapse = ","), body),
             file.path("draws", paste0(name, ".csv")))
  # The inputs must round-trip exactly through the text file.
  back <- as.matrix(read.csv(file.path("draws", paste0(name, ".csv"))))
  stopifnot(identical(unname(back), unname(x)) || all(is.na(back) == is.na(x) &
            (is.na(x) | back == x)))
  w <- function(e) suppressWarnings(e)
  rows[[name]] <- c(
    case = name,
    rhat = fmt(w(rhat(x))),
    rhat_bulk = fmt(w(ns$.rhat(ns$z_scale(ns$.split_chains(x))))),
    rhat_tail = fmt(w(ns$.rhat(ns$z_scale(ns$.split_chains(ns$fold_draws(x)))))),
    rhat_basic = fmt(w(rhat_basic(x))),
    ess_bulk = fmt(w(ess_bulk(x))),
    ess_tail = fmt(w(ess_tail(x))),
    ess_q05 = fmt(q(x, 0.05)),
    ess_q95 = fmt(q(x, 0.95)),
    ess_q0 = fmt(q(x, 0)),
    ess_q50 = fmt(q(x, 0.5)),
    ess_q100 = fmt(q(x, 1)),
    ess_basic = fmt(w(ess_basic(x))),
    ess_mean = fmt(w(ess_mean(x)))
  )
}
out <- do.call(rbind, rows)
write.table(out, "expected.csv", sep = ",", quote = FALSE, row.names = FALSE)

# Autocovariance: posterior's internal estimate, lag 0 to N-1.
set.seed(100)
seqs <- list(ar09_50 = ar1(50, 0.9), iid_7 = rnorm(7), ar05_101 = ar1(101, 0.5))
lines <- c("name,lag,x,acov")
for (nm in names(seqs)) {
  x <- seqs[[nm]]
  a <- ns$autocovariance(x)
  lines <- c(lines, sprintf("%s,%d,%s,%s", nm, seq_along(x) - 1L, fmt(x), fmt(a)))
}
writeLines(lines, "autocovariance.csv")
