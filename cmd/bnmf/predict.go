package main

import (
	"bufio"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"github.com/bnmf-lab/bnmf/internal/workpool"
	"github.com/bnmf-lab/bnmf/posterior"
	"github.com/bnmf-lab/bnmf/predictive"
)

const predictUsage = `Usage: bnmf predict [flags] MODEL_DIR

Predicts entries from the posterior samples that bnmf fit stored in
MODEL_DIR/model.npz (MODEL_DIR may also name the file). Each prediction
is the posterior predictive distribution of the entry, the mixture over
the S stored samples of N(w_m . z_n, sigma^2), or of Poi(w_m . z_n) for a
model with a Poisson likelihood (PGG, PGGG): its mean, its standard
deviation and its central interval at --level (mixture quantiles; whole
counts for a Poisson model), in the data's units. Writes CSV to standard output (or --out).

With --pairs FILE: one line per pair of FILE, whose lines hold a row id
and a column id (separated by a tab, a comma or spaces, as in the data;
further fields, such as a value, are ignored; a first line whose ids are
both unknown is a header). Output: row_id,col_id,mean,sd,lower,upper,range.

With --top N: for every row (or those listed in --rows FILE, one id a
line), the N columns with the highest predictive mean, leaving out the
row's observed entries unless --include-observed, and the columns with
fewer than --min-observed observed entries in the data file (default
10): a column rated once or twice is pinned down by its ratings in one
or two of the K directions only, and its predictions can rise far above
any rating. Output: row_id,rank,col_id,mean,sd,lower,upper,range. This
costs S K N operations per row. With --by lower, the columns are ranked by the lower end of their
central interval at --level instead: a column whose prediction is
uncertain ranks below one as good on average whose prediction is sure.
Only columns that could enter the top N have their quantiles computed
(each column's lower end is at most max over samples of
w_m . z_n + sigma z, z the standard normal quantile at (1-level)/2), so
this costs little more than ranking by the mean.

The range column says whether the predictive mean lies within the
training values' range ("in"), above their largest ("above") or below
their smallest ("below"); it is empty for a model file from before it
was recorded.

An id that the model does not know is an error naming it and its line.
A damaged model file is refused, naming the member and field: every
member is checked against its CRC-32, every size that model.json gives
against the bytes that back it (before anything is allocated), the
samples for finite values and positive sigma^2, the ids for repeats,
the observed pattern for offsets and columns in range and in order.
The model is loaded whole: its memory is the size of model.npz, plus Z's
samples once more while they are transposed (224 MB resident for a
157 MB model of MovieLens 1M at K = 20).
`

