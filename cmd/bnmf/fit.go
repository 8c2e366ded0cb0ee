package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/bnmf-lab/bnmf/bnmf"
	"github.com/bnmf-lab/bnmf/dataset"
	"github.com/bnmf-lab/bnmf/internal/progress"
	"github.com/bnmf-lab/bnmf/internal/provenance"
	"github.com/bnmf-lab/bnmf/posterior"
	"github.com/bnmf-lab/bnmf/predictive"
)

const fitUsage = `Usage: bnmf fit [flags] DATA

Fits a Bayesian NMF model to a matrix of your own by Gibbs sampling,
with several chains, and writes its posterior to a directory (--out).
DATA is a file: "row, column, value" triplets (CSV, TSV or spaces; ids
may be any strings), a MatrixMarket coordinate file (.mtx) or a
MovieLens ratings file (ratings.csv, ratings.dat, u.data: known by
their header or separator, and cleaned as the datasets are); --format
names the file's format when that guess is wrong (triplets,
matrix-market, or a MovieLens dataset name for its ratings layout).
DATA is read once, its SHA-256 with it, so it may be a named pipe or a
shell's process substitution, such as <(zcat ratings.csv.gz).
Without --format, DATA may also be a dataset name:
  %s
Rows and columns keep the file's ids in every output.

Writes to DIR (into a temporary directory beside it, renamed at the end,
so an interrupted fit leaves nothing half-written; with --force, on Linux
the new directory and DIR are exchanged in one step, so DIR never goes
missing; the next fit into DIR removes the temporary directory of a fit
that was killed, and puts DIR back if one was killed while replacing it):
  W_mean.csv, W_sd.csv   posterior mean and sd of W: a line per row id, K factors
  Z_mean.csv, Z_sd.csv   the same for Z, a line per column id (Z transposed)
  W_mean.npy, W_sd.npy   the same as NumPy arrays, '<f8': W is M x K
  Z_mean.npy, Z_sd.npy   and Z is K x N, so that W_mean @ Z_mean is M x N
  row_ids.txt, col_ids.txt   the ids in the order of the arrays, one a line
  summary.json           the data's scale, sigma^2's posterior (mean, sd,
                         quantiles), convergence diagnostics (R-hat, ESS),
                         how --sweeps auto stopped, warnings, with
                         --holdout held-out scores, and for GEEA its
                         rates lambda_k per dimension
  trace.png              train MSE, sigma^2 and log-likelihood of every chain
  model.npz              what bnmf predict needs (see below)
  manifest.json          data file hash, settings, the hyperparameters set
                         with --set (the others are the defaults), revision
  holdout.csv            with --holdout, a line per held-out entry: ids,
                         value, predictive mean, sd, 90%% interval, log
                         density, CRPS (summary.json adds the baselines'
                         errors on the same entries)
  holdout.npy            the same numbers as an E x 7 array, '<f8', and
  holdout_index.npy      the entries' row and column indices, E x 2, '<i8'
  b.csv, c.csv           with --biases, the offsets' posterior mean and sd,
                         a line per row id (b) or column id (c); mu's are in
                         summary.json under offsets
  b_mean.npy, b_sd.npy   the same as NumPy arrays, '<f8', M and N long
  c_mean.npy, c_sd.npy

--biases fits A = mu + b_row + c_col + W Z + noise (the model is named
MODEL+b): mu ~ N(m0, v), b ~ N(0, 1/tau_b), c ~ N(0, 1/tau_c), with
tau_b, tau_c ~ Gamma(1, rate v), m0 and v the mean and variance of the
training values (--set bias_m0, bias_tau_mu, bias_alpha_b, bias_beta_b,
bias_alpha_c, bias_beta_c), all drawn inside the Gibbs sweep; the factors then model
what the offsets leave. A row or column with no training entries gets its
offset from the prior, and fit says how many did. The model file stores
the offsets' samples, and bnmf predict adds them. With offsets sigma^2
starts at the training values' variance (--sigma2-start auto): the
paper's start, a draw given the prior-drawn factors, left GEEA+b and
GEE+b overfitting with sigma^2 far below the data's noise on sparse
MovieLens (README, "Offsets").

By default (--sweeps auto) the chains run in blocks until they have
converged: after each block, the rank-normalised R-hat of sigma^2, of the
MSE of the tracked entries (held out with --holdout) and of the worst
tracked prediction, pooled over the chains, must be below 1.01 and their
bulk- and tail-ESS at least 400 (Vehtari et al. 2021). Each block is as
long as all before it, so the checks come after --max-sweeps halved
until the next halving would fall below 100 (125, 250, ..., 2000 for the
default 2000), and the burn-in is the first half of the sweeps run
(Stan's warm-up convention). A chain whose mean sigma^2 exceeds ten times
the data's variance over the kept half and over the last quarter of the
sweeps is stuck and cannot mix: the fit stops there. fit
prints the sweeps taken and the diagnostics reached, and warns "not
converged" when the chains reach --max-sweeps first; summary.json holds
the same under auto_sweeps. The outputs equal those of --sweeps N
--burn-in N/2 for the N taken. --sweeps N runs N sweeps instead, with
--burn-in (default four fifths of them).

The factors of different chains are matched (the posterior does not change
when the K factors are permuted) before their means are pooled. The model
file holds S = min(--samples, chains x kept sweeps) posterior samples of W,
Z and sigma^2, evenly spaced in every chain, and the observed pattern:
about 8 S K (M + N) + 4 |observed| bytes: 157 MB for MovieLens 1M at
K = 20 and S = 100 (--samples bounds it), 3.3 MB for the synthetic data
at K = 5; bnmf predict loads it whole. fit prints the number of samples
and the size before sampling, and warns from 2 GB on. While sampling, fit holds the
data, the samples it stores and 2 K (M + N) numbers per chain for the
posterior moments (352 MB resident in all for that MovieLens 1M fit).

The default hyperparameters suit values of about 1 to 5 (ratings); fit
reports the data's mean and variance and warns when they are far from
that. --standardize divides the values by their standard deviation
(without centring, so they stay nonnegative) before sampling, and maps
every output back to the data's units: W (means, sds, samples) times the
scale, Z unchanged, sigma^2 times its square, predictions and their sds
times the scale.

Progress goes to standard error, a summary to standard output. The same
--seed gives byte-identical outputs for any --workers. Ctrl-C stops within
a sweep.
`

