package posterior

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"

	"github.com/bnmf-lab/bnmf/internal/npy"
)

// Read reads the model file at path and checks that its parts agree.
func Read(path string) (*Model, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close() // read-only: a close error loses nothing
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	m, err := Decode(f, fi.Size())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}

// ErrDamaged wraps the errors of a model file whose bytes or numbers are
// damaged, as opposed to one of another format or version.
var ErrDamaged = errors.New("damaged model file")

// Decode reads a model file of size bytes from r and checks that its
// parts agree: every array has the shape model.json gives, the CSR
// offsets and columns are in range and increasing, the ids distinct, the
// samples finite and sigma^2 positive. Every member is read to its end,
// so that the archive's CRC-32 checks it, and every size that model.json
// gives is checked against the bytes its member can hold before anything
// is allocated for it.
func Decode(r io.ReaderAt, size int64) (*Model, error) {
	zr, err := zip.NewReader(r, size)
	if err != nil {
		return nil, err
	}
	bad := func(format string, args ...any) error {
		return fmt.Errorf("not a model file of this version of bnmf: %s", fmt.Sprintf(format, args...))
	}
	damaged := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrDamaged, fmt.Sprintf(format, args...))
	}
	members := map[string]*zip.File{}
	for _, f := range zr.File {
		if members[f.Name] != nil {
			return nil, damaged("the archive holds two members named %s", f.Name)
		}
		members[f.Name] = f
	}
	zm := modelMembers{files: members, size: size}
	raw, err := zm.readAll("model.json")
	if err != nil {
		return nil, err
	}
	m := &Model{}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m.Header); err != nil {
		return nil, bad("model.json: %v", err)
	}
	h := m.Header
	switch {
	case h.Format != FileFormat:
		return nil, bad("model.json names format %q, want %q", h.Format, FileFormat)
	case h.Version != FileVersion:
		return nil, bad("format version %d; this bnmf reads version %d (fit the model again)", h.Version, FileVersion)
	case h.Rank < 1 || h.Rows < 1 || h.Cols < 1 || h.Samples < 1 || len(h.RowIDs) != h.Rows || len(h.ColIDs) != h.Cols:
		return nil, bad("model.json: rank %d, %d x %d with %d row and %d column ids, %d samples",
			h.Rank, h.Rows, h.Cols, len(h.RowIDs), len(h.ColIDs), h.Samples)
	case !(h.Scale > 0) || math.IsInf(h.Scale, 1):
		return nil, damaged("model.json: scale %v must be positive and finite", h.Scale)
	}
	if err := distinctIDs("row_ids", "rows", h.RowIDs); err != nil {
		return nil, damaged("model.json: %v", err)
	}
	if err := distinctIDs("col_ids", "columns", h.ColIDs); err != nil {
		return nil, damaged("model.json: %v", err)
	}
	s, k := h.Samples, h.Rank
	w, err := readArray[float64](zm, "W.npy", []int{s, h.Rows, k})
	if err != nil {
		return nil, err
	}
	if err := allFinite("W.npy", w, h.Rows*k); err != nil {
		return nil, damaged("%v", err)
	}
	z, err := readArray[float64](zm, "Z.npy", []int{s, k, h.Cols})
	if err != nil {
		return nil, err
	}
	if err := allFinite("Z.npy", z, k*h.Cols); err != nil {
		return nil, damaged("%v", err)
	}
	if m.Sigma2, err = readArray[float64](zm, "sigma2.npy", []int{s}); err != nil {
		return nil, err
	}
	poisson := m.Poisson()
	for i, v := range m.Sigma2 {
		// A Poisson model has no sigma^2 and stores zeros.
		if poisson && v != 0 {
			return nil, damaged("sigma2.npy: sample %d is %v; a Poisson model stores 0", i, v)
		}
		if !poisson && (!(v > 0) || math.IsInf(v, 1)) {
			return nil, damaged("sigma2.npy: sample %d is %v; sigma^2 must be positive and finite", i, v)
		}
	}
	if m.ObservedPtr, err = readArray[int64](zm, "observed_indptr.npy", []int{h.Rows + 1}); err != nil {
		return nil, err
	}
	nnz := m.ObservedPtr[h.Rows]
	switch {
	case m.ObservedPtr[0] != 0:
		return nil, damaged("observed_indptr.npy starts at %d, not 0", m.ObservedPtr[0])
	case nnz < 0 || nnz > int64(h.Rows)*int64(h.Cols):
		return nil, damaged("observed_indptr.npy ends at %d; a %d x %d matrix has 0 to %d entries", nnz, h.Rows, h.Cols, int64(h.Rows)*int64(h.Cols))
	}
	if m.ObservedCol, err = readArray[int32](zm, "observed_indices.npy", []int{int(nnz)}); err != nil {
		return nil, err
	}
	if err := checkCSR(m.ObservedPtr, m.ObservedCol, h.Cols); err != nil {
		return nil, damaged("%v", err)
	}
	if err := readOffsets(zm, m); err != nil {
		return nil, err
	}
	mk, nk := h.Rows*k, h.Cols*k
	for i := range s {
		m.W = append(m.W, w[i*mk:(i+1)*mk])
		m.Zt = append(m.Zt, Transpose(z[i*nk:(i+1)*nk], k, h.Cols))
	}
	return m, nil
}