func runPredict(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("predict", predictUsage, stdout, stderr)
	var (
		pairsFile = fs.String("pairs", "", "predict the (row id, column id) pairs listed in `FILE`")
		top       = fs.Int("top", 0, "rank each row's columns and write the best `N`")
		rowsFile  = fs.String("rows", "", "with --top, rank only the rows whose ids `FILE` lists, one a line")
		level     = fs.Float64("level", 0.9, "the level `A` of the central predictive intervals, in (0, 1)")
		inclObs   = fs.Bool("include-observed", false, "with --top, rank observed entries too")
		out       = fs.String("out", "", "write the CSV to `FILE` instead of standard output")
		workers   = fs.Int("workers", 0, "cores to use `N` for --top; 0 means all (the output does not depend on it)")
		minObs    = fs.Int("min-observed", posterior.DefaultMinObserved, minObservedUsage)
		by        = fs.String("by", "mean", "with --top, rank by `WHAT`: mean (the predictive mean) or lower (the lower end of the interval at --level)")
	)
	if err := fs.parse(args); err != nil {
		return err
	}
	switch {
	case fs.NArg() != 1:
		return fs.fail("want one MODEL_DIR, got %d arguments", fs.NArg())
	case (*pairsFile == "") == (*top == 0):
		return fs.fail("give either --pairs FILE or --top N")
	case *top < 0:
		return fmt.Errorf("predict: --top %d must be positive", *top)
	case *rowsFile != "" && *top == 0:
		return errors.New("predict: --rows needs --top")
	case predictive.CheckLevel(*level) != nil:
		return fmt.Errorf("predict: --%w", predictive.CheckLevel(*level))
	case *workers < 0:
		return fmt.Errorf("predict: --workers %d must not be negative", *workers)
	case *by != "mean" && *by != "lower":
		return fmt.Errorf("predict: --by %q is not one of mean, lower", *by)
	case *minObs < 0:
		return fmt.Errorf("predict: --min-observed %d must not be negative", *minObs)
	case *by != "mean" && *top == 0:
		return errors.New("predict: --by needs --top")
	}
	path := fs.Arg(0)
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		path = filepath.Join(path, posterior.FileName)
	}
	m, err := posterior.Read(path)
	if err != nil {
		return fmt.Errorf("predict: %w", err)
	}
	var rows []int
	var pairs [][2]int
	if *pairsFile != "" {
		if pairs, err = readPairs(*pairsFile, m); err != nil {
			return fmt.Errorf("predict: %w", err)
		}
	} else if *rowsFile != "" {
		if rows, err = readRowIDs(*rowsFile, m); err != nil {
			return fmt.Errorf("predict: %w", err)
		}
	} else {
		rows = make([]int, m.Rows)
		for i := range rows {
			rows[i] = i
		}
	}

	w := stdout
	var f *os.File
	if *out != "" {
		if f, err = os.Create(*out); err != nil {
			return fmt.Errorf("predict: %w", err)
		}
		w = f
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	if pairs != nil {
		err = writePairPredictions(bw, m, pairs, *level)
	} else {
		err = writeTopPredictions(ctx, bw, m, rows, posterior.TopOptions{N: *top, Level: *level, IncludeObserved: *inclObs, ByLower: *by == "lower", MinObserved: *minObs}, *workers)
	}
	if err == nil {
		err = bw.Flush()
	}
	if f != nil {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		return fmt.Errorf("predict: %w", err)
	}
	return nil
}

