// Command blio-k1-signs reruns rank-one cells of a model-selection study,
// from the seed the study ran them with and from other starts, and writes
// for each chain, as CSV, the signs of its factors, the share of its
// training ratings it predicts negative and its held-out MSE.
//
// A rank-one fit w z^T with real-valued factors can split: some rows of w
// and some columns of z negative, the others positive, so that the ratings
// of a negative row in a positive column (and the reverse) are predicted
// negative. The program tells such chains apart from those whose factors
// keep one sign.
//
// Each cell's training and test entries, model and settings are those the
// study's runner gives it (experiments.Plan.CellChains). Start s of a cell
// is seeded bnmf.ChainSeed(seed, s), seed being the cell's own: start 0
// is the chain the study ran, start s that of chain s had the study run
// s+1 chains per cell. For start 0 at the configured sweeps, a stored
// record of the cell in -study must hold the same held-out MSE, or the
// program fails: the rerun would not be the study's chain.
//
// Usage:
//
//	go run ./scripts/blio-k1-signs [-config FILE] [-study DIR] [-models GGGU,GLL,GLLI]
//	    [-folds 0,3] [-starts N] [-sweeps N] [-workers N] [-out FILE]
//
// MovieLens data is read from $BNMF_DATA_DIR.
package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"

	"github.com/bnmf-lab/bnmf/bnmf"
	"github.com/bnmf-lab/bnmf/experiments"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "blio-k1-signs:", err)
		os.Exit(1)
	}
}

// header is the CSV's column row.
var header = []string{
	"model", "fold", "start", "seed", "sweeps", "burn_in",
	"train_mse", "sigma2_mean", "test_mse", "stored_test_mse",
	"final_w_neg", "final_z_neg", "final_train_neg_share",
	"mean_w_neg", "mean_z_neg", "mean_train_neg_share",
	"kept_sign_changes",
}

// run parses args, reruns the chains they select and writes the CSV to
// the -out file, or to stdout; stderr gets a line per chain.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("blio-k1-signs", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		configPath = fs.String("config", "configs/blio-ml100k-model-selection.yaml", "the study's config")
		studyDir   = fs.String("study", "results/blio-ml100k-model-selection", "the study's stored records, to check start 0 against (empty: no check)")
		models     = fs.String("models", "GGGU,GLL,GLLI", "comma-separated models of the config")
		folds      = fs.String("folds", "", "comma-separated folds (repeats), from 0; empty means all")
		cellList   = fs.String("cells", "", "comma-separated MODEL:FOLD pairs, in place of -models and -folds")
		starts     = fs.Int("starts", 1, "starts per cell: 0 (the study's own seed) to N-1")
		sweeps     = fs.Int("sweeps", 0, "sweeps per chain, keeping the config's number of kept sweeps (0: the config's)")
		workers    = fs.Int("workers", 1, "sampler workers per chain (the numbers do not depend on it)")
		out        = fs.String("out", "", "CSV file to write (empty: stdout)")
	)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if *starts < 1 || *workers < 1 || *sweeps < 0 {
		return fmt.Errorf("-starts %d, -workers %d, -sweeps %d: want at least 1, 1 and 0", *starts, *workers, *sweeps)
	}
	cfg, err := experiments.LoadConfig(*configPath)
	if err != nil {
		return err
	}
	if len(cfg.Ranks) == 0 || !slices.Contains(cfg.Ranks, 1) {
		return fmt.Errorf("%s: rank 1 is not among the ranks %v", *configPath, cfg.Ranks)
	}
	opts := options{starts: *starts, sweeps: *sweeps, workers: *workers}
	cells, err := selectCells(*cellList, *models, *folds, cfg.Repeats)
	if err != nil {
		return err
	}
	plan, err := experiments.PrepareContext(ctx, cfg, experiments.PrepareOptions{})
	if err != nil {
		return err
	}
	stored := map[string]float64{}
	if *studyDir != "" {
		st, err := experiments.LoadStudy(*studyDir)
		if err != nil {
			return err
		}
		for _, r := range st.Records {
			if r.Error == "" {
				stored[r.Cell.Key()] = r.Metrics.TestMSE
			}
		}
	}

	// The CSV is written whole at the end: an interrupted run leaves no
	// partial file.
	var w bytes.Buffer
	fmt.Fprintf(&w, "# Made from the repository root, with MovieLens 100K in $BNMF_DATA_DIR, by: go run ./scripts/blio-k1-signs %s\n", strings.Join(args, " "))
	fmt.Fprintf(&w, "# %s, rank 1; %s is %d x %d. Start s is seeded bnmf.ChainSeed(cell seed, s); start 0 is the study's chain.\n",
		cfg.Name, plan.Manifest.Dataset, plan.Manifest.Rows, plan.Manifest.Cols)
	fmt.Fprintf(&w, "# final_*: the last sweep's W and Z; mean_*: their posterior means over the kept sweeps. *_w_neg and *_z_neg count the rows of W and columns of Z below 0;\n")
	fmt.Fprintf(&w, "# *_train_neg_share is the share of training ratings predicted below 0; kept_sign_changes counts the entries of W and Z whose sign changes within the kept sweeps.\n")
	cw := csv.NewWriter(&w)
	if err := cw.Write(header); err != nil {
		return fmt.Errorf("writing the output: %w", err)
	}
	for _, c := range cells {
		if err := rerunCell(ctx, plan, c, opts, stored, cw, stderr); err != nil {
			return err
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("writing the output: %w", err)
	}
	if *out == "" {
		_, err = stdout.Write(w.Bytes())
		return err
	}
	if err := os.WriteFile(*out, w.Bytes(), 0o644); err != nil {
		return fmt.Errorf("writing the output: %w", err)
	}
	return nil
}

