// Package experiments runs the studies of Lu and Ye (2022), Section 5, and
// keeps their results.
//
// A study is described by a YAML config (see Config): a dataset, the
// models to compare and a grid of ranks and either fractions unobserved
// (sparsity, the paper's Fig. 5 and Table 2), noise ratios (noise, Fig. 4)
// or neither (convergence, Fig. 2), each repeated; the kinds
// model-selection, nested-cv and runtime repeat the cross-validation,
// model-selection and runtime studies of Brouwer and Lio (2017), whose
// repeats are folds (see KindModelSelection, KindNestedCV, KindRuntime).
// LoadConfig decodes it
// strictly and validates it; Prepare loads the data and checks what needs
// it; Plan.Run expands the study into cells (one chain each: a model at a
// rank, a fraction or noise ratio, and a repeat) and runs them on a
// bounded pool of goroutines.
//
// A new kind is one file that implements Kind, plus its line in Kinds
// (and its report in package report, one file plus a line there). A kind
// on an axis of its own returns a SettingAxis: its values are the
// config's settings key, the manifest's Settings and each cell's
// Cell.Setting, so it needs no new field in Cell, Manifest, Config or
// report.Key, and a report program without the kind still groups, lists
// and names its cells by the axis the manifest names.
//
// Every cell's seeds derive from the base seed and the cell's identity
// (CellSeed, SplitSource, NoiseSource, FoldSource), so its numbers do not depend on
// the number of workers, the order in which cells finish, the shard that
// runs it, or the other cells of the config.
//
// The result store is a directory:
//
//	<output>/config.yaml         a copy of the config
//	<output>/manifest.json       the Manifest, written before any cell runs
//	<output>/records/<key>.json  one Record per finished or failed cell
//	<output>/records.jsonl.gz    the same records compacted (Compact, Merge)
//	<output>/claims/<key>.claim  the claim of a process running the cell
//	<output>/run.lock            locked by every run while it lives (LockFile)
//
// Each record is written atomically (temporary file, fsync, rename, fsync
// of the directory), so a crash or kill at any moment leaves only whole
// records, and running a study again resumes it: cells with a record are
// skipped. Records carry the config's hash; a changed config is refused
// rather than mixed with old results. LoadStudy reads a store back for the
// report, and Merge combines the stores of shards run on several machines.
package experiments
