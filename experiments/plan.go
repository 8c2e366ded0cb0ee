package experiments

import (
	"context"
	"fmt"

	"github.com/bnmf-lab/bnmf/bnmf"
	"github.com/bnmf-lab/bnmf/dataset"
	"github.com/bnmf-lab/bnmf/internal/provenance"
)

// Plan is a validated study with its data loaded, ready to run. Prepare
// makes one; its checks that need the data have then passed, so Run starts
// no cell of a study whose config is wrong.
type Plan struct {
	// Config is the study's configuration, resolved: for a dataset given
	// as a file it also covers the SHA-256 of the file's content, which
	// its Hash then includes. Prepare does not change the config it is
	// given.
	Config *Config
	// Manifest describes the study and lists every cell in canonical order.
	Manifest Manifest

	data     *dataset.Ratings
	coverage dataset.Coverage
	// source makes the cells' data, as the study's kind decides.
	source cellSource
	// settings holds the chain settings every cell shares: sweeps, burn-in
	// (Config.chainSettings) and thinning.
	settings bnmf.Settings
	// chains is the number of chains per cell (a config's 0 read as 1).
	chains   int
	models   map[string]bnmf.Model
	versions Versions
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
	kind, ok := cfg.lookupKind()
	if !ok {
		return nil, cfg.errorf("kind", "unknown kind %q; want one of %v", cfg.Kind, KindNames())
	}
	resolved := *cfg
	cfg = &resolved
	p := &Plan{Config: cfg, models: make(map[string]bnmf.Model), versions: provenance.BuildVersions(opts.Revision)}
	for i := range cfg.Models {
		m, err := cfg.Models[i].Model()
		if err != nil {
			return nil, cfg.errorf(fmt.Sprintf("models[%d]", i), "%v", err)
		}
		p.models[cfg.Models[i].Key()] = m
	}
	p.settings = cfg.chainSettings()
	p.settings.Float32Factors = cfg.Float32Factors
	p.chains = max(1, cfg.Chains)
	if cfg.Sigma2Start != "" {
		start, err := bnmf.ParseSigma2Start(cfg.Sigma2Start)
		if err != nil {
			return nil, cfg.errorf("sigma2_start", "%v", err)
		}
		p.settings.Sigma2Start = start
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
	if p.source, err = kind.prepare(ctx, p); err != nil {
		return nil, err
	}
	if p.Manifest, err = p.manifest(); err != nil {
		return nil, err
	}
	return p, nil
}

// OpenData loads the data that cfg names, cleaned as a study of it is,
// without preparing the study: for a report that describes the data of
// stored studies. dataDir is where MovieLens data is read from, as in
// PrepareOptions; a data file is read relative to the working directory,
// as Prepare reads it. Errors name the config file, line and key.
func OpenData(cfg *Config, dataDir string) (*dataset.Ratings, error) {
	c := *cfg // loadData records the file's digest in its config
	return loadData(context.Background(), &c, PrepareOptions{DataDir: dataDir})
}

// loadData opens the dataset that cfg names. For a file of the user's own
// it records the SHA-256 of the file's content in cfg (Prepare's copy),
// which Config.Hash then covers.
func loadData(ctx context.Context, cfg *Config, opts PrepareOptions) (*dataset.Ratings, error) {
	d := cfg.Dataset
	s := d.Synthetic
	dopts := dataset.Options{
		MinRatings: d.MinRatings,
		Synthetic: dataset.SyntheticOptions{
			Rows: s.Rows, Cols: s.Cols, Rank: s.Rank,
			Density: s.Density, NoiseStd: s.NoiseStd, Seed: s.Seed,
		},
		Counts:   cfg.needsCounts(),
		Truncate: d.Cast == CastInteger,
	}
	var (
		r   *dataset.Ratings
		err error
		key = "dataset.name"
	)
	if d.Path != "" {
		key = "dataset.path"
		r, cfg.dataSHA256, err = dataset.OpenFileDigest(ctx, d.Path, d.Format, dopts)
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
func (p *Plan) manifest() (Manifest, error) {
	c := p.Config
	hash, err := c.Hash()
	if err != nil {
		return Manifest{}, err
	}
	m := Manifest{
		Version:      RecordVersion,
		Study:        c.Name,
		Kind:         c.Kind,
		ConfigHash:   hash,
		Dataset:      p.data.Name,
		DatasetLabel: c.Dataset.Label,
		Rows:         p.data.Rows,
		Cols:         p.data.Cols,
		Observed:     len(p.data.Entries),
		BaseSeed:     c.Seed,
		Sweeps:       c.Sweeps,
		BurnIn:       c.BurnIn,
		Thin:         c.Thin,
		MaxSweeps:    c.MaxSweeps,
		Ranks:        c.Ranks,
		Settings:     c.Settings,
		Repeats:      c.Repeats,
		Cells:        c.Cells(),
	}
	for _, mc := range c.Models {
		m.Models = append(m.Models, mc.Key())
	}
	mean, variance := moments(p.data.Entries)
	if w := ScaleWarning(mean, variance); w != "" && !c.Standardize {
		m.Warnings = append(m.Warnings, w)
	}
	if a, ok := p.kind().Axis().(SettingAxis); ok {
		m.SettingName, m.SettingColumn = a.AxisName, a.AxisColumn
	}
	p.source.describe(&m)
	return m, nil
}