// fitOptions are the parsed flags of bnmf fit.
type fitOptions struct {
	model                      string
	rank, sweeps, burnIn, thin int
	autoSweeps                 bool
	maxSweeps                  int
	chains, workers, samples   int
	seed                       uint64
	sets                       setFlag
	holdout                    float64
	standardize, force         bool
	float32Factors             bool
	biases                     bool
	sigma2Start                string
	format, dataDir, out       string
	minRatings                 int
	progress                   time.Duration
}

// setFlag collects repeated --set key=value flags.
type setFlag []string

func (s *setFlag) String() string { return strings.Join(*s, " ") }

func (s *setFlag) Set(v string) error {
	if !strings.Contains(v, "=") {
		return fmt.Errorf("%q is not key=value", v)
	}
	*s = append(*s, v)
	return nil
}

func runFit(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var o fitOptions
	fs := newFlagSet("fit", fmt.Sprintf(fitUsage, strings.Join(dataset.Names(), ", ")), stdout, stderr)
	fs.StringVar(&o.model, "model", "GRRN", "the model `NAME`: "+strings.Join(bayesianModels(), ", "))
	fs.IntVar(&o.rank, "rank", 10, "the rank `K` of the factorisation")
	o.autoSweeps = true
	fs.Var(sweepsFlag{&o.sweeps, &o.autoSweeps}, "sweeps", "Gibbs sweeps `N` per chain (at most 10,000,000), or auto: run until the chains converge (R-hat < 1.01, bulk- and tail-ESS >= 400), a chain is stuck, or --max-sweeps")
	fs.IntVar(&o.maxSweeps, "max-sweeps", defaultMaxSweeps, "with --sweeps auto, at most `N` sweeps per chain (at most 10,000,000)")
	fs.IntVar(&o.burnIn, "burn-in", -1, "sweeps `B` discarded at the start of each chain; -1 means four fifths of --sweeps (with --sweeps auto: the first half of the sweeps run)")
	fs.IntVar(&o.thin, "thin", 1, "keep every `T`-th sweep after burn-in")
	fs.IntVar(&o.chains, "chains", 4, "independent chains `C`, pooled, at most 64")
	fs.Uint64Var(&o.seed, "seed", 1, "`S` seeds the chains, the hold-out split and the tracked entries")
	fs.IntVar(&o.workers, "workers", 0, "cores to use `N`; 0 means all (the outputs do not depend on it)")
	fs.Var(&o.sets, "set", "set a hyperparameter of the model, `key=value` (repeatable), such as alpha_sigma=2")
	fs.Float64Var(&o.holdout, "holdout", 0, "hold out a fraction `F` of the observed entries and score their predictions")
	fs.BoolVar(&o.standardize, "standardize", false, "divide the values by their standard deviation for sampling, and map the outputs back")
	fs.BoolVar(&o.float32Factors, "float32-factors", false, "read the other factor from float32 copies in the sweeps: faster on matrices of MovieLens 25M size; the chains differ from the default's as another seed's would")
	fs.BoolVar(&o.biases, "biases", false, "add the offsets mu + b_row + c_col to the model (Gaussian-likelihood models; named MODEL+b)")
	fs.StringVar(&o.sigma2Start, "sigma2-start", "auto", "how sigma^2 starts, `S`: conditional (drawn given the prior-drawn factors, the paper's), prior, data-variance (the training values' variance), or auto: data-variance with offsets, conditional otherwise")
	fs.IntVar(&o.samples, "samples", 100, "store at most `S` posterior samples, over all chains, in the model file")
	fs.StringVar(&o.format, "format", "", "read DATA as a file in `FORMAT` (default: detected from the file's name and first line)")
	fs.StringVar(&o.dataDir, "data-dir", "", "read MovieLens data from `DIR` (default $BNMF_DATA_DIR, else ./data)")
	fs.IntVar(&o.minRatings, "min-ratings", 0, "remove rows and columns with fewer than `N` entries (0: 3 for MovieLens data, none for other files)")
	fs.StringVar(&o.out, "out", "", "write the outputs to `DIR` (default fit-NAME, NAME being DATA's base name)")
	fs.BoolVar(&o.force, "force", false, "replace DIR if it exists")
	fs.DurationVar(&o.progress, "progress", 30*time.Second, "time between progress lines when standard error is not a terminal")
	if err := fs.parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return fs.fail("want one DATA, got %d arguments", fs.NArg())
	}
	if err := o.validate(); err != nil {
		return fmt.Errorf("fit: %w", err)
	}
	name, err := withBiasesFlag(o.model, o.biases)
	if err != nil {
		return fmt.Errorf("fit: %w", err)
	}
	model, hyper, err := configureModel(name, o.sets)
	if err != nil {
		return fmt.Errorf("fit: %w", err)
	}
	if spec, _ := bnmf.Lookup(o.model); spec.Family == bnmf.Poisson && o.standardize {
		return fmt.Errorf("fit: --model %s has a Poisson likelihood and fits counts as they are; --standardize would make them fractions", o.model)
	}
	src, err := loadFitDataContext(ctx, fs.Arg(0), o)
	if ctx.Err() != nil && o.out != "" {
		return fmt.Errorf("fit: interrupted; nothing was written to %s", o.out)
	}
	if ctx.Err() != nil {
		return fmt.Errorf("fit: interrupted while loading %s; nothing was written", fs.Arg(0))
	}
	if err != nil {
		return fmt.Errorf("fit: %w", err)
	}
	r := src.ratings
	if o.out == "" {
		o.out = "fit-" + strings.TrimSuffix(r.Name, filepath.Ext(r.Name))
	}
	if err := recoverFitDirs(o.out, stderr); err != nil {
		return fmt.Errorf("fit: %w", err)
	}
	if err := checkOutDir(o.out, o.force); err != nil {
		return fmt.Errorf("fit: %w", err)
	}
	if maxRank := min(r.Rows, r.Cols); o.rank > maxRank {
		return fmt.Errorf("fit: --rank %d exceeds min(rows, columns) = %d of %s, a %d x %d matrix", o.rank, maxRank, r.Name, r.Rows, r.Cols)
	}

	start := time.Now()
	res, err := fitData(ctx, o, src, model, hyper, stderr)
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("fit: interrupted; nothing was written to %s", o.out)
		}
		return fmt.Errorf("fit: %w", err)
	}
	if err := writeFitDir(ctx, o.out, o.force, res); err != nil {
		return fmt.Errorf("fit: %w", err)
	}
	fmt.Fprintf(stderr, "fit: %d chains of %d sweeps in %s\n", o.chains, res.chains.Results[0].Settings.Sweeps, time.Since(start).Round(time.Second))
	return res.print(stdout, o.out)
}

