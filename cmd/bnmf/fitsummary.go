package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"text/tabwriter"

	"gonum.org/v1/gonum/stat"

	"github.com/bnmf-lab/bnmf/bnmf"
	"github.com/bnmf-lab/bnmf/internal/provenance"
	"github.com/bnmf-lab/bnmf/posterior"
)

// fitSummary is summary.json.
type fitSummary struct {
	Model       modelSummary      `json:"model"`
	Data        dataSummary       `json:"data"`
	Sigma2      sigma2Summary     `json:"sigma2"`
	Diagnostics *bnmf.Diagnostics `json:"diagnostics"`
	// AutoSweeps says, with --sweeps auto, how the chains stopped and the
	// diagnostics they reached.
	AutoSweeps *bnmf.AutoStop `json:"auto_sweeps,omitempty"`
	// Warnings lists the caveats: the scale warning, empty rows or
	// columns, and the convergence problems the diagnostics flag.
	Warnings []string `json:"warnings"`
	// Permutations[c][k] is the factor of chain c matched to factor k of
	// chain 0 before pooling.
	Permutations [][]int         `json:"factor_permutations"`
	Holdout      *holdoutSummary `json:"holdout,omitempty"`
	// Hyper summarises the posterior of the model's shared
	// hyperparameters per latent dimension (GEEA's rates lambda_k), the
	// factors of every chain matched to chain 0's; absent for models
	// without any.
	Hyper []posterior.HyperSummary `json:"hyperparameters,omitempty"`
	// Offsets summarises mu, tau_b, tau_c and the empty lines of a model
	// with offsets (--biases); absent without.
	Offsets *offsetsSummary `json:"offsets,omitempty"`
}

// modelSummary names the model and says, from the registry
// (bnmf.Spec.RealValued), whether its factors are nonnegative.
type modelSummary struct {
	Name string `json:"name"`
	// NonnegativeFactors is false for a model whose factors, and so its
	// predictions and their intervals, may be negative (GGG, GGGA, GGGW).
	NonnegativeFactors bool `json:"nonnegative_factors"`
}

// realValuedWarning is the caveat on the factor summaries of a model whose
// factors are real-valued.
func realValuedWarning(model string) string {
	return fmt.Sprintf("factors: %s's factors are real-valued, and its posterior is unchanged when a factor of W and Z changes sign "+
		"(and, with a rotation-invariant prior such as GGG's, when the factors are rotated); the chains' factors are matched "+
		"by permutation only, so W_mean, Z_mean and their sds mix orientations, while the predictions W Z do not depend on them", model)
}

// dataSummary describes the data and its scale.
type dataSummary struct {
	Name     string `json:"name"`
	Rows     int    `json:"rows"`
	Cols     int    `json:"cols"`
	Observed int    `json:"observed"`
	Train    int    `json:"train"`
	// Mean and Variance are those of the training values in their own
	// units; Scale is what they were divided by for sampling (1 without
	// --standardize).
	Mean     float64 `json:"mean"`
	Variance float64 `json:"variance"`
	Scale    float64 `json:"scale"`
}

// sigma2Summary summarises sigma^2 over every kept sweep of every chain,
// in the data's units.
type sigma2Summary struct {
	Draws  int     `json:"draws"`
	Mean   float64 `json:"mean"`
	SD     float64 `json:"sd"`
	Q025   float64 `json:"q025"`
	Median float64 `json:"median"`
	Q975   float64 `json:"q975"`
}

// holdoutSummary scores the predictions of the held-out entries, in the
// data's units: the MSE of the posterior predictive means, the coverage
// of the central predictive intervals, the mean log predictive density
// and the mean CRPS, over the mixture of every kept sweep of every chain.
type holdoutSummary struct {
	Fraction float64 `json:"fraction"`
	Entries  int     `json:"entries"`
	MSE      float64 `json:"mse"`
	// Variance is the variance of the held-out values: the MSE of
	// predicting them all by their own mean.
	Variance       float64   `json:"variance"`
	Levels         []float64 `json:"levels"`
	Coverage       []float64 `json:"coverage"`
	MeanLogDensity float64   `json:"mean_log_density"`
	MeanCRPS       float64   `json:"mean_crps"`
	// Baselines are the baselines' errors on the same held-out entries,
	// fitted to the same training entries.
	Baselines []baselineError `json:"baselines"`
}

