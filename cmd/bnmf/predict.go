package main

import (
	"bufio"
	"cmp"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/stat/distuv"

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
		minObs    = fs.Int("min-observed", defaultMinObserved, minObservedUsage)
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
		path = filepath.Join(path, modelFile)
	}
	m, err := readModel(path)
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
		rows = identity(m.Rows)
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
		err = writeTopPredictions(ctx, bw, m, rows, topOptions{n: *top, level: *level, inclObs: *inclObs, byLower: *by == "lower", minObserved: *minObs}, *workers)
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

// prediction is the posterior predictive distribution of one entry,
// summarised.
type prediction struct {
	Mean, SD, Lower, Upper float64
}

// predictEntry returns the prediction of entry (row, col) at interval
// level a; mu is scratch space of one float per sample.
func (m *fittedModel) predictEntry(row, col int, a float64, mu []float64) prediction {
	k := m.Rank
	for s := range m.W {
		mu[s] = floats.Dot(m.W[s][row*k:(row+1)*k], m.Zt[s][col*k:(col+1)*k]) + m.offset(s, row, col)
	}
	if m.poisson {
		mix := predictive.PoissonMixture{Rate: mu}
		lo, hi := mix.Interval(a)
		return prediction{Mean: mix.Mean(), SD: math.Sqrt(mix.Variance()), Lower: float64(lo), Upper: float64(hi)}
	}
	mix := predictive.Mixture{Mu: mu, Sigma2: m.Sigma2}
	lo, hi := mix.Interval(a, 0)
	return prediction{Mean: mix.Mean(), SD: math.Sqrt(mix.Variance()), Lower: lo, Upper: hi}
}

// predictPairs returns the predictions of the (row, col) index pairs.
func (m *fittedModel) predictPairs(pairs [][2]int, a float64) []prediction {
	mu := make([]float64, len(m.W))
	out := make([]prediction, len(pairs))
	for i, p := range pairs {
		out[i] = m.predictEntry(p[0], p[1], a, mu)
	}
	return out
}

// ranked is one column of a row's ranking.
type ranked struct {
	col int
	prediction
}

// topOptions are the choices of a --top ranking.
type topOptions struct {
	n       int     // columns per row
	level   float64 // of the central intervals
	inclObs bool    // rank observed entries too
	byLower bool    // rank by the interval's lower end, not the mean
	// minObserved is the number of observed entries a column needs to
	// be ranked, and counts those of every column (set by
	// writeTopPredictions).
	minObserved int
	counts      []int32
}

// topScratch is one worker's scratch space for topColumns.
type topScratch struct {
	mean, bound, sq []float64 // N each
	mu              []float64 // S
	sdz             []float64 // S: sigma_s z
}

func newTopScratch(m *fittedModel) *topScratch {
	return &topScratch{
		mean: make([]float64, m.Cols), bound: make([]float64, m.Cols), sq: make([]float64, m.Cols),
		mu: make([]float64, len(m.W)), sdz: make([]float64, len(m.W)),
	}
}

