package main

import (
	"bufio"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/bnmf-lab/bnmf/bnmf"
	"github.com/bnmf-lab/bnmf/internal/atomicfile"
	"github.com/bnmf-lab/bnmf/internal/npy"
	"github.com/bnmf-lab/bnmf/internal/provenance"
	"github.com/bnmf-lab/bnmf/posterior"
	"github.com/bnmf-lab/bnmf/report"
)

// fitResult is everything a fit writes.
type fitResult struct {
	opts     fitOptions
	src      *fitSource
	prob     *fitProblem
	model    string
	hyper    map[string]any
	chains   *bnmf.Chains
	auto     *bnmf.AutoStop // with --sweeps auto
	post     *posterior.Posterior
	versions provenance.Versions
	// baselines are the baselines' held-out errors (with --holdout).
	baselines []baselineError

	summary fitSummary
}

// fittedModel returns the model file's content.
func (res *fitResult) fittedModel() *posterior.Model {
	r := res.prob.ratings
	return posterior.NewModel(res.post, posterior.Header{
		Model: res.model, Scale: res.prob.scale, RowIDs: r.RowIDs, ColIDs: r.ColIDs,
		TrainRange: []float64{res.prob.valueMin, res.prob.valueMax},
	}, r.Entries)
}

// writeFitDir writes every output into a temporary directory beside dir
// and renames it to dir at the end (replacing dir with force), so that dir
// never holds a partial fit. A cancelled ctx before the rename discards
// the temporary directory. The temporary directory is named after this
// process (see atomicfile.TempPrefix), so that the next fit into dir
// removes it if this one is killed (see recoverFitDirs).
func writeFitDir(ctx context.Context, dir string, force bool, res *fitResult) (err error) {
	parent := filepath.Dir(filepath.Clean(dir))
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return err
	}
	host, _ := os.Hostname() // without a name, the directory records an empty host
	tmp, err := os.MkdirTemp(parent, atomicfile.TempPrefix(filepath.Base(filepath.Clean(dir)), os.Getpid(), host))
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = os.RemoveAll(tmp) // best effort: the error says what failed
		}
	}()
	if err := os.Chmod(tmp, 0o755); err != nil {
		return err
	}
	if err := res.writeFiles(tmp); err != nil {
		return err
	}
	if err := atomicfile.SyncDir(tmp); err != nil {
		return err
	}
	if ctx.Err() != nil {
		return fmt.Errorf("interrupted; nothing was written to %s", dir)
	}
	entries, rerr := os.ReadDir(dir)
	if rerr != nil {
		if err := os.Rename(tmp, dir); err != nil {
			return err
		}
		return atomicfile.SyncDir(parent)
	}
	if len(entries) > 0 && !force {
		return fmt.Errorf("--out %s was filled while fitting; the outputs are left out", dir)
	}
	return replaceDir(tmp, dir, parent, atomicfile.Exchange)
}

// oldSuffix ends the name under which replaceDir moves the replaced
// outputs aside where it cannot exchange the directories.
const oldSuffix = ".old"

// replaceDir puts the directory tmp in place of the directory dir, both in
// parent, and removes the replaced one. Where the system can, it
// exchanges the two in one step (atomicfile.Exchange), so that dir always
// exists; elsewhere it moves dir aside to tmp + oldSuffix and renames tmp
// to dir, and a crash between the two renames leaves dir missing until
// the next fit into it puts the old outputs back (recoverFitDirs).
// exchange is atomicfile.Exchange; a test passes one that cannot.
func replaceDir(tmp, dir, parent string, exchange func(a, b string) error) error {
	err := exchange(tmp, dir)
	if err == nil {
		// tmp now holds the replaced outputs.
		if err := atomicfile.SyncDir(parent); err != nil {
			return err
		}
		if err := os.RemoveAll(tmp); err != nil {
			return fmt.Errorf("removing the replaced outputs: %w", err)
		}
		return nil
	}
	if !errors.Is(err, atomicfile.ErrNoExchange) {
		return err
	}
	old := tmp + oldSuffix
	if err := os.Rename(dir, old); err != nil {
		return err
	}
	if err := os.Rename(tmp, dir); err != nil {
		_ = os.Rename(old, dir) // put the old outputs back; the error says what failed
		return err
	}
	if err := os.RemoveAll(old); err != nil {
		return fmt.Errorf("removing the replaced outputs: %w", err)
	}
	return atomicfile.SyncDir(parent)
}

// recoverFitDirs cleans up after fits into dir that were killed, before a
// new fit into dir starts: it removes their temporary directories (the
// size of a model file each), and if one was killed between the two
// renames of replaceDir, so that dir is missing, puts dir's old outputs
// back (the fit never finished, so dir is left as it was before it).
// Only directories of processes of this host that no longer run are
// touched (atomicfile.Abandoned); what it did is said on w.
func recoverFitDirs(dir string, w io.Writer) error {
	dir = filepath.Clean(dir)
	parent, base := filepath.Dir(dir), filepath.Base(dir)
	entries, err := os.ReadDir(parent)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	var olds, temps []string
	for _, e := range entries {
		name := e.Name()
		if !e.IsDir() || !strings.HasPrefix(name, "."+base+".tmp-") || !atomicfile.Abandoned(name) {
			continue
		}
		if strings.HasSuffix(name, oldSuffix) {
			olds = append(olds, name)
		} else {
			temps = append(temps, name)
		}
	}
	for _, name := range olds {
		path := filepath.Join(parent, name)
		if _, err := os.Lstat(dir); errors.Is(err, fs.ErrNotExist) {
			if err := os.Rename(path, dir); err != nil {
				return fmt.Errorf("putting back the outputs of %s: %w", dir, err)
			}
			fmt.Fprintf(w, "fit: put back the earlier outputs of %s, which a fit killed while replacing them had moved to %s\n", dir, name)
			continue
		}
		temps = append(temps, name)
	}
	for _, name := range temps {
		if err := os.RemoveAll(filepath.Join(parent, name)); err != nil {
			return fmt.Errorf("removing the temporary directory of a killed fit: %w", err)
		}
	}
	if len(temps) > 0 {
		fmt.Fprintf(w, "fit: removed %d temporary %s of killed fits into %s\n", len(temps), countNoun(len(temps), "directory", "directories"), dir)
	}
	return nil
}