// summarise fills res.summary.
func (res *fitResult) summarise() {
	p, r := res.prob, res.prob.ratings
	sum := &res.summary
	spec, _ := bnmf.Lookup(res.model)
	sum.Model = modelSummary{Name: res.model, NonnegativeFactors: !spec.RealValued}
	sum.Data = dataSummary{Name: r.Name, Rows: r.Rows, Cols: r.Cols, Observed: len(r.Entries), Train: p.train.Len(),
		Mean: p.mean, Variance: p.variance, Scale: p.scale}
	sorted := slices.Clone(res.post.Sigma2)
	slices.Sort(sorted)
	mean, sd := stat.PopMeanStdDev(sorted, nil)
	sum.Sigma2 = sigma2Summary{
		Draws: len(sorted), Mean: mean, SD: sd,
		Q025:   stat.Quantile(0.025, stat.LinInterp, sorted, nil),
		Median: stat.Quantile(0.5, stat.LinInterp, sorted, nil),
		Q975:   stat.Quantile(0.975, stat.LinInterp, sorted, nil),
	}
	what := "training"
	if p.heldOut {
		what = "held-out"
	}
	var diagWarnings []string
	// The chains are in the data's units (see fit), p.train is not.
	sum.Diagnostics, diagWarnings = res.chains.Diagnose(p.train.Variance()*p.scale*p.scale, what, bnmf.Thresholds{})
	if p.warning != "" {
		sum.Warnings = append(sum.Warnings, "scale: "+p.warning)
	}
	if spec.RealValued {
		sum.Warnings = append(sum.Warnings, realValuedWarning(res.model))
	}
	sum.Warnings = append(append(sum.Warnings, res.chains.Pooled.Warnings...), diagWarnings...)
	if sum.AutoSweeps = res.auto; res.auto != nil {
		sum.Warnings = append(sum.Warnings, res.auto.Warnings(what, bnmf.Thresholds{})...)
	}
	sum.Permutations = res.post.Permutations
	sum.Hyper = posterior.SummariseHyper(res.chains.Results, res.post.Permutations)
	sum.Offsets = summariseOffsets(res.chains.Pooled.Offsets)
	if sc := res.chains.Pooled.Scores; p.heldOut && sc != nil {
		s := p.scale
		var tm, tv float64
		for _, e := range p.test {
			tm += e.Value * s
		}
		tm /= float64(len(p.test))
		for _, e := range p.test {
			d := e.Value*s - tm
			tv += d * d
		}
		sum.Holdout = &holdoutSummary{
			Fraction: res.opts.holdout, Entries: len(p.test),
			MSE: res.chains.Pooled.TestMSE, Variance: tv / float64(len(p.test)),
			Levels: sc.Levels, Coverage: sc.Scores[0].Coverage,
			MeanLogDensity: sc.Scores[0].MeanLogDensity,
			MeanCRPS:       sc.Scores[0].MeanCRPS,
			Baselines:      res.baselines,
		}
	}
}

// fitManifest is manifest.json: what made the outputs.
type fitManifest struct {
	Format  string `json:"format"`
	Version int    `json:"version"`
	Data    struct {
		Dataset    string `json:"dataset,omitempty"`
		Path       string `json:"path,omitempty"`
		Format     string `json:"format,omitempty"`
		SHA256     string `json:"sha256,omitempty"`
		MinRatings int    `json:"min_ratings"`
	} `json:"data"`
	Model           string         `json:"model"`
	Hyperparameters map[string]any `json:"hyperparameters"`
	Settings        struct {
		Rank        int     `json:"rank"`
		Sweeps      int     `json:"sweeps"`
		BurnIn      int     `json:"burn_in"`
		Thin        int     `json:"thin"`
		Kept        int     `json:"kept_per_chain"`
		Chains      int     `json:"chains"`
		Seed        uint64  `json:"seed"`
		Holdout     float64 `json:"holdout"`
		Standardize bool    `json:"standardize"`
		// Float32Factors is left out when false, so that the manifest
		// of a default fit is what it was before the flag existed.
		Float32Factors bool `json:"float32_factors,omitempty"`
		// Sigma2Start is how sigma^2 started, left out for the paper's
		// start (conditional), so that such a manifest is what it was
		// before the flag existed.
		Sigma2Start string `json:"sigma2_start,omitempty"`
		Samples     int    `json:"samples"`

		// MaxSweeps is the cap of --sweeps auto, left out otherwise;
		// Sweeps is then the sweeps each chain ran.
		MaxSweeps int `json:"max_sweeps,omitempty"`
	} `json:"settings"`
	Versions provenance.Versions `json:"versions"`
}

// manifest returns manifest.json's content. It leaves out --workers and
// wall times, so that equal seeds give equal files.
func (res *fitResult) manifest() fitManifest {
	var m fitManifest
	m.Format, m.Version = "bnmf-fit", 1
	m.Data.Dataset, m.Data.Path, m.Data.Format, m.Data.SHA256 = res.src.dataset, res.src.path, res.src.format, res.src.sha256
	m.Data.MinRatings = res.opts.minRatings
	m.Model = res.model
	m.Hyperparameters = res.hyper
	s := res.chains.Results[0].Settings
	st := &m.Settings
	st.Rank, st.Sweeps, st.BurnIn, st.Thin, st.Kept = s.Rank, s.Sweeps, s.BurnInSweeps(), s.Thin, res.chains.Results[0].Kept
	st.Chains, st.Seed, st.Holdout, st.Standardize = len(res.chains.Results), res.opts.seed, res.opts.holdout, res.opts.standardize
	st.Float32Factors = res.opts.float32Factors
	if start := s.Sigma2Start; start != bnmf.Sigma2FromConditional {
		st.Sigma2Start = start.String()
	}
	if res.auto != nil {
		st.MaxSweeps = res.auto.MaxSweeps
	}
	st.Samples = len(res.post.SamplesW)
	m.Versions = res.versions
	return m
}

