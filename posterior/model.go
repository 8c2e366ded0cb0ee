package posterior

import (
	"archive/zip"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"time"

	"github.com/bnmf-lab/bnmf/bnmf"
	"github.com/bnmf-lab/bnmf/internal/npy"
)

// The model file that bnmf fit writes and bnmf predict reads.
//
// It is a NumPy .npz archive (a zip of uncompressed .npy arrays), so that
// numpy.load opens it too, holding:
//
//	model.json             format, version, model, shape, ids (Header)
//	W.npy                  S x M x K samples of W, '<f8'
//	Z.npy                  S x K x N samples of Z, '<f8'
//	sigma2.npy             S samples of sigma^2, '<f8'
//	observed_indptr.npy    M + 1 row offsets of the observed entries, '<i8'
//	observed_indices.npy   |Omega| column indices, row by row, '<i4'
//	mu.npy, b.npy, c.npy   with offsets (model.json's offsets): S samples
//	                       of mu, S x M of b, S x N of c, '<f8'
//
// S is the number of stored samples (at most --samples, 100 by default,
// taken evenly from every chain's kept sweeps), all in the data's own
// units. The observed entries, every entry of the data file (held-out
// ones included), are in SciPy's CSR layout, for bnmf predict --top to
// leave out. The size is 8 S (K (M + N) + 1) + 8 (M + 1) + 4 |Omega|
// bytes, plus about 1.5 KB of zip and .npy headers and model.json, which
// lists the ids: 156,850,888 bytes (114 KB of it headers and ids) for
// MovieLens 1M (6040 x 3503, 999,917 entries) at K = 20 and S = 100,
// 3.3 MB for the synthetic data at K = 5.
//
// The samples are stored chain by chain, the same number from each chain
// (Collector stores them so), so that ByChain can split them again for
// diagnostics; a file whose chains do not divide its samples is read as
// one chain.
const (
	// FileName is the model file's name in a fit's directory.
	FileName = "model.npz"
	// FileFormat is model.json's format.
	FileFormat = "bnmf-model"
	// FileVersion is the version of the format that Write writes and
	// Read reads.
	FileVersion = 1
)

// Header is model.json: what the arrays of a model file are. Write sets
// Format and Version.
type Header struct {
	Format  string `json:"format"`
	Version int    `json:"version"`
	Model   string `json:"model"`
	Rank    int    `json:"rank"`
	Rows    int    `json:"rows"`
	Cols    int    `json:"cols"`
	Samples int    `json:"samples"`
	Chains  int    `json:"chains"`
	// Scale is the factor the values were divided by for sampling (1
	// without --standardize); the samples are already in the data's units.
	Scale  float64  `json:"scale"`
	RowIDs []string `json:"row_ids"`
	ColIDs []string `json:"col_ids"`
	// TrainRange is the smallest and the largest training value, in the
	// data's units (absent from older files).
	TrainRange []float64 `json:"train_range,omitempty"`
	// Offsets is set when the model has offsets mu + b_i + c_j
	// (mu.npy, b.npy, c.npy); absent from other files, which are then
	// what they were before offsets existed.
	Offsets bool `json:"offsets,omitempty"`
}

// Model is the content of a model file: the stored posterior samples of
// a fit, in the data's units, and its observed entries. NewModel makes one
// from a Posterior, Read from a file; Predict, PredictPairs and Top
// predict from it.
type Model struct {
	Header
	// W holds each sample's W (M x K), Zt its Z transposed (N x K), both
	// row-major, and Sigma2 its sigma^2.
	W, Zt  [][]float64
	Sigma2 []float64
	// ObservedPtr and ObservedCol are the observed entries in CSR form:
	// row i's columns are ObservedCol[ObservedPtr[i]:ObservedPtr[i+1]],
	// increasing.
	ObservedPtr []int64
	ObservedCol []int32
	// With Offsets: each sample's mu, b (M) and c (N).
	Mu   []float64
	B, C [][]float64
}

// Poisson reports whether the model has a Poisson likelihood (PGG,
// PGGG): its predictive distributions are mixtures of Poissons with the
// samples' w_m . z_n as rates, and its Sigma2 samples are 0.
func (m *Model) Poisson() bool {
	spec, ok := bnmf.Lookup(m.Model)
	return ok && spec.Family == bnmf.Poisson
}