// writeFiles writes every output file into dir.
func (res *fitResult) writeFiles(dir string) error {
	p, r := res.post, res.prob.ratings
	k := p.Rank
	zT := func(x []float64) []float64 { return posterior.Transpose(x, p.Cols, k) }
	files := []struct {
		name  string
		write func(io.Writer) error
	}{
		{"W_mean.csv", func(w io.Writer) error { return writeFactorCSV(w, "row_id", r.RowIDs, p.MeanW, k) }},
		{"W_sd.csv", func(w io.Writer) error { return writeFactorCSV(w, "row_id", r.RowIDs, p.SDW, k) }},
		{"Z_mean.csv", func(w io.Writer) error { return writeFactorCSV(w, "col_id", r.ColIDs, p.MeanZ, k) }},
		{"Z_sd.csv", func(w io.Writer) error { return writeFactorCSV(w, "col_id", r.ColIDs, p.SDZ, k) }},
		{"W_mean.npy", func(w io.Writer) error { return npy.Write(w, []int{p.Rows, k}, p.MeanW) }},
		{"W_sd.npy", func(w io.Writer) error { return npy.Write(w, []int{p.Rows, k}, p.SDW) }},
		{"Z_mean.npy", func(w io.Writer) error { return npy.Write(w, []int{k, p.Cols}, zT(p.MeanZ)) }},
		{"Z_sd.npy", func(w io.Writer) error { return npy.Write(w, []int{k, p.Cols}, zT(p.SDZ)) }},
		{"row_ids.txt", func(w io.Writer) error { return writeLines(w, r.RowIDs) }},
		{"col_ids.txt", func(w io.Writer) error { return writeLines(w, r.ColIDs) }},
		{"summary.json", func(w io.Writer) error { return writeJSON(w, res.summary) }},
		{"manifest.json", func(w io.Writer) error { return writeJSON(w, res.manifest()) }},
		{"trace.png", res.writeTrace},
		{posterior.FileName, func(w io.Writer) error { return res.fittedModel().Write(w) }},
	}
	files = append(files, res.offsetFiles()...)
	if res.prob.heldOut {
		files = append(files, []struct {
			name  string
			write func(io.Writer) error
		}{
			{"holdout.csv", res.writeHeldOutCSV},
			{"holdout.npy", res.writeHeldOutNpy},
			{"holdout_index.npy", res.writeHeldOutIndex},
		}...)
	}
	for _, f := range files {
		if err := writeFile(filepath.Join(dir, f.name), f.write); err != nil {
			return err
		}
	}
	return nil
}

// writeFile creates path, writes it with write and syncs it.
func writeFile(path string, write func(io.Writer) error) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	err = write(bw)
	if err == nil {
		err = bw.Flush()
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("writing %s: %w", filepath.Base(path), err)
	}
	return nil
}

// writeFactorCSV writes a factor matrix (a row of k values per id) with a
// header "<idName>,factor_1,...,factor_k". Numbers are written in the
// shortest form that reads back exactly.
func writeFactorCSV(w io.Writer, idName string, ids []string, x []float64, k int) error {
	cw := csv.NewWriter(w)
	rec := make([]string, k+1)
	rec[0] = idName
	for j := range k {
		rec[j+1] = "factor_" + strconv.Itoa(j+1)
	}
	if err := cw.Write(rec); err != nil {
		return err
	}
	for i, id := range ids {
		rec[0] = id
		for j := range k {
			rec[j+1] = strconv.FormatFloat(x[i*k+j], 'g', -1, 64)
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// writeLines writes one string a line.
func writeLines(w io.Writer, lines []string) error {
	for _, l := range lines {
		if _, err := io.WriteString(w, l+"\n"); err != nil {
			return err
		}
	}
	return nil
}

// writeJSON writes v as indented JSON.
func writeJSON(w io.Writer, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// writeTrace draws every chain's train MSE, sigma^2 and log-likelihood
// against the sweep, in the data's units.
func (res *fitResult) writeTrace(w io.Writer) error {
	traces := []report.Trace{{Name: "train MSE"}, {Name: "sigma^2"}, {Name: "log-likelihood"}}
	for _, r := range res.chains.Results {
		mse := make([]float64, len(r.Trace))
		sigma2 := make([]float64, len(r.Trace))
		ll := make([]float64, len(r.Trace))
		for i, st := range r.Trace {
			mse[i], sigma2[i], ll[i] = st.TrainMSE, st.Sigma2, st.LogLikelihood
		}
		traces[0].Chains = append(traces[0].Chains, mse)
		traces[1].Chains = append(traces[1].Chains, sigma2)
		traces[2].Chains = append(traces[2].Chains, ll)
	}
	title := fmt.Sprintf("%s, K = %d, on %s: %d chains", res.model, res.post.Rank, res.prob.ratings.Name, len(res.chains.Results))
	f, err := report.TraceFigure(title, traces, res.chains.Results[0].Settings.BurnInSweeps())
	if err != nil {
		return err
	}
	return f.WritePNG(w)
}
