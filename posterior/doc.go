// Package posterior is the fitted posterior of a Bayesian NMF model: what
// bnmf fit keeps of its chains, writes to model.npz, and bnmf predict
// reads back and predicts from.
//
// The pipeline runs in one direction:
//
//   - A Collector is the bnmf.DrawRecorder of RunChains: per chain it keeps
//     running moments of every entry of W and Z and a few stored samples.
//   - Collector.Pool matches the chains' factors (the posterior does not
//     change when the K factors are permuted) and pools them into a
//     Posterior: means, standard deviations, samples and sigma^2 draws.
//     Posterior.Rescale maps it back to the data's units after a fit on
//     standardised values.
//   - NewModel makes the Model of a Posterior: its stored samples, ids and
//     observed entries. Model.Write writes it as a NumPy .npz archive
//     (FileName), and Read (or Decode) reads one back, refusing damaged
//     files with the member and field named.
//   - Model.Predict and PredictPairs give posterior predictive means, sds
//     and central intervals; Model.Top and a Ranker the best columns of a
//     row; Model.ByChain splits the samples into their chains for
//     diagnostics.
//
// The package does no other file I/O: ids files, CSV and the command line
// belong to cmd/bnmf.
package posterior