// NewModel returns the model of the posterior p, whose stored samples it
// shares: h gives the model's name, the scale, the ids and the training
// range, and NewModel sets its rank, shape, samples and chains from p.
// Nil ids become "1", "2", ...; observed are the entries of the data
// (held-out ones included), which Top leaves out, each (row, column) at
// most once, in any order. It panics if an id list or an entry does not
// fit p's shape.
func NewModel(p *Posterior, h Header, observed []bnmf.Entry) *Model {
	h.Rank, h.Rows, h.Cols = p.Rank, p.Rows, p.Cols
	h.Samples, h.Chains = len(p.SamplesW), len(p.Permutations)
	if h.RowIDs == nil {
		h.RowIDs = numberedIDs(p.Rows)
	}
	if h.ColIDs == nil {
		h.ColIDs = numberedIDs(p.Cols)
	}
	if len(h.RowIDs) != p.Rows || len(h.ColIDs) != p.Cols {
		panic(fmt.Sprintf("bnmf: %d row and %d column ids for a %d x %d posterior", len(h.RowIDs), len(h.ColIDs), p.Rows, p.Cols))
	}
	m := &Model{Header: h, W: p.SamplesW, Zt: p.SamplesZ, Sigma2: p.SamplesSigma2,
		Mu: p.SamplesMu, B: p.SamplesB, C: p.SamplesC}
	m.Offsets = m.B != nil
	cmpEntry := func(a, b bnmf.Entry) int { return cmp.Or(cmp.Compare(a.Row, b.Row), cmp.Compare(a.Col, b.Col)) }
	if !slices.IsSortedFunc(observed, cmpEntry) {
		observed = slices.SortedFunc(slices.Values(observed), cmpEntry)
	}
	m.ObservedPtr = make([]int64, p.Rows+1)
	m.ObservedCol = make([]int32, len(observed))
	for i, e := range observed {
		if e.Row < 0 || e.Row >= p.Rows || e.Col < 0 || e.Col >= p.Cols {
			panic(fmt.Sprintf("bnmf: observed entry (%d, %d) outside a %d x %d posterior", e.Row, e.Col, p.Rows, p.Cols))
		}
		m.ObservedPtr[e.Row+1]++
		m.ObservedCol[i] = int32(e.Col)
	}
	for i := range p.Rows {
		m.ObservedPtr[i+1] += m.ObservedPtr[i]
	}
	return m
}

// numberedIDs returns "1", ..., n.
func numberedIDs(n int) []string {
	ids := make([]string, n)
	for i := range ids {
		ids[i] = strconv.Itoa(i + 1)
	}
	return ids
}

// Chain is the stored samples of one chain of a Model.
type Chain struct {
	// W holds each sample's W (M x K), Zt its Z transposed (N x K), and
	// Sigma2 its sigma^2, in the order the chain drew them.
	W, Zt  [][]float64
	Sigma2 []float64
}

// ByChain returns the stored samples split into their chains, for
// diagnostics such as mcmcdiag.RHat of sigma^2 over the chains. The
// samples are stored chain by chain, Samples / Chains each; a model whose
// Chains is not positive or does not divide its samples (the samples then
// cannot be told apart) is returned as one chain. The slices alias m's.
func (m *Model) ByChain() []Chain {
	s, c := len(m.W), m.Chains
	if c < 1 || s%c != 0 {
		c = 1
	}
	per := s / c
	out := make([]Chain, c)
	for i := range out {
		lo, hi := i*per, (i+1)*per
		out[i] = Chain{W: m.W[lo:hi], Zt: m.Zt[lo:hi], Sigma2: m.Sigma2[lo:hi]}
	}
	return out
}

// zipTime is the modification time of every archive member, fixed so
// that equal models give equal files.
var zipTime = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

// Write writes m to w as a model file.
func (m *Model) Write(w io.Writer) error {
	zw := zip.NewWriter(w)
	member := func(name string, write func(io.Writer) error) error {
		f, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Store, Modified: zipTime})
		if err != nil {
			return err
		}
		if err := write(f); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		return nil
	}
	h := m.Header
	h.Format, h.Version = FileFormat, FileVersion
	header, err := json.MarshalIndent(h, "", "  ")
	if err != nil {
		return err
	}
	s, mm, n, k := len(m.W), m.Rows, m.Cols, m.Rank
	err = errors.Join(
		member("model.json", func(w io.Writer) error { _, err := w.Write(append(header, '\n')); return err }),
		member("W.npy", func(w io.Writer) error { return writeSamples(w, []int{s, mm, k}, m.W, nil) }),
		member("Z.npy", func(w io.Writer) error {
			return writeSamples(w, []int{s, k, n}, m.Zt, func(zt []float64) []float64 { return Transpose(zt, n, k) })
		}),
		member("sigma2.npy", func(w io.Writer) error { return npy.Write(w, []int{s}, m.Sigma2) }),
		member("observed_indptr.npy", func(w io.Writer) error { return npy.Write(w, []int{mm + 1}, m.ObservedPtr) }),
		member("observed_indices.npy", func(w io.Writer) error { return npy.Write(w, []int{len(m.ObservedCol)}, m.ObservedCol) }),
		writeOffsets(member, m),
		zw.Close(),
	)
	if err != nil {
		return fmt.Errorf("writing the model: %w", err)
	}
	return nil
}

// writeSamples writes the samples, each transformed by f if not nil, as
// one array of the given shape, a sample at a time.
func writeSamples(w io.Writer, shape []int, samples [][]float64, f func([]float64) []float64) error {
	if err := npy.WriteHeader[float64](w, shape); err != nil {
		return err
	}
	for _, x := range samples {
		if f != nil {
			x = f(x)
		}
		if err := npy.WriteData(w, x); err != nil {
			return err
		}
	}
	return nil
}

// Transpose returns the transpose of the rows x cols row-major x: Z from
// the N x K Z transposed of a Posterior or Model, for one.
func Transpose(x []float64, rows, cols int) []float64 {
	t := make([]float64, len(x))
	for i := range rows {
		for j := range cols {
			t[j*rows+i] = x[i*cols+j]
		}
	}
	return t
}
