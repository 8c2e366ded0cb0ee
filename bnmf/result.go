package bnmf

import (
	"gonum.org/v1/gonum/mat"

	"github.com/bnmf-lab/bnmf/predictive"
)

// Result is what Run returns for one chain.
type Result struct {
	// Model is the name of the model that ran.
	Model string
	// Settings are the settings the run used, defaults filled in.
	Settings Settings

	// Trace holds the statistics of every sweep, in order.
	Trace []SweepStats
	// Kept is the number of sweeps that entered the posterior summaries.
	Kept int
	// PointEstimate reports that the model is an optimiser or a rule (NMF,
	// the baselines) whose final state is its estimate, not a sampler.
	PointEstimate bool
	// Family is the model's likelihood family (Gaussian, or Poisson for a
	// model whose chains have no sigma^2).
	Family Family

	// TrainMSE is the training MSE of the final sample.
	TrainMSE float64
	// Sigma2Mean is the posterior mean of sigma^2 over the kept sweeps (0 for
	// NMF and the Poisson models).
	Sigma2Mean float64

	// PredictiveMean is, for each test entry in the order of
	// Settings.Test, the posterior predictive mean: the average of
	// w_m . z_n over the kept sweeps.
	PredictiveMean []float64
	// PredictiveVariance is, for each test entry, the variance of
	// w_m . z_n over the kept sweeps (the spread of the predicted mean, not
	// including the noise variance sigma^2). The posterior predictive
	// variance of a new observation at that entry is this plus Sigma2Mean,
	// or for a model with a Poisson likelihood (whose w_m . z_n is the
	// count's rate) this plus PredictiveMean.
	PredictiveVariance []float64
	// PosteriorMeanProduct is, for each test entry, the prediction of the
	// product of the posterior means E[W] E[Z]: the estimator of the
	// published reference code.
	PosteriorMeanProduct []float64

	// TestMSE is the MSE of PredictiveMean on the test entries, and
	// TestMSEOfMeans that of PosteriorMeanProduct; both are 0 without
	// test entries.
	TestMSE, TestMSEOfMeans float64

	// Hyper holds the kept draws of the model's shared hyperparameters
	// (GEEA's rates lambda_k); nil for models without any.
	Hyper []HyperDraws

	// Offsets holds the posterior summaries of the offsets mu + b_i +
	// c_j of a model with biases (Biased), nil for any other. The
	// predictions above include the offsets.
	Offsets *OffsetSummary

	// MeanW (M x K) and MeanZ (K x N) are the posterior means of W and Z over
	// the kept sweeps. For NMF they are the final iterate.
	MeanW, MeanZ *mat.Dense

	// Scores holds the scores of the posterior predictive distributions
	// of the test entries when Settings.Scores asked for them: Scores[0]
	// against the test values, then one per Settings.ExtraTargets. It is
	// nil for NMF and the baselines, and for each chain of RunChains with
	// more than one chain, whose pooled result holds the scores.
	Scores *predictive.Result
	// scoring is the accumulator behind Scores, kept for pooling chains.
	scoring *predictive.Accumulator
	// trainLen is the number of training entries, for Rescale.
	trainLen int

	// Tracked holds, for every sweep in order, the predictions w_m . z_n of
	// the test entries that Settings.Tracked names, in that order; nil
	// without tracked entries.
	Tracked [][]float64

	// EmptyRows and EmptyCols count the rows and columns of the training
	// matrix with no observed entry, whose factors the data does not
	// inform; Warnings says so too.
	EmptyRows, EmptyCols int

	// Warnings lists statistical caveats that travel with the numbers.
	Warnings []string
}
