package report

import (
	"encoding/csv"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/bnmf-lab/bnmf/experiments"
)

// csvHeader names the columns of WriteCSV for a study on axis: a
// SettingAxis's column follows noise_ratio; every other axis has its
// column in every study's header.
func csvHeader(axis experiments.Axis) []string {
	var setting []string
	if _, ok := axis.(experiments.SettingAxis); ok {
		setting = []string{axis.Column()}
	}
	return slices.Concat([]string{
		"study", "kind", "dataset", "config_hash",
		"model", "rank", "fraction", "noise_ratio"}, setting, []string{"repeat", "status", "seed",
		"rows", "cols", "train_entries", "test_entries", "sweeps", "burn_in", "thin",
		"train_mse", "test_mse", "test_mse_of_means", "sigma2_mean",
		"test_mse_clean", "data_variance", "var_over_mse", "var_over_mse_clean",
		"seconds_per_sweep",
		"worst_rhat", "min_ess_bulk", "min_ess_tail", "stuck",
		"coverage_90", "width_90", "log_density", "crps",
		"wall_seconds", "error", "warnings",
	})
}

// csvLevel is the level of the central interval whose coverage and width
// WriteCSV gives.
const csvLevel = 0.9

// WriteCSV writes a study as tidy CSV: a header, then one row per cell the
// manifest lists, in the manifest's order. The status column is "ok",
// "failed" or "missing"; values that do not apply (a missing or failed
// cell's metrics, test metrics of a convergence study, noise metrics of
// other studies, a fraction outside sparsity studies, a noise ratio
// outside noise studies) are empty. The diagnostics columns give, over
// the cell's quantities (train MSE, sigma^2, log-likelihood and the
// worst tracked prediction), the largest R-hat and the smallest bulk-
// and tail-ESS, and whether a chain was stuck ("true" or "false"); the
// predictive columns the coverage and mean width of the central 90%
// intervals of the held-out entries, their mean log predictive density
// and CRPS. Both are empty for a cell without them (NMF, the baselines,
// records made before they existed). Records the report does not use (another
// config hash, an unlisted cell) are not written. Records hold no
// non-finite numbers: the runner stores an infinite or NaN metric as
// +-math.MaxFloat64 with a warning (in the warnings column), and
// it is written as that number.
func WriteCSV(w io.Writer, st *experiments.Study) error {
	m := st.Manifest
	cells := expectedCells(m)
	expected := make(map[experiments.Cell]bool, len(cells))
	for _, c := range cells {
		expected[c] = true
	}
	records, _ := acceptRecords(st, expected) // the report lists the rejected ones as warnings
	byCell := make(map[experiments.Cell]*experiments.Record, len(records))
	for i := range records {
		byCell[records[i].Cell] = &records[i]
	}

	axis, heldOut := experiments.ManifestAxis(&m)
	header := csvHeader(axis)
	cw := csv.NewWriter(w)
	if err := cw.Write(header); err != nil {
		return fmt.Errorf("report: csv: %w", err)
	}
	for _, c := range cells {
		row := make([]string, slices.Index(header, "repeat")+1)
		copy(row, []string{m.Study, m.Kind, m.Dataset, m.ConfigHash, c.Model, strconv.Itoa(c.Rank)})
		row[len(row)-1] = strconv.Itoa(c.Repeat)
		// The setting columns are empty where the study kind does not
		// vary them.
		if i := slices.Index(header, axis.Column()); i >= 0 {
			row[i] = fmtFloat(axis.Value(c))
		}
		r, ok := byCell[c]
		if !ok {
			row = append(row, "missing")
			row = append(row, make([]string, len(header)-len(row))...)
		} else {
			row = append(row, recordColumns(r, heldOut)...)
		}
		if err := cw.Write(row); err != nil {
			return fmt.Errorf("report: csv: %w", err)
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("report: csv: %w", err)
	}
	return nil
}

// recordColumns returns the columns of WriteCSV from status on.
// heldOut says whether the study's cells have a test set.
func recordColumns(r *experiments.Record, heldOut bool) []string {
	status := "ok"
	if r.Error != "" {
		status = "failed"
	}
	row := []string{status, strconv.FormatUint(r.Seed, 10),
		strconv.Itoa(r.Rows), strconv.Itoa(r.Cols), strconv.Itoa(r.TrainEntries), strconv.Itoa(r.TestEntries),
		strconv.Itoa(r.Sweeps), strconv.Itoa(r.BurnIn), strconv.Itoa(r.Thin)}
	mt := r.Metrics
	always := func(x float64) string { return fmtFloat(x) }
	test := func(x float64) string {
		if !heldOut {
			return ""
		}
		return fmtFloat(x)
	}
	optional := func(x float64) string { // omitted from the record when not computed
		if x == 0 {
			return ""
		}
		return fmtFloat(x)
	}
	metrics := []string{always(mt.TrainMSE), test(mt.TestMSE), test(mt.TestMSEOfMeans), always(mt.Sigma2Mean),
		optional(mt.TestMSEClean), optional(mt.DataVariance), optional(mt.VarOverMSE), optional(mt.VarOverMSEClean),
		always(mt.SecondsPerSweep)}
	metrics = append(metrics, diagnosticColumns(r)...)
	metrics = append(metrics, predictiveColumns(r)...)
	if r.Error != "" {
		metrics = make([]string, len(metrics))
	}
	row = append(row, metrics...)
	return append(row, fmtFloat(r.WallSeconds), oneLine(r.Error), oneLine(strings.Join(r.Warnings, "; ")))
}
