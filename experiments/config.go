package experiments

import (
	"bytes"
	"errors"
	"fmt"
	"github.com/bnmf-lab/bnmf/bnmf"
	"github.com/bnmf-lab/bnmf/internal/fileerr"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Config describes one study: a dataset, the models to compare and the grid
// of ranks, fractions unobserved or noise ratios to run them on, each
// repeated with seeds derived from Seed. It is decoded strictly from YAML by
// LoadConfig, starting from DefaultConfig; keys are written in snake_case.
type Config struct {
	// Name identifies the study in its records. Default: the config
	// file's base name without extension.
	Name string `yaml:"name"`
	// Kind names the kind of study, one of KindNames (KindConvergence,
	// KindSparsity, KindNoise). Required.
	Kind string `yaml:"kind"`
	// Dataset names the data the study runs on. Required.
	Dataset DatasetConfig `yaml:"dataset"`
	// Models lists the models to compare, each at most once. Default: the
	// paper's five (bnmf.DefaultNames: GEE, GTT, GTTN, GRRN, NMF) with the
	// paper's hyperparameters.
	Models []ModelConfig `yaml:"models"`
	// Ranks lists the latent dimensions K. Required.
	Ranks []int `yaml:"ranks"`
	// Fractions lists the fractions unobserved of the whole grid at which
	// a sparsity study holds out entries. Required for sparsity studies and
	// not allowed for the others.
	Fractions []float64 `yaml:"fractions"`
	// NoiseRatios lists the noise-to-signal variance ratios of a noise
	// study. Required for noise studies and not allowed for the others.
	NoiseRatios []float64 `yaml:"noise_ratios"`
	// Settings lists the values on the axis of a kind whose axis has no
	// key of its own (a SettingAxis; that kind's doc says what the values
	// are). Required for such kinds and not allowed for the others.
	Settings []float64 `yaml:"settings"`
	// NoiseHoldout is the share of the observed entries that a noise study
	// holds out as its test set, in (0, 1). The paper does not state its
	// split; the default, 0.1, holds out one fold of a ten-fold
	// cross-validation. The split's fraction unobserved of the grid is
	// then 1 - (1 - NoiseHoldout) (1 - f0), with f0 the data's own.
	NoiseHoldout float64 `yaml:"noise_holdout"`
	// Repeats is the number of independent repeats of every cell. Default 10.
	Repeats int `yaml:"repeats"`
	// Sweeps is the number of Gibbs sweeps per chain, at most
	// bnmf.MaxSweeps. Default 500. Written "sweeps: auto", it sets
	// AutoSweeps instead, and is 0.
	Sweeps int `yaml:"sweeps"`
	// AutoSweeps, which "sweeps: auto" sets, runs each cell's chains in
	// blocks until AutoRule says they have run enough, or MaxSweeps is
	// reached (bnmf.AutoSweeps); the record's AutoStop says which. The
	// burn-in is then the first half of the sweeps run, so burn_in must
	// not be set; NMF and the baselines, which have no posterior, run 500
	// sweeps.
	AutoSweeps bool `yaml:"-"`
	// MaxSweeps caps the sweeps of each chain under sweeps: auto, which
	// needs it, and goes only with it.
	MaxSweeps int `yaml:"max_sweeps"`
	// BurnIn is the number of sweeps discarded before posterior summaries
	// are taken; 0 means none (bnmf.NoBurnIn, see chainSettings). It must
	// be less than Sweeps. Default 400.
	BurnIn int `yaml:"burn_in"`
	// Thin keeps every Thin-th sweep after burn-in. Default 1.
	Thin int `yaml:"thin"`
	// Chains is the number of independent chains per cell, each seeded
	// from the cell's seed and its index (bnmf.ChainSeed; chain 0 is the
	// cell's single chain of a one-chain study), pooled into one posterior
	// summary, with convergence diagnostics across them. Default 1, at
	// most 64.
	Chains int `yaml:"chains"`
	// Sigma2Start is how the Bayesian models' sigma^2 starts: "conditional"
	// (drawn from its full conditional given the prior-drawn factors, the
	// paper's protocol and the default), "prior" (drawn from its prior) or
	// "data-variance" (the variance of the training values); see
	// bnmf.Sigma2Start. NMF and the baselines have no sigma^2.
	Sigma2Start string `yaml:"sigma2_start"`
	// Standardize, when true, fits each cell's values divided by the
	// standard deviation of its training values (bnmf.UnitScale; not
	// centred, so they stay nonnegative) and maps every prediction,
	// metric, trace and score back to the data's units
	// (bnmf.Result.Rescale). It suits data far from the ratings scale the
	// default hyperparameters assume (see ScaleWarning). Default false,
	// so that the paper's studies keep their meaning.
	Standardize bool `yaml:"standardize"`
	// Float32Factors, when true, runs the Bayesian models' sweeps with
	// bnmf.Settings.Float32Factors: they read the other factor from
	// float32 copies, which is faster on matrices whose factors outgrow
	// the processor's caches (the MovieLens 25M shape); its chains follow
	// the default's to about seven digits for a few sweeps and then take
	// paths of their own, so its records differ from the default's as
	// another seed's would. Default false, which keeps every record bit
	// for bit.
	Float32Factors bool `yaml:"float32_factors"`
	// Seed is the base seed from which every cell's seeds derive. Default 1.
	Seed uint64 `yaml:"seed"`
	// Coverage is the split rule that keeps training entries in every
	// column, row, both or neither: "columns", "rows", "both" or "none".
	// Default "columns", the rule of the reference code the paper follows.
	Coverage string `yaml:"coverage"`
	// Output is the study's output directory, relative to the working
	// directory. Default: results/<Name>.
	Output string `yaml:"output"`

	// file is the path the config was read from, and lines maps each key
	// path written in it (such as "ranks[1]") to its line, for errors.
	file  string
	lines map[string]int
	// source holds the config file's bytes, copied into the output.
	source []byte
	// kinds, when not nil, replaces Kinds as the kinds c may name (a
	// test's kind that the program does not have).
	kinds []Kind
	// dataSHA256 is the hex SHA-256 of the content of a dataset given as
	// a file, set by Prepare when it reads the file; "" otherwise.
	dataSHA256 string
}

// DatasetConfig names a study's data: either one of the datasets that the
// dataset package knows by name (dataset.Names), or a file with its format
// (dataset.Formats).
type DatasetConfig struct {
	// Name is a dataset name, such as movielens-100k, movielens-1m or
	// synthetic. MovieLens data is read from the data directory.
	Name string `yaml:"name"`
	// Path is a ratings file of the user's own, relative to the working
	// directory; Format names its format, such as triplets,
	// matrix-market or movielens-latest-small, or is empty to detect it
	// from the file (dataset.DetectFormat). Set either Name or Path.
	Path   string `yaml:"path"`
	Format string `yaml:"format"`
	// MinRatings is the cleaning threshold: rows and columns with fewer
	// observed entries are removed. Zero means the paper's 3 for MovieLens
	// data, by name or as a file in a MovieLens format, and no cleaning
	// for other files.
	MinRatings int `yaml:"min_ratings"`
	// Cast is "integer" to truncate every value toward zero as it is read
	// (dataset.Options.Truncate), as Brouwer and Lio's experiments read
	// their drug-sensitivity data and as a model with a Poisson likelihood
	// needs counts; empty keeps the values. It is in the hash only when
	// set, so every other config keeps its hash.
	Cast string `yaml:"cast" json:",omitempty"`
	// Synthetic sets the generator's options for the synthetic dataset;
	// zero values mean its defaults.
	Synthetic SyntheticConfig `yaml:"synthetic"`
	// Label names the data in reports, such as "Wine ratings (2019)".
	// Default: the dataset's name, or the file's base name. It changes no
	// number, so it is left out of the config's hash (json:"-"): labelling
	// a study's data later does not separate it from its records.
	Label string `yaml:"label" json:"-"`
}

// CastInteger is the value of DatasetConfig.Cast that truncates every
// value to an integer.
const CastInteger = "integer"

// SyntheticConfig mirrors dataset.SyntheticOptions; zero values mean the
// generator's defaults (300 x 500, rank 5, density 0.07, noise standard
// deviation 0.5, a negative one meaning no noise).
type SyntheticConfig struct {
	Rows     int     `yaml:"rows"`
	Cols     int     `yaml:"cols"`
	Rank     int     `yaml:"rank"`
	Density  float64 `yaml:"density"`
	NoiseStd float64 `yaml:"noise_std"`
	Seed     uint64  `yaml:"seed"`
}

// DefaultConfig returns the defaults that a config file overrides: the
// paper's protocol (500 sweeps, burn-in 400, 10 repeats) with all five
// models.
func DefaultConfig() Config {
	return Config{
		Models:       defaultModels(),
		NoiseHoldout: 0.1,
		Repeats:      10,
		Sweeps:       500,
		BurnIn:       400,
		Thin:         1,
		Chains:       1,
		Sigma2Start:  bnmf.Sigma2FromConditional.String(),
		Seed:         1,
		Coverage:     "columns",
	}
}

// chainSettings returns the chain settings of c that every cell shares:
// sweeps, burn-in and thinning. A burn_in of 0, none, becomes
// bnmf.NoBurnIn, since bnmf reads 0 as its default; under sweeps: auto
// the burn-in is bnmf's 0, which Settings.Auto needs (each cell sets
// Auto, whose rule needs the cell's data).
func (c *Config) chainSettings() bnmf.Settings {
	s := bnmf.Settings{Sweeps: c.Sweeps, BurnIn: c.BurnIn, Thin: c.Thin}
	switch {
	case c.AutoSweeps:
		s.BurnIn = 0
	case c.BurnIn == 0:
		s.BurnIn = bnmf.NoBurnIn
	}
	return s
}

// LoadConfig reads, strictly decodes and validates the config at path. Any
// problem is returned as a *ConfigError naming the file, line and key.
// Checks that need the data (the range of fractions) happen in Prepare.
func LoadConfig(path string) (*Config, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading config: %w", err)
	}
	return ParseConfig(path, src)
}

