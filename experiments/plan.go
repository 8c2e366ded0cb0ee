package experiments

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"

	"github.com/bnmf-lab/bnmf/bnmf"
	"github.com/bnmf-lab/bnmf/dataset"
)

// Plan is a validated study with its data loaded, ready to run. Prepare
// makes one; its checks that need the data have then passed, so Run starts
// no cell of a study whose config is wrong.
type Plan struct {
	// Config is the study's configuration.
	Config *Config
	// Manifest describes the study and lists every cell in canonical order.
	Manifest Manifest

	data     *dataset.Ratings
	full     *bnmf.Matrix // every observed entry: a convergence study's training set
	coverage dataset.Coverage
	// noiseFraction is the fraction unobserved of a noise study's split.
	noiseFraction float64
	models        map[string]bnmf.Model
	versions      Versions
}

// PrepareOptions controls Prepare.
type PrepareOptions struct {
	// DataDir is where MovieLens data is read from; "" means
	// dataset.DataDir() ($BNMF_DATA_DIR, default ./data).
	DataDir string
	// Revision, when not empty, is recorded as the program's revision in
	// place of the one Go stamps into the build. Go marks a build from a
	// checkout "modified" when any file is untracked, results being
	// written included; build.sh (which run.sh calls) therefore passes the
	// git revision, with "+dirty" only when the source differs from it.
	Revision string
}

// Prepare loads the data of cfg and checks what needs it: that no rank
// exceeds min(rows, cols) of the data, and that every fraction unobserved
// lies between the data's own and 1 and admits a split under the coverage
// rule. Errors name the config file, line and key.
func Prepare(cfg *Config, opts PrepareOptions) (*Plan, error) {
	return PrepareContext(context.Background(), cfg, opts)
}

// PrepareContext is Prepare, stopped when ctx is cancelled: loading and
// cleaning the data check ctx as they go, and so does each check after
// them; the error then wraps ctx.Err().
func PrepareContext(ctx context.Context, cfg *Config, opts PrepareOptions) (*Plan, error) {
	p := &Plan{Config: cfg, models: make(map[string]bnmf.Model), versions: buildVersions(opts.Revision)}
	for i := range cfg.Models {
		m, err := cfg.Models[i].Model()
		if err != nil {
			return nil, cfg.errorf(fmt.Sprintf("models[%d]", i), "%v", err)
		}
		p.models[cfg.Models[i].Name] = m
	}
	var err error
	if p.coverage, err = dataset.ParseCoverage(cfg.Coverage); err != nil {
		return nil, cfg.errorf("coverage", "%v", err)
	}
	if p.data, err = loadData(ctx, cfg, opts); err != nil {
		return nil, err
	}
	maxRank := min(p.data.Rows, p.data.Cols)
	for i, k := range cfg.Ranks {
		if k > maxRank {
			return nil, cfg.errorf(fmt.Sprintf("ranks[%d]", i), "rank %d exceeds min(rows, cols) = %d of %s, a %d x %d matrix",
				k, maxRank, p.data.Name, p.data.Rows, p.data.Cols)
		}
	}
	if cfg.Kind == KindConvergence {
		if p.full, err = p.data.Matrix(); err != nil {
			return nil, fmt.Errorf("%s: %w", cfg.file, err)
		}
	}
	minF := dataset.MinFractionUnobserved(p.data)
	for i, f := range cfg.Fractions {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("%s: checking the splits: %w", cfg.file, err)
		}
		if err := p.checkSplit(fmt.Sprintf("fractions[%d]", i), f, minF); err != nil {
			return nil, err
		}
	}
	if cfg.Kind == KindNoise {
		p.noiseFraction = 1 - (1-cfg.NoiseHoldout)*(1-minF)
		if err := p.checkSplit("noise_holdout", p.noiseFraction, minF); err != nil {
			return nil, err
		}
	}
	p.Manifest = p.manifest()
	return p, nil
}