// options are the settings of the reruns that apply to every cell.
type options struct {
	starts, sweeps, workers int
}

// rerunCell reruns the given starts of cell c of plan and writes a CSV row
// for each to cw and a line to stderr. stored holds the held-out MSE of
// the study's records by cell key, which start 0 at the configured sweeps
// must reproduce.
func rerunCell(ctx context.Context, plan *experiments.Plan, c experiments.Cell, opts options, stored map[string]float64, cw *csv.Writer, stderr io.Writer) error {
	in, err := plan.CellChains(c, opts.workers)
	if err != nil {
		return err
	}
	if opts.sweeps > 0 {
		kept := in.Settings.Sweeps - in.Settings.BurnIn
		in.Settings.Sweeps, in.Settings.BurnIn = opts.sweeps, max(0, opts.sweeps-kept)
	}
	want, haveStored := stored[c.Key()]
	for s := range opts.starts {
		row, err := rerun(ctx, in, s)
		if err != nil {
			return fmt.Errorf("cell %s, start %d: %w", c.Key(), s, err)
		}
		storedMSE := ""
		if haveStored && s == 0 && opts.sweeps == 0 && in.Chains == 1 {
			if row.testMSE != want {
				return fmt.Errorf("cell %s: the rerun's held-out MSE %v differs from the stored record's %v", c.Key(), row.testMSE, want)
			}
			storedMSE = formatFloat(want)
		}
		rec := []string{
			c.Model, strconv.Itoa(c.Repeat), strconv.Itoa(s), strconv.FormatUint(row.seed, 10),
			strconv.Itoa(in.Settings.Sweeps), strconv.Itoa(in.Settings.BurnIn),
			formatFloat(row.trainMSE), formatFloat(row.sigma2Mean), formatFloat(row.testMSE), storedMSE,
			strconv.Itoa(row.final.wNeg), strconv.Itoa(row.final.zNeg), formatFloat(row.final.negShare),
			strconv.Itoa(row.mean.wNeg), strconv.Itoa(row.mean.zNeg), formatFloat(row.mean.negShare),
			strconv.Itoa(row.keptSignChanges),
		}
		if err := cw.Write(rec); err != nil {
			return fmt.Errorf("writing the output: %w", err)
		}
		rows, cols := in.Train.Dims()
		fmt.Fprintf(stderr, "%s start %d: train MSE %.4f, held-out MSE %.4f, %d of %d rows and %d of %d columns negative, %.2f%% of training ratings predicted negative\n",
			c.Key(), s, row.trainMSE, row.testMSE, row.mean.wNeg, rows, row.mean.zNeg, cols, 100*row.mean.negShare)
	}
	return nil
}

// signSummary describes the signs of a rank-one state w z^T.
type signSummary struct {
	wNeg, zNeg int     // rows of W and columns of Z below 0
	negShare   float64 // share of the training ratings predicted below 0
}

// chainRow is what one chain gives.
type chainRow struct {
	seed                          uint64
	trainMSE, sigma2Mean, testMSE float64
	final, mean                   signSummary
	keptSignChanges               int
}