// ParseConfig decodes and validates a config held in src; file names it in
// errors and gives the default study name. An integer setting must be
// written as a YAML integer: 2.5, 1e3, null or a number beyond the range of
// its type is an error, not truncated, converted or read as 0.
func ParseConfig(file string, src []byte) (*Config, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		return nil, syntaxError(file, err)
	}
	if len(doc.Content) == 0 {
		return nil, fileerr.New(file, 0, "", "the config is empty")
	}
	decoded, auto, err := sweepsAuto(file, &doc, src)
	if err != nil {
		return nil, err
	}
	if auto {
		doc = yaml.Node{}
		if err := yaml.Unmarshal(decoded, &doc); err != nil {
			return nil, syntaxError(file, err)
		}
	}
	cfg := DefaultConfig() // a list in the file replaces the default list
	dec := yaml.NewDecoder(bytes.NewReader(decoded))
	dec.KnownFields(true)
	if err := dec.Decode(&cfg); err != nil {
		return nil, decodeError(file, &doc, err)
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		return nil, fileerr.New(file, extra.Line, "", "the file holds more than one YAML document")
	}
	if err := checkIntegers(file, &doc, reflect.TypeOf(cfg)); err != nil {
		return nil, err
	}
	cfg.file = file
	cfg.lines = keyLines(&doc)
	cfg.source = src
	if auto {
		cfg.AutoSweeps, cfg.Sweeps = true, 0
		if _, set := cfg.lines["burn_in"]; !set {
			cfg.BurnIn = 0 // the default's 400 does not apply
		}
	}
	if cfg.Name == "" {
		cfg.Name = strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))
	}
	if cfg.Output == "" {
		cfg.Output = filepath.Join("results", cfg.Name)
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return &cfg, nil
}

// File returns the path the config was loaded from, or "" for a config
// built in code.
func (c *Config) File() string { return c.file }

// errorf returns a *ConfigError at key, with the line where the file
// writes it (0 when the key is absent and holds its default).
func (c *Config) errorf(key, format string, args ...any) *ConfigError {
	return fileerr.New(c.file, c.lines[key], key, fmt.Sprintf(format, args...))
}
