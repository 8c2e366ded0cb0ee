package main

import (
	"archive/zip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/bnmf-lab/bnmf/internal/npy"
)

// The model file that bnmf fit writes and bnmf predict reads.
//
// It is a NumPy .npz archive (a zip of uncompressed .npy arrays), so that
// numpy.load opens it too, holding:
//
//	model.json             format, version, model, shape, ids (modelHeader)
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
const (
	modelFile    = "model.npz"
	modelFormat  = "bnmf-model"
	modelVersion = 1
)

// modelHeader is model.json.
type modelHeader struct {
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

// fittedModel is the content of a model file.
type fittedModel struct {
	modelHeader
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
	// poisson is set, when read, for a model with a Poisson likelihood,
	// whose predictive distributions are mixtures of Poissons with the
	// samples' w_m . z_n as rates (Sigma2 is 0).
	poisson bool
}

// zipTime is the modification time of every archive member, fixed so
// that equal models give equal files.
var zipTime = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

// writeModel writes m to w as a model file.
func writeModel(w io.Writer, m *fittedModel) error {
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
	h := m.modelHeader
	h.Format, h.Version = modelFormat, modelVersion
	header, err := json.MarshalIndent(h, "", "  ")
	if err != nil {
		return err
	}
	s, mm, n, k := len(m.W), m.Rows, m.Cols, m.Rank
	err = errors.Join(
		member("model.json", func(w io.Writer) error { _, err := w.Write(append(header, '\n')); return err }),
		member("W.npy", func(w io.Writer) error { return writeSamples(w, []int{s, mm, k}, m.W, nil) }),
		member("Z.npy", func(w io.Writer) error {
			return writeSamples(w, []int{s, k, n}, m.Zt, func(zt []float64) []float64 { return transpose(zt, n, k) })
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

// transpose returns the transpose of the rows x cols row-major x.
func transpose(x []float64, rows, cols int) []float64 {
	t := make([]float64, len(x))
	for i := range rows {
		for j := range cols {
			t[j*rows+i] = x[i*cols+j]
		}
	}
	return t
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