// loadData opens the dataset that cfg names. For a file of the user's own
// it records the SHA-256 of the file's content in cfg, which Config.Hash
// then covers.
func loadData(ctx context.Context, cfg *Config, opts PrepareOptions) (*dataset.Ratings, error) {
	d := cfg.Dataset
	s := d.Synthetic
	dopts := dataset.Options{
		MinRatings: d.MinRatings,
		Synthetic: dataset.SyntheticOptions{
			Rows: s.Rows, Cols: s.Cols, Rank: s.Rank,
			Density: s.Density, NoiseStd: s.NoiseStd, Seed: s.Seed,
		},
	}
	var (
		r   *dataset.Ratings
		err error
		key = "dataset.name"
	)
	if d.Path != "" {
		key = "dataset.path"
		r, err = dataset.OpenFileContext(ctx, d.Path, d.Format, dopts)
		if err == nil {
			cfg.dataSHA256, err = fileSHA256(d.Path)
		}
	} else {
		r, err = dataset.OpenContext(ctx, d.Name, opts.DataDir, dopts)
	}
	if err != nil {
		return nil, fmt.Errorf("%s:%d: %s: %w", cfg.file, cfg.lines[key], key, err)
	}
	if len(r.Entries) == 0 {
		return nil, cfg.errorf(key, "dataset %s has no observed entries", r.Name)
	}
	return r, nil
}

// checkSplit checks that the data can be split at fraction unobserved f by
// drawing one such split; key names the config key that set f.
func (p *Plan) checkSplit(key string, f, minF float64) error {
	if f < minF {
		return p.Config.errorf(key, "fraction unobserved %v is below %s's own, %.4f; "+
			"use a fraction in [%.4f, 1)", f, p.data.Name, minF, minF)
	}
	train, test, err := dataset.SplitUnobserved(p.data, f, p.coverage, SplitSource(p.Config.Seed, f, 0))
	if err != nil {
		return p.Config.errorf(key, "fraction unobserved %v: %v", f, err)
	}
	if len(train) == 0 {
		return p.Config.errorf(key, "fraction unobserved %v leaves no training entries in %s", f, p.data.Name)
	}
	return p.checkTestEntries(key, f, len(train), len(test))
}

// manifest describes the prepared study.
func (p *Plan) manifest() Manifest {
	c := p.Config
	m := Manifest{
		Version:    RecordVersion,
		Study:      c.Name,
		Kind:       c.Kind,
		ConfigHash: c.Hash(),
		Dataset:    p.data.Name,
		Rows:       p.data.Rows,
		Cols:       p.data.Cols,
		Observed:   len(p.data.Entries),
		BaseSeed:   c.Seed,
		Sweeps:     c.Sweeps,
		BurnIn:     c.BurnIn,
		Thin:       c.Thin,
		Ranks:      c.Ranks,
		Repeats:    c.Repeats,
		Cells:      c.Cells(),
	}
	for _, mc := range c.Models {
		m.Models = append(m.Models, mc.Name)
	}
	switch c.Kind {
	case KindSparsity:
		m.Fractions = c.Fractions
		m.Coverage = c.Coverage
	case KindNoise:
		// The one split that every noise cell uses.
		m.Fractions = []float64{p.noiseFraction}
		m.NoiseRatios = c.NoiseRatios
		m.Coverage = c.Coverage
	}
	return m
}

// buildVersions reports the Go version of this program and its source:
// revision if not empty, else the module version or VCS revision Go
// stamped into the build (with "+dirty" if Go found the tree modified).
func buildVersions(revision string) Versions {
	v := Versions{Go: runtime.Version()}
	if revision != "" {
		v.Module = revision
		return v
	}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return v
	}
	v.Module = info.Main.Version
	dirty := false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			v.Module = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if dirty {
		v.Module += "+dirty"
	}
	return v
}

// fileSHA256 returns the hex SHA-256 of the content of the file at path.
func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close() // read-only: a close error loses nothing
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("reading %s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
