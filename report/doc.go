// Package report turns stored experiment records into figures and tables:
// for the studies that repeat those of Lu & Ye (2022), "Flexible and
// Hierarchical Prior for Bayesian Nonnegative Matrix Factorization", the
// paper's figures and tables with its published numbers beside ours; for
// any other study, the same figures and tables titled by the study and
// naming its data by the config's dataset label.
//
// The package follows benchstat's pipeline. Studies are collected by the
// caller (experiments.LoadStudy), Summarise reduces them to one model (a
// Summary: per study, per model, rank and fraction or noise ratio, the
// mean, standard deviation, standard error and count over repeats, with the
// count the manifest expects and every warning), and separate renderers
// draw that model:
//
//   - PNG figures (gonum/plot): ConvergenceFigure (the paper's Fig. 2),
//     NoiseFigure (Fig. 4) and SparsityFigure (Fig. 5), each a Figure whose
//     panels and series can be inspected before it is rendered, and
//     RankHistogramFigure, the rank histograms of a simulation-based
//     calibration of a sampler (results/sbc);
//   - Markdown tables (tablewriter): WriteDataTable (Table 1),
//     WriteHeldOutTable (Table 2), WriteSparsityTable,
//     WriteConvergenceTable, WriteTimingTable, WriteNoiseTable and
//     WriteWarnings;
//   - tidy CSV, one row per cell: WriteCSV.
//
// A study repeats the paper's (StudySummary.Paper) when its dataset, kind
// and grid are among those the paper ran, as paper_values.json lists
// them; only then do its figures and tables carry the paper's names
// ("Fig. 5", "Table 2"), and only where the paper published values do
// "(paper)" columns appear. Baselines (bnmf.Spec.Baseline) are drawn and
// tabled beside the other models, and every held-out table gives each
// model's skill against the best baseline, 1 - MSE/MSE of the baseline,
// paired by repeat, and the data's variance beside the MSEs.
//
// Write renders everything for a set of studies into their directories and
// writes a README.md that embeds it, with the distribution of each
// dataset's values (the paper's Fig. 3 for MovieLens) when Options.Ratings
// can load the data. The report never runs a sampler, and the same records
// and data always give the same bytes.
//
// Warnings travel with the numbers: a failed cell, a non-finite value, a
// missing repeat, a record from a different config or data on a scale far
// from the one the default hyperparameters assume
// (experiments.ScaleWarning) is counted in the summary, marked next to the
// affected number and listed in a warnings section; nothing is dropped
// silently.
//
// The paper's published values are kept in paper_values.json, embedded in
// the binary and returned by Paper.
package report