// fitData samples the posterior of model on the data of src as o says,
// reporting the data's scale and the progress on stderr, and summarises
// it.
func fitData(ctx context.Context, o fitOptions, src *fitSource, model bnmf.Model, hyper map[string]any, stderr io.Writer) (*fitResult, error) {
	r := src.ratings
	prob, err := newFitProblem(r, o)
	if err != nil {
		return nil, err
	}
	prob.describe(stderr)
	s := o.chainSettings()
	s.Rank, s.Workers, s.Seed, s.Test, s.Tracked = o.rank, o.workers, o.seed, prob.test, prob.tracked
	s.Float32Factors = o.float32Factors
	s.Sigma2Start = o.sigma2StartFor(model)
	if prob.heldOut {
		s.Scores = &predictive.Settings{Levels: []float64{0.5, 0.8, 0.9, 0.95}}
	}
	kept, sweeps := s.KeptSweeps(), o.sweeps
	if o.autoSweeps {
		// The most a chain keeps: the second half of the cap.
		s.Auto = &bnmf.AutoSweeps{MaxSweeps: o.maxSweeps, Stop: bnmf.AutoRule{TrainVariance: prob.train.Variance()}}
		kept, sweeps = (o.maxSweeps-o.maxSweeps/2)/o.thin, o.maxSweeps
	}
	describeModelSize(stderr, r.Rows, r.Cols, len(r.Entries), o, kept)
	collector := posterior.NewCollector(r.Rows, r.Cols, o.rank, o.chains, kept, o.samples)
	s.Draws = collector
	progress := &progress.Output{W: stderr, Terminal: isTerminal(stderr), Interval: o.progress}
	meter := progress.Sweeps(fmt.Sprintf("fit %s K=%d, %d chains", model.Name(), o.rank, o.chains), o.chains*sweeps)
	s.Recorder = meter
	chains, err := bnmf.RunChains(ctx, model, prob.train, s, o.chains)
	meter.Close()
	if err != nil {
		return nil, err
	}
	var auto *bnmf.AutoStop
	if o.autoSweeps { // judged before rescaling, as the rule saw them
		auto = chains.JudgeAuto(prob.train.Variance(), o.maxSweeps, bnmf.Thresholds{})
	}
	// Every number of the chains, and of the posterior below, goes back
	// to the data's units before anything is summarised or written.
	chains.Rescale(prob.scale)
	res := &fitResult{
		opts: o, src: src, prob: prob, model: model.Name(), hyper: hyper,
		chains: chains, auto: auto, post: collector.Pool(),
		versions: provenance.BuildVersions(buildRevision),
	}
	res.post.Rescale(prob.scale)
	if prob.heldOut {
		if res.baselines, err = heldOutBaselines(ctx, prob); err != nil {
			return nil, err
		}
	}
	res.summarise()
	return res, nil
}

