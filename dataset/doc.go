// Package dataset loads, cleans, splits and perturbs the rating matrices
// used in the experiments of Lu and Ye, "Flexible and Hierarchical Prior
// for Bayesian Nonnegative Matrix Factorization" (2022).
//
// Loaders stream MovieLens files (100K u.data; 1M and 10M ratings.dat;
// 20M, 25M and latest ratings.csv) and users' own matrices as row, column,
// value triplets or MatrixMarket coordinate files. A malformed line, a
// duplicate (row, column) pair, a non-finite or a negative value is an
// error that names the file, the line and the field; see ParseError.
//
// Open applies the paper's cleaning to MovieLens data (Section 5, Table 1):
// users and movies with fewer than 3 ratings are removed, first rows, then
// columns, then rows again, and the survivors are indexed by their sorted
// original identifiers. On MovieLens 100K this leaves 943 x 1473 with
// 99,723 ratings; on MovieLens 1M, 6040 x 3503 with 999,917.
//
// Open also loads the drug-sensitivity matrices of Brouwer and Lio (2017),
// gdsc-ic50, ccle-ic50 and ccle-ec50, from the files of that paper's public
// repository at a pinned commit (see drugsensitivity.go for their
// conventions, and for the subnormal values of CCLE EC50, read as
// missing). Upstream cleans MovieLens 100K and 1M as Open does, so those
// matrices are the same in both papers.
//
// Fetch downloads the official GroupLens archives, or upstream's
// drug-sensitivity files, into the data directory (DataDir), checks them
// against pinned digests and installs them. SplitUnobserved and
// KFold draw training and test sets, AddNoise perturbs ratings for the
// noise-sensitivity study, and Synthetic generates a small low-rank matrix
// that needs no download.
//
// Every random draw comes from a math/rand/v2 source given by the caller.
// The package does no plotting; report renders its summaries.
package dataset