// rerun runs start s of the cell that in describes and summarises it.
func rerun(ctx context.Context, in experiments.CellChains, s int) (chainRow, error) {
	settings := in.Settings
	settings.Seed = bnmf.ChainSeed(in.Settings.Seed, s)
	rec := &signRecorder{}
	settings.Draws = rec
	res, err := bnmf.Run(ctx, in.Model, in.Train, settings)
	if err != nil {
		return chainRow{}, err
	}
	res.Rescale(in.Scale)
	if rec.last == nil {
		return chainRow{}, errors.New("the chain kept no draws")
	}
	if res.MeanW == nil || res.MeanZ == nil {
		return chainRow{}, errors.New("the chain has no posterior means of W and Z")
	}
	rows, cols := in.Train.Dims()
	meanW, meanZ := make([]float64, rows), make([]float64, cols)
	for i := range meanW {
		meanW[i] = res.MeanW.At(i, 0)
	}
	for j := range meanZ {
		meanZ[j] = res.MeanZ.At(0, j)
	}
	changes := 0
	for _, c := range rec.changed {
		if c {
			changes++
		}
	}
	return chainRow{
		seed:            settings.Seed,
		trainMSE:        res.TrainMSE,
		sigma2Mean:      res.Sigma2Mean,
		testMSE:         res.TestMSE,
		final:           signs(in.Train, rec.last[:rows], rec.last[rows:]),
		mean:            signs(in.Train, meanW, meanZ),
		keptSignChanges: changes,
	}, nil
}

// signs summarises the rank-one state w z^T on the training entries of m.
func signs(m *bnmf.Matrix, w, z []float64) signSummary {
	var s signSummary
	for _, x := range w {
		if x < 0 {
			s.wNeg++
		}
	}
	for _, x := range z {
		if x < 0 {
			s.zNeg++
		}
	}
	neg := 0
	for i := range w {
		cols, _ := m.Row(i)
		for _, j := range cols {
			if w[i]*z[j] < 0 {
				neg++
			}
		}
	}
	s.negShare = float64(neg) / float64(m.Len())
	return s
}

// signRecorder keeps the last kept draw of a rank-one chain (W, then Z)
// and marks the entries whose sign changed between kept draws.
type signRecorder struct {
	last    []float64
	changed []bool
}

// RecordDraw implements bnmf.DrawRecorder.
func (r *signRecorder) RecordDraw(d bnmf.Draw) error {
	if len(d.W)+len(d.Zt) != len(r.last) {
		if r.last != nil {
			return fmt.Errorf("draw of sweep %d has %d entries, the previous %d", d.Sweep, len(d.W)+len(d.Zt), len(r.last))
		}
		r.last = append(append([]float64(nil), d.W...), d.Zt...)
		r.changed = make([]bool, len(r.last))
		return nil
	}
	for i, x := range d.W {
		r.update(i, x)
	}
	for j, x := range d.Zt {
		r.update(len(d.W)+j, x)
	}
	return nil
}

// update sets entry i of the kept state to x, marking a change of sign.
func (r *signRecorder) update(i int, x float64) {
	if (x < 0) != (r.last[i] < 0) {
		r.changed[i] = true
	}
	r.last[i] = x
}

// selectCells returns the rank-one cells to rerun, in a study with n
// folds: those of the MODEL:FOLD pairs of cellList, or else those of
// every model of models (comma-separated) at every fold of folds
// (comma-separated; empty means all).
func selectCells(cellList, models, folds string, n int) ([]experiments.Cell, error) {
	var cells []experiments.Cell
	if cellList != "" {
		for _, s := range strings.Split(cellList, ",") {
			model, fold, ok := strings.Cut(s, ":")
			f, err := parseFold(fold, n)
			if !ok || model == "" || err != nil {
				return nil, fmt.Errorf("-cells: %q is not MODEL:FOLD with a fold from 0 to %d", s, n-1)
			}
			cells = append(cells, experiments.Cell{Model: model, Rank: 1, Repeat: f})
		}
		return cells, nil
	}
	var foldList []int
	if folds == "" {
		for f := range n {
			foldList = append(foldList, f)
		}
	}
	for _, s := range strings.Split(folds, ",") {
		if folds == "" {
			break
		}
		f, err := parseFold(s, n)
		if err != nil {
			return nil, fmt.Errorf("-folds: %w", err)
		}
		foldList = append(foldList, f)
	}
	for _, model := range strings.Split(models, ",") {
		for _, f := range foldList {
			cells = append(cells, experiments.Cell{Model: model, Rank: 1, Repeat: f})
		}
	}
	return cells, nil
}

// parseFold returns the fold that s names, in a study with n folds.
func parseFold(s string, n int) (int, error) {
	f, err := strconv.Atoi(s)
	if err != nil || f < 0 || f >= n {
		return 0, fmt.Errorf("%q is not a fold from 0 to %d", s, n-1)
	}
	return f, nil
}

func formatFloat(x float64) string { return strconv.FormatFloat(x, 'g', 8, 64) }
