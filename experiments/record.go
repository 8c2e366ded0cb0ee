package experiments

import (
	"os"

	"github.com/bnmf-lab/bnmf/bnmf"
	"github.com/bnmf-lab/bnmf/internal/provenance"
)

// RecordVersion is the schema version written into every Record. Readers
// refuse records with a newer version.
const RecordVersion = 1

// Cell identifies one chain of a study: a model at a rank, a fraction
// unobserved or a noise ratio, and a repeat. Fields that a study kind does
// not vary are zero.
type Cell struct {
	Model      string  `json:"model"`
	Rank       int     `json:"rank"`
	Fraction   float64 `json:"fraction,omitempty"`    // fraction unobserved (sparsity)
	NoiseRatio float64 `json:"noise_ratio,omitempty"` // noise-to-signal variance ratio (noise)
	// Fold is the inner fold of a nested cross-validation, from 1; 0
	// for the cell scored on its outer fold (and in every other kind).
	Fold int `json:"fold,omitempty"`
	// Setting is the cell's value on the axis of a kind whose axis has
	// no field of its own (a SettingAxis: every axis added after the
	// fraction, the noise ratio and the inner fold, which records have
	// always carried); 0 in every other kind.
	Setting float64 `json:"setting,omitempty"`
	Repeat  int     `json:"repeat"` // 0-based; the (outer) fold in cross-validation studies
}

// Record is what the result store keeps for one finished (or failed) cell.
// It is written as one JSON object per line.
type Record struct {
	Version    int    `json:"version"`
	Study      string `json:"study"`       // the config's name
	Kind       string `json:"kind"`        // one of KindNames
	ConfigHash string `json:"config_hash"` // hash of the canonical config
	Cell       Cell   `json:"cell"`
	Seed       uint64 `json:"seed"` // the cell's derived seed

	Dataset      string `json:"dataset"`
	Rows         int    `json:"rows"`
	Cols         int    `json:"cols"`
	TrainEntries int    `json:"train_entries"`
	TestEntries  int    `json:"test_entries"`
	// EmptyRows and EmptyCols count the rows and columns with no training
	// entry (records made before these fields existed say so only in a
	// warning).
	EmptyRows int `json:"empty_rows,omitempty"`
	EmptyCols int `json:"empty_cols,omitempty"`

	// Sweeps is the number of sweeps every chain of the cell ran (under
	// sweeps: auto they stop together) and BurnIn the first of them that
	// were discarded: under sweeps: auto, half.
	Sweeps int `json:"sweeps"`
	BurnIn int `json:"burn_in"`
	Thin   int `json:"thin"`
	// AutoSweeps says, for a cell of a Bayesian model in a study with
	// sweeps: auto, how its chains stopped: converged, not converged at
	// max_sweeps, or stuck, with the diagnostics reached (nil otherwise).
	AutoSweeps *bnmf.AutoStop `json:"auto_sweeps,omitempty"`

	// Metrics are the cell's numbers: with several chains, those of the
	// pooled posterior (see bnmf.Chains.Pooled), with the train MSE and
	// seconds per sweep averaged over the chains.
	Metrics Metrics `json:"metrics"`
	// Trace is the trace of chain 0, the cell's only chain in a one-chain
	// study.
	Trace Trace `json:"trace"`

	// Chains is the number of chains when more than one ran; then
	// ChainMetrics holds each chain's own metrics (chain 0's are those a
	// one-chain study stores) and ChainTraces the traces of chains 1 to
	// Chains-1.
	Chains       int       `json:"chains,omitempty"`
	ChainMetrics []Metrics `json:"chain_metrics,omitempty"`
	ChainTraces  []Trace   `json:"chain_traces,omitempty"`
	// Predictive scores the cell's posterior predictive distributions of
	// its held-out entries: interval coverage and width, log density and
	// CRPS (nil for NMF, the baselines, and records made before scores
	// existed).
	Predictive *Predictive `json:"predictive,omitempty"`
	// Diagnostics are the convergence diagnostics of the cell's chains
	// (nil for NMF and the baselines, and in records made before they
	// existed); what they flag is in Warnings, prefixed "convergence:".
	Diagnostics *bnmf.Diagnostics `json:"diagnostics,omitempty"`
	// Hyper summarises the posterior of the model's shared
	// hyperparameters per latent dimension (GEEA's rates lambda_k), over
	// the kept sweeps of chain 0 (the chains' dimensions are not matched
	// here); absent for models without any.
	Hyper []HyperSummary `json:"hyperparameters,omitempty"`

	WallSeconds float64 `json:"wall_seconds"`
	// LoadAverage holds the machine's one-minute load average when the
	// cell started and when it finished, and SamplerWorkers the sampler
	// workers its chains ran with: what a time per sweep depends on
	// besides the model. Only runtime studies record them, load averages
	// only where the system reports one (Linux).
	LoadAverage    []float64 `json:"load_average,omitempty"`
	SamplerWorkers int       `json:"sampler_workers,omitempty"`
	Versions       Versions  `json:"versions"`

	// Error is set when the cell failed; the metrics are then meaningless.
	Error    string   `json:"error,omitempty"`
	Warnings []string `json:"warnings,omitempty"`
}

// HyperSummary is the posterior mean and standard deviation, per latent
// dimension, of one of a model's shared hyperparameters, in the units the
// model was fitted in.
type HyperSummary struct {
	Name string    `json:"name"`
	Mean []float64 `json:"mean"`
	SD   []float64 `json:"sd"`
}

