package main

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/bnmf-lab/bnmf/bnmf"
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

// readModel reads the model file at path and checks that its parts agree.
func readModel(path string) (*fittedModel, error) {
	zr, err := zip.OpenReader(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	defer zr.Close() // read-only: a close error loses nothing
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%s: not a model file of this version of bnmf: %s", path, fmt.Sprintf(format, args...))
	}
	open := func(name string) (io.ReadCloser, error) { return zr.Open(name) }
	f, err := open("model.json")
	if err != nil {
		return nil, bad("%v", err)
	}
	raw, err := io.ReadAll(f)
	f.Close()
	if err != nil {
		return nil, fmt.Errorf("%s: model.json: %w", path, err)
	}
	m := &fittedModel{}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m.modelHeader); err != nil {
		return nil, bad("model.json: %v", err)
	}
	h := m.modelHeader
	switch {
	case h.Format != modelFormat:
		return nil, bad("model.json names format %q, want %q", h.Format, modelFormat)
	case h.Version != modelVersion:
		return nil, bad("format version %d; this bnmf reads version %d (fit the model again)", h.Version, modelVersion)
	case h.Rank < 1 || h.Rows < 1 || h.Cols < 1 || h.Samples < 1 || len(h.RowIDs) != h.Rows || len(h.ColIDs) != h.Cols:
		return nil, bad("model.json: rank %d, %d x %d with %d row and %d column ids, %d samples",
			h.Rank, h.Rows, h.Cols, len(h.RowIDs), len(h.ColIDs), h.Samples)
	}
	if spec, ok := bnmf.Lookup(h.Model); ok {
		m.poisson = spec.Family == bnmf.Poisson
	}
	s, k := h.Samples, h.Rank
	w, err := readArray[float64](open, "W.npy", []int{s, h.Rows, k})
	if err != nil {
		return nil, bad("%v", err)
	}
	z, err := readArray[float64](open, "Z.npy", []int{s, k, h.Cols})
	if err != nil {
		return nil, bad("%v", err)
	}
	if m.Sigma2, err = readArray[float64](open, "sigma2.npy", []int{s}); err != nil {
		return nil, bad("%v", err)
	}
	if m.ObservedPtr, err = readArray[int64](open, "observed_indptr.npy", []int{h.Rows + 1}); err != nil {
		return nil, bad("%v", err)
	}
	nnz := m.ObservedPtr[h.Rows]
	if nnz < 0 || nnz > int64(h.Rows)*int64(h.Cols) {
		return nil, bad("observed_indptr.npy ends at %d", nnz)
	}
	if m.ObservedCol, err = readArray[int32](open, "observed_indices.npy", []int{int(nnz)}); err != nil {
		return nil, bad("%v", err)
	}
	for i := range h.Rows {
		lo, hi := m.ObservedPtr[i], m.ObservedPtr[i+1]
		if lo > hi || hi > nnz {
			return nil, bad("observed_indptr.npy is not increasing at row %d", i)
		}
		for _, j := range m.ObservedCol[lo:hi] {
			if j < 0 || int(j) >= h.Cols {
				return nil, bad("observed_indices.npy holds column %d of %d", j, h.Cols)
			}
		}
	}
	mk, nk := h.Rows*k, h.Cols*k
	for i := range s {
		m.W = append(m.W, w[i*mk:(i+1)*mk])
		m.Zt = append(m.Zt, transpose(z[i*nk:(i+1)*nk], k, h.Cols))
	}
	return m, nil
}

// readArray reads the .npy member name, which must have the given shape.
func readArray[T npy.Elem](open func(string) (io.ReadCloser, error), name string, shape []int) ([]T, error) {
	f, err := open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close() // read-only: a close error loses nothing
	data, err := npy.ReadShape[T](f, shape)
	if err != nil {
		return nil, fmt.Errorf("%s: %w (model.json says %v)", name, err, shape)
	}
	return data, nil
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
