// Package report turns stored experiment records into the figures and
// tables of Lu & Ye (2022), "Flexible and Hierarchical Prior for Bayesian
// Nonnegative Matrix Factorization", with the paper's published numbers
// beside ours.
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
//     panels and series can be inspected before it is rendered;
//   - Markdown tables (tablewriter): WriteDataTable (Table 1),
//     WriteHeldOutTable (Table 2), WriteConvergenceTable, WriteTimingTable,
//     WriteNoiseTable and WriteWarnings;
//   - tidy CSV, one row per cell: WriteCSV.
//
// Write renders everything for a set of studies into their directories and
// writes a README.md that embeds it. The report never runs a sampler, and
// the same records always give the same bytes.
//
// Warnings travel with the numbers: a failed cell, a non-finite value, a
// missing repeat or a record from a different config is counted in the
// summary, marked next to the affected number and listed in a warnings
// section; nothing is dropped silently.
//
// The paper's published values are kept in paper_values.json, embedded in
// the binary and returned by Paper.
package report