// Metrics are a cell's final numbers. Test metrics are zero for
// convergence studies, which have no test set.
type Metrics struct {
	TrainMSE       float64 `json:"train_mse"`         // final sample
	TestMSE        float64 `json:"test_mse"`          // posterior predictive mean
	TestMSEOfMeans float64 `json:"test_mse_of_means"` // E[W]E[Z], the reference code's estimator
	Sigma2Mean     float64 `json:"sigma2_mean"`

	// Noise studies: TestMSEClean is the MSE against the clean
	// (noise-free) test values; DataVariance the variance of the noisy
	// training values; VarOverMSE = DataVariance / TestMSE, the paper's
	// Fig. 4 measure; VarOverMSEClean = variance of the clean training
	// values / TestMSEClean.
	TestMSEClean    float64 `json:"test_mse_clean,omitempty"`
	DataVariance    float64 `json:"data_variance,omitempty"`
	VarOverMSE      float64 `json:"var_over_mse,omitempty"`
	VarOverMSEClean float64 `json:"var_over_mse_clean,omitempty"`
	SecondsPerSweep float64 `json:"seconds_per_sweep"`
}

// Trace holds per-sweep statistics as parallel columns, one value per
// sweep.
type Trace struct {
	TrainMSE []float64 `json:"train_mse"`
	TestMSE  []float64 `json:"test_mse,omitempty"`
	Sigma2   []float64 `json:"sigma2"`
	Seconds  []float64 `json:"seconds"` // elapsed since the start of the chain
}

// Versions records what produced a record: the Go version and the
// module's revision (see package internal/provenance).
type Versions = provenance.Versions

// Manifest describes a study as it was configured: every cell it expects,
// so that a report can say which are missing. The runner writes it as
// manifest.json in the study's output directory before any cell runs.
type Manifest struct {
	Version    int    `json:"version"`
	Study      string `json:"study"`
	Kind       string `json:"kind"`
	ConfigHash string `json:"config_hash"`
	Dataset    string `json:"dataset"`
	// DatasetLabel is the config's dataset.label, when it sets one; Label
	// returns the name reports use.
	DatasetLabel string `json:"dataset_label,omitempty"`

	// Rows, Cols and Observed describe the dataset after cleaning.
	Rows     int `json:"rows"`
	Cols     int `json:"cols"`
	Observed int `json:"observed"`

	BaseSeed uint64 `json:"base_seed"`
	// Sweeps, BurnIn and Thin are the config's; under sweeps: auto,
	// Sweeps and BurnIn are 0 and MaxSweeps is the cap.
	Sweeps      int       `json:"sweeps"`
	BurnIn      int       `json:"burn_in"`
	Thin        int       `json:"thin"`
	MaxSweeps   int       `json:"max_sweeps,omitempty"`
	Models      []string  `json:"models"`
	Ranks       []int     `json:"ranks"`
	Fractions   []float64 `json:"fractions,omitempty"`
	NoiseRatios []float64 `json:"noise_ratios,omitempty"`
	// Settings lists the values on a SettingAxis (Config.Settings), and
	// SettingName and SettingColumn are that axis's Name and Column, so
	// that a program without the kind still reads the axis (ManifestAxis).
	Settings      []float64 `json:"settings,omitempty"`
	SettingName   string    `json:"setting_name,omitempty"`
	SettingColumn string    `json:"setting_column,omitempty"`
	Repeats       int       `json:"repeats"`
	Coverage      string    `json:"coverage,omitempty"`

	// Compatible maps the config hashes of earlier configs of this study,
	// which differed from it only in their lists of models, to the models
	// whose records made under them are still valid here (see
	// Manifest.Accepts).
	Compatible map[string][]string `json:"compatible,omitempty"`

	// Cells lists every cell of the study in canonical order.
	Cells []Cell `json:"cells"`

	// Warnings are about the study as a whole, found when it was prepared,
	// such as data on a scale the default hyperparameters do not suit
	// (ScaleWarning).
	Warnings []string `json:"warnings,omitempty"`
}

// Label returns the name of the study's data in reports: the config's
// dataset.label, or else the dataset's name (a file's base name).
func (m Manifest) Label() string {
	if m.DatasetLabel != "" {
		return m.DatasetLabel
	}
	return m.Dataset
}

// Study is a study's manifest together with the records found for it.
type Study struct {
	// Dir is the study's output directory.
	Dir      string
	Manifest Manifest
	// Config is the config stored beside the records (config.yaml), or
	// nil when there is none or it does not parse. Reports read from it
	// the settings a manifest does not hold, such as the number of chains
	// or how sigma^2 starts; the records and manifest never depend on it.
	Config *Config
	// Records holds one record per finished or failed cell, in the order
	// of Manifest.Cells.
	Records []Record
	// Problems lists what was found but not used, such as records whose
	// config hash differs from the manifest's, or unreadable files.
	Problems []string

	// recordFiles are the files of records/ that were read, as they were
	// then, so that compaction removes those and no file written or
	// replaced since; inFile holds the keys of the Records that came from
	// one of them.
	recordFiles []recordFile
	inFile      map[string]bool
}

// recordFile is a file of records/ as it was when read.
type recordFile struct {
	name string
	info os.FileInfo
}