// topColumns returns the o.n columns of row with the highest predictive
// mean, or lower interval end if o.byLower (ties to the lower column),
// leaving out the row's observed ones unless o.inclObs, with their
// predictions.
func (m *fittedModel) topColumns(row int, o topOptions, sc *topScratch) []ranked {
	k, S := m.Rank, len(m.W)
	mean, bound, sq := sc.mean, sc.bound, sc.sq
	clear(mean)
	clear(sq)
	// The lower end of a column's interval, the mixture's q-quantile with
	// q = (1-level)/2, is at most max_s (mu_s + sigma_s z) with z the
	// normal q-quantile: there every component's CDF is at least q.
	z := distuv.UnitNormal.Quantile((1 - o.level) / 2)
	for s, v := range m.Sigma2 {
		sc.sdz[s] = math.Sqrt(v) * z
		if m.poisson {
			// For a mixture of Poissons the lower end, a quantile below
			// the median, is at most the largest component's median,
			// which is below its rate plus 1/3 (Choi 1994, "Medians of
			// gamma distributions and an equation of Ramanujan", Proc.
			// AMS 121).
			sc.sdz[s] = 1.0 / 3
		}
	}
	if o.byLower {
		for j := range bound {
			bound[j] = math.Inf(-1)
		}
	}
	inv := 1 / float64(S)
	for s, w := range m.W {
		wm := w[row*k : (row+1)*k]
		zt := m.Zt[s]
		for j := range m.Cols {
			d := floats.Dot(wm, zt[j*k:(j+1)*k]) + m.offset(s, row, j)
			mean[j] += d * inv
			if o.byLower {
				sq[j] += d * d * inv
				bound[j] = max(bound[j], d+sc.sdz[s])
			}
		}
	}
	observed := m.ObservedCol[m.ObservedPtr[row]:m.ObservedPtr[row+1]]
	cand := make([]int, 0, m.Cols)
	for j := range m.Cols {
		if o.minObserved > 1 && int(o.counts[j]) < o.minObserved {
			continue
		}
		if o.inclObs {
			cand = append(cand, j)
		} else if _, ok := slices.BinarySearch(observed, int32(j)); !ok {
			cand = append(cand, j)
		}
	}
	key := mean
	if o.byLower {
		// A computed lower end may exceed the true one by the quantile
		// search's tolerance, DefaultTol of the mixture's sd: the bound
		// allows twice that, with sd from the mixture's moments. Without
		// it, a column whose bound is tight could be pruned although its
		// computed lower end beats the n-th best's: a near-tie within the
		// search's error (TestPredictTopByLowerNearTie).
		var meanVar float64
		for _, v := range m.Sigma2 {
			meanVar += v * inv
		}
		for _, j := range cand {
			sd := math.Sqrt(max(0, meanVar+sq[j]-mean[j]*mean[j]))
			bound[j] += 2 * predictive.DefaultTol * sd
		}
		key = bound
	}
	slices.SortFunc(cand, func(x, y int) int {
		if c := cmp.Compare(key[y], key[x]); c != 0 {
			return c
		}
		return cmp.Compare(x, y)
	})
	if !o.byLower {
		cand = cand[:min(o.n, len(cand))]
		out := make([]ranked, len(cand))
		for i, j := range cand {
			out[i] = ranked{col: j, prediction: m.predictEntry(row, j, o.level, sc.mu)}
		}
		return out
	}
	// Best first by lower end; a column whose bound is below the n-th
	// best lower end found so far cannot enter, nor can any after it.
	best := make([]ranked, 0, min(o.n, len(cand))+1) // --top may exceed the columns
	for _, j := range cand {
		if len(best) == o.n && bound[j] < best[o.n-1].Lower {
			break
		}
		r := ranked{col: j, prediction: m.predictEntry(row, j, o.level, sc.mu)}
		at, _ := slices.BinarySearchFunc(best, r, func(a, b ranked) int {
			if c := cmp.Compare(b.Lower, a.Lower); c != 0 {
				return c
			}
			return cmp.Compare(a.col, b.col)
		})
		best = slices.Insert(best, at, r)
		if len(best) > o.n {
			best = best[:o.n]
		}
	}
	return best
}

// writePairPredictions writes the predictions of pairs as CSV.
func writePairPredictions(w io.Writer, m *fittedModel, pairs [][2]int, a float64) error {
	cw := csv.NewWriter(w)
	if err := cw.Write([]string{"row_id", "col_id", "mean", "sd", "lower", "upper", "range"}); err != nil {
		return err
	}
	for i, p := range m.predictPairs(pairs, a) {
		pr := pairs[i]
		rec := append([]string{m.RowIDs[pr[0]], m.ColIDs[pr[1]]}, p.fields()...)
		if err := cw.Write(append(rec, m.rangeFlag(p.Mean))); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// writeTopPredictions writes the top n columns of each row as CSV,
// ranking rows on up to workers goroutines; the output is in the order of
// rows whatever the number of workers.
func writeTopPredictions(ctx context.Context, w io.Writer, m *fittedModel, rows []int, o topOptions, workers int) error {
	if workers == 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	cw := csv.NewWriter(w)
	if err := cw.Write([]string{"row_id", "rank", "col_id", "mean", "sd", "lower", "upper", "range"}); err != nil {
		return err
	}
	o.counts = m.columnCounts()
	// Rows are ranked in batches, each row by one worker, and written in
	// order after each batch.
	const batch = 256
	results := make([][]ranked, batch)
	for lo := 0; lo < len(rows); lo += batch {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("interrupted: %w", err)
		}
		hi := min(lo+batch, len(rows))
		var wg sync.WaitGroup
		next := make(chan int)
		for range min(workers, hi-lo) {
			wg.Add(1)
			go func() {
				defer wg.Done()
				sc := newTopScratch(m)
				for i := range next {
					results[i-lo] = m.topColumns(rows[i], o, sc)
				}
			}()
		}
		for i := lo; i < hi; i++ {
			next <- i
		}
		close(next)
		wg.Wait()
		for i := lo; i < hi; i++ {
			for r, rk := range results[i-lo] {
				rec := append([]string{m.RowIDs[rows[i]], strconv.Itoa(r + 1), m.ColIDs[rk.col]}, rk.fields()...)
				if err := cw.Write(append(rec, m.rangeFlag(rk.Mean))); err != nil {
					return err
				}
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

// fields formats a prediction's numbers in the shortest form that reads
// back exactly.
func (p prediction) fields() []string {
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
func readPairs(file string, m *fittedModel) ([][2]int, error) {
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
func readRowIDs(file string, m *fittedModel) ([]int, error) {
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
