package main

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"

	"github.com/bnmf-lab/bnmf/bnmf"
	"github.com/bnmf-lab/bnmf/internal/npy"
)

// heldOutLevel is the level of the interval that holdout.csv gives for
// each held-out entry, predict's default --level.
const heldOutLevel = 0.9

// heldOutColumns are the columns of holdout.csv after the ids, and those
// of holdout.npy.
var heldOutColumns = []string{"value", "mean", "sd", "lower", "upper", "log_density", "crps"}

// baselineError is one baseline's error on the held-out entries, in the
// data's units.
type baselineError struct {
	Model string  `json:"model"`
	MSE   float64 `json:"mse"`
	MAE   float64 `json:"mae"`
}

// heldOutBaselines fits every baseline (bnmf.Specs with Baseline set) to
// the training entries of p and returns its errors on the held-out ones:
// the same split the model was scored on, so that its MSE compares with
// theirs.
func heldOutBaselines(ctx context.Context, p *fitProblem) ([]baselineError, error) {
	var out []baselineError
	for _, spec := range bnmf.Specs() {
		if !spec.Baseline {
			continue
		}
		// A baseline's rank is that of its rule (1 or 2); Run ignores
		// none of the settings that matter here, and the baselines draw
		// no random numbers.
		res, err := bnmf.Run(ctx, spec.Zero, p.train, bnmf.Settings{Rank: 2, Sweeps: 1, Workers: 1, Test: p.test})
		if err != nil {
			return nil, fmt.Errorf("baseline %s: %w", spec.Name, err)
		}
		var mae float64
		for i, e := range p.test {
			mae += math.Abs(res.PredictiveMean[i] - e.Value)
		}
		s := p.scale
		out = append(out, baselineError{Model: spec.Name, MSE: res.TestMSE * s * s, MAE: mae / float64(len(p.test)) * s})
	}
	return out, nil
}

// heldOutRows returns, for each held-out entry, the numbers of
// heldOutColumns in the data's units.
func (res *fitResult) heldOutRows() ([][]float64, error) {
	sc := res.chains.Pooled.Scores
	l := slices.Index(sc.Levels, heldOutLevel)
	if l < 0 {
		return nil, fmt.Errorf("no %v interval among the scored levels %v", heldOutLevel, sc.Levels)
	}
	rows := make([][]float64, len(res.prob.test))
	for i, e := range res.prob.test {
		rows[i] = []float64{e.Value * res.prob.scale, sc.Mean[i], math.Sqrt(sc.Variance[i]), sc.Lower[l][i], sc.Upper[l][i],
			sc.Scores[0].LogDensity[i], sc.Scores[0].CRPS[i]}
	}
	return rows, nil
}

// writeHeldOutCSV writes holdout.csv: a line per held-out entry with its
// ids, its value and its prediction.
func (res *fitResult) writeHeldOutCSV(w io.Writer) error {
	rows, err := res.heldOutRows()
	if err != nil {
		return err
	}
	r := res.prob.ratings
	cw := csv.NewWriter(w)
	if err := cw.Write(append([]string{"row_id", "col_id"}, heldOutColumns...)); err != nil {
		return err
	}
	rec := make([]string, 2+len(heldOutColumns))
	for i, e := range res.prob.test {
		rec[0], rec[1] = r.RowIDs[e.Row], r.ColIDs[e.Col]
		for j, x := range rows[i] {
			rec[2+j] = strconv.FormatFloat(x, 'g', -1, 64)
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// writeHeldOutNpy writes holdout.npy, the numbers of holdout.csv as an
// E x 7 '<f8' array.
func (res *fitResult) writeHeldOutNpy(w io.Writer) error {
	rows, err := res.heldOutRows()
	if err != nil {
		return err
	}
	flat := make([]float64, 0, len(rows)*len(heldOutColumns))
	for _, r := range rows {
		flat = append(flat, r...)
	}
	return npy.Write(w, []int{len(rows), len(heldOutColumns)}, flat)
}

// writeHeldOutIndex writes holdout_index.npy, the row and column index
// (into row_ids.txt and col_ids.txt) of each held-out entry as an E x 2
// '<i8' array.
func (res *fitResult) writeHeldOutIndex(w io.Writer) error {
	idx := make([]int64, 0, 2*len(res.prob.test))
	for _, e := range res.prob.test {
		idx = append(idx, int64(e.Row), int64(e.Col))
	}
	return npy.Write(w, []int{len(res.prob.test), 2}, idx)
}

// printBaselines writes the baselines' held-out MSEs on one line.
func printBaselines(w io.Writer, bs []baselineError) {
	if len(bs) == 0 {
		return
	}
	fmt.Fprint(w, "baselines on the same held-out entries: MSE")
	for i, b := range bs {
		sep := ","
		if i == 0 {
			sep = ""
		}
		fmt.Fprintf(w, "%s %s %.4g", sep, b.Model, b.MSE)
	}
	fmt.Fprintln(w)
}