// modelSizeWarn is the model file size from which fit warns before
// sampling: the samples are held in memory until they are written.
const modelSizeWarn = 2e9

// describeModelSize says, before sampling, how many samples model.npz
// will hold and about how large it will be (8 S K (M + N) + 4 |observed|
// bytes; the samples are held in memory as well), with a warning from
// modelSizeWarn bytes on.
func describeModelSize(w io.Writer, rows, cols, observed int, o fitOptions, kept int) {
	s := posterior.StoredSamples(o.chains, kept, o.samples)
	size := 8*int64(s)*int64(o.rank)*int64(rows+cols) + 4*int64(observed)
	upTo := ""
	if o.autoSweeps {
		upTo = "up to " // if the chains run to --max-sweeps
	}
	fmt.Fprintf(w, "model: %s will hold %s%d samples, about %s (--samples bounds them)\n", posterior.FileName, upTo, s, fmtBytes(size))
	if size >= modelSizeWarn {
		fmt.Fprintf(w, "warning: the %d samples are held in memory while sampling, %s; a smaller --samples shrinks them (--samples %d: %s)\n",
			s, fmtBytes(8*int64(s)*int64(o.rank)*int64(rows+cols)), o.chains, fmtBytes(8*int64(o.chains)*int64(o.rank)*int64(rows+cols)+4*int64(observed)))
	}
}