// print writes the fit's summary to w.
func (res *fitResult) print(w io.Writer, dir string) error {
	sum := &res.summary
	s := res.chains.Results[0].Settings
	fmt.Fprintf(w, "%s, K = %d, on %s: %d chains x %d kept sweeps (%d sweeps, burn-in %d, thin %d), seed %d\n",
		res.model, s.Rank, sum.Data.Name, len(res.chains.Results), res.chains.Results[0].Kept, s.Sweeps, s.BurnInSweeps(), s.Thin, res.opts.seed)
	if spec, _ := bnmf.Lookup(res.model); spec.Family == bnmf.Poisson {
		fmt.Fprintln(w, "sigma^2: none (Poisson likelihood; the predictive distributions are mixtures of Poissons)")
	} else {
		sg := sum.Sigma2
		fmt.Fprintf(w, "sigma^2: posterior mean %.4g, sd %.3g, 95%% interval [%.4g, %.4g]\n", sg.Mean, sg.SD, sg.Q025, sg.Q975)
	}
	if h := sum.Holdout; h != nil {
		i := slices.Index(h.Levels, 0.9)
		fmt.Fprintf(w, "held out %d entries (%v): MSE %.4g (their variance %.4g), 90%% interval coverage %.3f, mean log density %.4g, CRPS %.4g\n",
			h.Entries, h.Fraction, h.MSE, h.Variance, h.Coverage[i], h.MeanLogDensity, h.MeanCRPS)
		printBaselines(w, h.Baselines)
	}
	for _, h := range sum.Hyper {
		fmt.Fprintf(w, "%s per dimension, posterior mean [95%% interval]:", h.Name)
		for k := range h.Mean {
			fmt.Fprintf(w, " %.3g [%.3g, %.3g]", h.Mean[k], h.Q025[k], h.Q975[k])
		}
		fmt.Fprintln(w)
	}
	printOffsets(w, sum.Offsets)
	if d := sum.Diagnostics; d != nil {
		chains := fmt.Sprintf("%d chains", d.Chains)
		if d.Chains == 1 {
			chains = "the two halves of one chain"
		}
		th := bnmf.DefaultThresholds()
		fmt.Fprintf(w, "\nconvergence over %s of %d kept sweeps (want R-hat <= %v, bulk-ESS >= %d):\n", chains, d.Kept, th.MaxRHat, th.MinESSPerChain*d.Chains)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "quantity\tR-hat\tbulk-ESS\ttail-ESS\t")
		what := "training"
		if res.prob.heldOut {
			what = "held-out"
		}
		for _, q := range d.Quantities(what) {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t\n", q.Name, fmtOpt(q.RHat, "%.3f"), fmtOpt(q.ESSBulk, "%.0f"), fmtOpt(q.ESSTail, "%.0f"))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	if res.auto != nil {
		what := "training"
		if res.prob.heldOut {
			what = "held-out"
		}
		if err := printAuto(w, res.auto, what); err != nil {
			return err
		}
	}
	if len(sum.Warnings) == 0 {
		fmt.Fprintln(w, "no problems flagged")
	}
	for _, warn := range sum.Warnings {
		fmt.Fprintln(w, "warning:", warn)
	}
	fmt.Fprintf(w, "\nwrote %s (%s: %s)\n", dir, posterior.FileName, fmtBytes(fileSize(filepath.Join(dir, posterior.FileName))))
	return nil
}

// fmtOpt formats an optional number, "-" when absent.
func fmtOpt(x *float64, format string) string {
	if x == nil {
		return "-"
	}
	return fmt.Sprintf(format, *x)
}

// fmtBytes formats a size in bytes, such as "2.4 MB".
func fmtBytes(n int64) string {
	switch {
	case n < 0:
		return "size unknown"
	case n < 1e3:
		return fmt.Sprintf("%d B", n)
	case n < 1e6:
		return fmt.Sprintf("%.1f kB", float64(n)/1e3)
	case n < 1e9:
		return fmt.Sprintf("%.1f MB", float64(n)/1e6)
	}
	return fmt.Sprintf("%.2f GB", float64(n)/1e9)
}

// fileSize returns the size of the file at path, or -1 if it cannot be
// read.
func fileSize(path string) int64 {
	fi, err := os.Stat(path)
	if err != nil {
		return -1
	}
	return fi.Size()
}