// writePairPredictions writes the predictions of pairs as CSV.
func writePairPredictions(w io.Writer, m *posterior.Model, pairs [][2]int, a float64) error {
	cw := csv.NewWriter(w)
	if err := cw.Write([]string{"row_id", "col_id", "mean", "sd", "lower", "upper", "range"}); err != nil {
		return err
	}
	for i, p := range m.PredictPairs(pairs, a) {
		pr := pairs[i]
		rec := append([]string{m.RowIDs[pr[0]], m.ColIDs[pr[1]]}, predictionFields(p)...)
		if err := cw.Write(append(rec, m.RangeFlag(p.Mean))); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// writeTopPredictions writes the top n columns of each row as CSV,
// ranking rows on up to workers goroutines; the output is in the order of
// rows whatever the number of workers.
func writeTopPredictions(ctx context.Context, w io.Writer, m *posterior.Model, rows []int, o posterior.TopOptions, workers int) error {
	if workers == 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	cw := csv.NewWriter(w)
	if err := cw.Write([]string{"row_id", "rank", "col_id", "mean", "sd", "lower", "upper", "range"}); err != nil {
		return err
	}
	base := m.NewRanker(o)
	// Rows are ranked in batches, each row by one worker with a ranker of
	// its own, and written in order after each batch.
	const batch = 256
	results := make([][]posterior.Ranked, batch)
	for lo := 0; lo < len(rows); lo += batch {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("interrupted: %w", err)
		}
		hi := min(lo+batch, len(rows))
		err := workpool.RangeWith(ctx, hi-lo, workers, base.Clone, func(_ context.Context, rk *posterior.Ranker, i int) error {
			results[i] = rk.Top(rows[lo+i])
			return nil
		})
		if err != nil {
			return fmt.Errorf("interrupted: %w", err)
		}
		for i := lo; i < hi; i++ {
			for r, rk := range results[i-lo] {
				rec := append([]string{m.RowIDs[rows[i]], strconv.Itoa(r + 1), m.ColIDs[rk.Col]}, predictionFields(rk.Prediction)...)
				if err := cw.Write(append(rec, m.RangeFlag(rk.Mean))); err != nil {
					return err
				}
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

// predictionFields formats a prediction's numbers in the shortest form
// that reads back exactly.
func predictionFields(p posterior.Prediction) []string {
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	return []string{f(p.Mean), f(p.SD), f(p.Lower), f(p.Upper)}
}

// idIndex maps ids to their indices.
func idIndex(ids []string) map[string]int {
	idx := make(map[string]int, len(ids))
	for i, id := range ids {
		idx[id] = i
	}
	return idx
}

// readPairs reads the (row id, column id) pairs of file and returns their
// indices in m. See predictUsage for the format.
func readPairs(file string, m *posterior.Model) ([][2]int, error) {
	rowIdx, colIdx := idIndex(m.RowIDs), idIndex(m.ColIDs)
	var pairs [][2]int
	err := readIDLines(file, 2, func(line int, fields []string, first bool) error {
		r, rok := rowIdx[fields[0]]
		c, cok := colIdx[fields[1]]
		switch {
		case first && !rok && !cok:
			return nil // a header
		case !rok:
			return fmt.Errorf("%s:%d: row id %q is not in the model (row_ids.txt lists its rows)", file, line, fields[0])
		case !cok:
			return fmt.Errorf("%s:%d: column id %q is not in the model (col_ids.txt lists its columns)", file, line, fields[1])
		}
		pairs = append(pairs, [2]int{r, c})
		return nil
	})
	if err == nil && len(pairs) == 0 {
		err = fmt.Errorf("%s: no pairs", file)
	}
	return pairs, err
}

// readRowIDs reads the row ids of file, one a line, and returns their
// indices in m.
func readRowIDs(file string, m *posterior.Model) ([]int, error) {
	rowIdx := idIndex(m.RowIDs)
	var rows []int
	err := readIDLines(file, 1, func(line int, fields []string, first bool) error {
		r, ok := rowIdx[fields[0]]
		if !ok {
			return fmt.Errorf("%s:%d: row id %q is not in the model (row_ids.txt lists its rows)", file, line, fields[0])
		}
		rows = append(rows, r)
		return nil
	})
	if err == nil && len(rows) == 0 {
		err = fmt.Errorf("%s: no row ids", file)
	}
	return rows, err
}

// readIDLines calls f with the first n fields of every non-blank line of
// file, trimmed and unquoted, and whether it is the first such line. The
// separator is a tab if the first non-blank line has one, else a comma if
// it has one, else runs of spaces, as in a triplets file.
func readIDLines(file string, n int, f func(line int, fields []string, first bool) error) error {
	fh, err := os.Open(file)
	if err != nil {
		return err
	}
	defer fh.Close() // read-only: a close error loses nothing
	sc := bufio.NewScanner(fh)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	var sep string
	first := true
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimPrefix(sc.Text(), "\ufeff")
		if strings.TrimSpace(text) == "" {
			continue
		}
		if first {
			switch {
			case strings.Contains(text, "\t"):
				sep = "\t"
			case strings.Contains(text, ","):
				sep = ","
			}
		}
		var fields []string
		if sep == "" {
			fields = strings.Fields(text)
		} else {
			fields = strings.Split(text, sep)
		}
		if len(fields) < n {
			return fmt.Errorf("%s:%d: want %d fields separated by %s, found %d", file, line, n, sepWord(sep), len(fields))
		}
		for i := range n {
			fields[i] = strings.Trim(strings.TrimSpace(fields[i]), `"`)
		}
		if err := f(line, fields[:n], first); err != nil {
			return err
		}
		first = false
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	return nil
}

func sepWord(sep string) string {
	switch sep {
	case "\t":
		return "tabs"
	case ",":
		return "commas"
	}
	return "spaces"
}
