package experiments

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"

	"github.com/bnmf-lab/bnmf/bnmf"
)

// hashed is the part of a Config that determines its numbers: everything
// but the study's name and output directory.
type hashed struct {
	Schema      string
	Kind        string
	Dataset     DatasetConfig
	Models      []json.RawMessage // each ModelConfig.hashJSON
	Ranks       []int
	Fractions   []float64
	NoiseRatios []float64
	// Settings is left out when empty, so that every config of a kind
	// without a SettingAxis keeps its hash.
	Settings     []float64 `json:",omitempty"`
	NoiseHoldout float64
	Repeats      int
	Sweeps       int
	BurnIn       int
	Thin         int
	// AutoSweeps and MaxSweeps are left out when not set, so that every
	// other config keeps its hash.
	AutoSweeps bool `json:",omitempty"`
	MaxSweeps  int  `json:",omitempty"`
	// Chains is left out of the encoding when it is 1, so that the hash
	// of a one-chain config is what it was before the setting existed.
	Chains int `json:",omitempty"`
	// Sigma2Start is left out when it is the default, for the same reason.
	Sigma2Start string `json:",omitempty"`
	// Standardize is left out when false.
	Standardize bool `json:",omitempty"`
	// Float32Factors is left out when false; it changes the records, so
	// it is in the hash when set.
	Float32Factors bool `json:",omitempty"`
	Seed           uint64
	Coverage       string
	// DataSHA256 is set only for a dataset given as a file, and left out
	// of the encoding otherwise, so that the hash of every other config
	// is what it was before the field existed.
	DataSHA256 string `json:",omitempty"`
}

// Hash returns the hex SHA-256 of the canonical JSON encoding of every
// setting that affects a study's numbers (all but Name and Output). Stored
// records carry it, so results of a changed config never mix with old ones.
//
// For a dataset given as a file (dataset.path), the settings name only the
// file, so the hash also covers the SHA-256 of the file's content, which
// Prepare records when it reads the file: a changed file then changes the
// hash, and its results do not mix with those of the old file on resume.
// Called before Prepare, Hash of such a config covers the path alone. The
// datasets known by name are fixed by their settings (MovieLens is checked
// against its official digest or rating counts when loaded, the synthetic
// one is generated from its seed), so their hashes do not depend on
// Prepare and are what they were before file contents were hashed.
//
// It returns an error for an unknown kind or a setting that JSON cannot
// encode (a non-finite number); a config that Validate accepted has
// neither.
func (c *Config) Hash() (string, error) {
	kind, ok := c.lookupKind()
	if !ok {
		return "", fmt.Errorf("experiments: hashing a config of unknown kind %q", c.Kind)
	}
	models := make([]json.RawMessage, len(c.Models))
	for i := range c.Models {
		b, err := c.Models[i].hashJSON()
		if err != nil {
			return "", fmt.Errorf("experiments: hashing a config: %w", err)
		}
		models[i] = b
	}
	h := hashed{
		Schema:         "bnmf-study-v1",
		Kind:           c.Kind,
		Dataset:        c.Dataset,
		Models:         models,
		Ranks:          c.Ranks,
		Fractions:      c.Fractions,
		NoiseRatios:    c.NoiseRatios,
		Settings:       c.Settings,
		NoiseHoldout:   c.NoiseHoldout,
		Repeats:        c.Repeats,
		Sweeps:         c.Sweeps,
		BurnIn:         c.BurnIn,
		Thin:           c.Thin,
		AutoSweeps:     c.AutoSweeps,
		MaxSweeps:      c.MaxSweeps,
		Chains:         c.Chains,
		Sigma2Start:    c.Sigma2Start,
		Standardize:    c.Standardize,
		Float32Factors: c.Float32Factors,
		Seed:           c.Seed,
		Coverage:       c.Coverage,
		DataSHA256:     c.dataSHA256,
	}
	if h.Chains == 1 {
		h.Chains = 0
	}
	if h.Sigma2Start == bnmf.Sigma2FromConditional.String() {
		h.Sigma2Start = ""
	}
	if h.BurnIn == 0 {
		// burn_in: 0 (none) hashes as -1: builds before the fix of
		// bnmf's settings resolved twice ran such studies with a burn-in
		// of four fifths of the sweeps while their records said 0, and
		// their records must not be resumed into or mixed with correct
		// ones. Every other config keeps its hash.
		h.BurnIn = -1
	}
	kind.hashed(&h)
	b, err := json.Marshal(h)
	if err != nil {
		return "", fmt.Errorf("experiments: hashing a config: %w", err)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), nil
}