// distinctIDs returns an error naming the first id of ids given twice
// (key is model.json's field, what names what the ids are of).
func distinctIDs(key, what string, ids []string) error {
	seen := make(map[string]int, len(ids))
	for i, id := range ids {
		if j, ok := seen[id]; ok {
			return fmt.Errorf("%s: %q is given twice (%s %d and %d)", key, id, what, j+1, i+1)
		}
		seen[id] = i
	}
	return nil
}

// allFinite returns an error naming the first sample of x, made of
// samples of per numbers each, that holds NaN or an infinity.
func allFinite(name string, x []float64, per int) error {
	for i, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("%s: sample %d holds %v", name, i/per, v)
		}
	}
	return nil
}

// checkCSR checks the observed entries' offsets ptr, which start at 0 and
// end at len(col), and their columns col: every row's offsets lie within
// the entries and do not decrease, and its columns increase (predict
// --top searches them) and lie in [0, cols).
func checkCSR(ptr []int64, col []int32, cols int) error {
	nnz := int64(len(col))
	for i := range len(ptr) - 1 {
		lo, hi := ptr[i], ptr[i+1]
		switch {
		case hi > nnz:
			return fmt.Errorf("observed_indptr.npy: row %d ends at entry %d, past the %d entries", i, hi, nnz)
		case hi < lo:
			return fmt.Errorf("observed_indptr.npy decreases at row %d (from %d to %d)", i, lo, hi)
		}
		for q, j := range col[lo:hi] {
			switch {
			case j < 0 || int(j) >= cols:
				return fmt.Errorf("observed_indices.npy holds column %d in row %d; the model has %d columns", j, i, cols)
			case q > 0 && j <= col[lo+int64(q)-1]:
				return fmt.Errorf("observed_indices.npy: row %d's columns are not increasing (%d, then %d)", i, col[lo+int64(q)-1], j)
			}
		}
	}
	return nil
}

// modelMembers are the members of a model file's archive of size bytes.
type modelMembers struct {
	files map[string]*zip.File
	size  int64
}

// maxDeflateRatio bounds how many bytes a deflated member yields per
// stored byte: 1032, the most the deflate format allows (a run of 258
// bytes coded in two bits). bnmf writes its members stored, but numpy
// reads deflated ones too, and so does bnmf.
const maxDeflateRatio = 1032

// capacity returns the most bytes that member f can yield: its declared
// uncompressed size (the zip reader refuses more), and for a stored
// member no more than its stored bytes and the archive itself hold.
func (zm modelMembers) capacity(f *zip.File) uint64 {
	c := f.UncompressedSize64
	stored := min(f.CompressedSize64, uint64(zm.size))
	if f.Method == zip.Store {
		return min(c, stored)
	}
	return min(c, stored*maxDeflateRatio)
}

// open returns the member name.
func (zm modelMembers) open(name string) (*zip.File, io.ReadCloser, error) {
	f := zm.files[name]
	if f == nil {
		return nil, nil, fmt.Errorf("not a model file of this version of bnmf: the archive has no member %s", name)
	}
	rc, err := f.Open()
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", name, err)
	}
	return f, rc, nil
}

// readAll returns the whole of member name, checked against its CRC-32.
func (zm modelMembers) readAll(name string) ([]byte, error) {
	_, rc, err := zm.open(name)
	if err != nil {
		return nil, err
	}
	defer rc.Close() // read-only: a close error loses nothing
	b, err := io.ReadAll(rc)
	if err != nil {
		return nil, readError(name, err)
	}
	return b, nil
}

// readError describes an error met while reading member name.
func readError(name string, err error) error {
	if errors.Is(err, zip.ErrChecksum) {
		return fmt.Errorf("%w: %s: %v (its bytes do not match the archive's CRC-32)", ErrDamaged, name, err)
	}
	return fmt.Errorf("%w: %s: %v", ErrDamaged, name, err)
}

// readArray reads the .npy member name, which must have the given shape
// and end with its data. The shape's bytes are checked against what the
// member can hold before they are allocated.
func readArray[T npy.Elem](zm modelMembers, name string, shape []int) ([]T, error) {
	f, rc, err := zm.open(name)
	if err != nil {
		return nil, err
	}
	defer rc.Close() // read-only: a close error loses nothing
	elem := uint64(binary.Size(*new(T)))
	n := elem
	for _, d := range shape {
		if d < 0 || (d > 0 && n > math.MaxInt64/uint64(d)) {
			return nil, fmt.Errorf("%w: %s: model.json's shape %v is too large", ErrDamaged, name, shape)
		}
		n *= uint64(d)
	}
	if c := zm.capacity(f); n > c {
		return nil, fmt.Errorf("%w: %s: model.json's shape %v needs %d bytes of data; the member holds %d", ErrDamaged, name, shape, n, c)
	}
	data, err := npy.ReadShape[T](rc, shape)
	if err != nil {
		if errors.Is(err, zip.ErrChecksum) {
			return nil, readError(name, err)
		}
		return nil, fmt.Errorf("not a model file of this version of bnmf: %s: %w (model.json says %v)", name, err, shape)
	}
	// Reading on to the end makes the zip reader check the CRC-32.
	switch extra, err := io.Copy(io.Discard, rc); {
	case err != nil:
		return nil, readError(name, err)
	case extra > 0:
		return nil, fmt.Errorf("%w: %s: %d bytes after the data of shape %v", ErrDamaged, name, extra, shape)
	}
	return data, nil
}
