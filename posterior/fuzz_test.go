package posterior

import (
	"archive/zip"
	"bytes"
	"io"
	"testing"
)

// FuzzReadModel checks that no model file makes the reader panic or
// accept sizes the file does not back, and that a file it accepts can be
// predicted from without a panic. Its inputs are whole archives, whose
// CRC-32s a random change rarely keeps; FuzzModelMembers fuzzes the
// members of an archive built around them.
func FuzzReadModel(f *testing.F) {
	for _, b := range fuzzSeeds(f) {
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		for i, name := range modelMemberNames {
			w, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Store, Modified: zipTime})
			if err != nil {
				f.Fatal(err)
			}
			if _, err := w.Write(b[i]); err != nil {
				f.Fatal(err)
			}
		}
		if err := zw.Close(); err != nil {
			f.Fatal(err)
		}
		f.Add(buf.Bytes())
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkDecoded(t, data)
	})
}

// FuzzModelMembers is FuzzReadModel with the six members fuzzed and the
// archive built around them, so that the checks on model.json, the
// arrays and the observed entries are reached.
func FuzzModelMembers(f *testing.F) {
	for _, b := range fuzzSeeds(f) {
		f.Add(b[0], b[1], b[2], b[3], b[4], b[5])
	}
	f.Fuzz(func(t *testing.T, header, w, z, sigma2, indptr, indices []byte) {
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		for i, data := range [][]byte{header, w, z, sigma2, indptr, indices} {
			fw, err := zw.CreateHeader(&zip.FileHeader{Name: modelMemberNames[i], Method: zip.Store})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := fw.Write(data); err != nil {
				t.Fatal(err)
			}
		}
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
		checkDecoded(t, buf.Bytes())
	})
}

// modelMemberNames are the members of a model file, in Write's order.
var modelMemberNames = []string{"model.json", "W.npy", "Z.npy", "sigma2.npy", "observed_indptr.npy", "observed_indices.npy"}

// fuzzSeeds returns the members of two good model files: testModel, and
// its first sample alone.
func fuzzSeeds(f *testing.F) [][][]byte {
	one := testModel()
	one.Samples, one.W, one.Zt, one.Sigma2 = 1, one.W[:1], one.Zt[:1], one.Sigma2[:1]
	var seeds [][][]byte
	for _, m := range []*Model{testModel(), one} {
		var b bytes.Buffer
		if err := m.Write(&b); err != nil {
			f.Fatal(err)
		}
		zr, err := zip.NewReader(bytes.NewReader(b.Bytes()), int64(b.Len()))
		if err != nil {
			f.Fatal(err)
		}
		members := make([][]byte, len(modelMemberNames))
		for i, name := range modelMemberNames {
			r, err := zr.Open(name)
			if err != nil {
				f.Fatal(err)
			}
			if members[i], err = io.ReadAll(r); err != nil {
				f.Fatal(err)
			}
		}
		seeds = append(seeds, members)
	}
	return seeds
}

// checkDecoded decodes the model file data and, if it is accepted,
// checks that the sizes model.json gives are backed by data and predicts
// from it: a ranking of row 0 by the lower end, which walks the row's
// observed entries, and a prediction of the first entries.
func checkDecoded(t *testing.T, data []byte) {
	t.Helper()
	m, err := Decode(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		if m != nil {
			t.Fatal("a model and an error")
		}
		return
	}
	if len(m.W) != m.Samples || len(m.Zt) != m.Samples || len(m.Sigma2) != m.Samples ||
		len(m.ObservedPtr) != m.Rows+1 || int64(len(m.ObservedCol)) != m.ObservedPtr[m.Rows] {
		t.Fatalf("sizes disagree: %d samples, %d %d %d arrays, %d offsets, %d entries",
			m.Samples, len(m.W), len(m.Zt), len(m.Sigma2), len(m.ObservedPtr), len(m.ObservedCol))
	}
	if n := 8 * m.Samples * m.Rank * (m.Rows + m.Cols); n > len(data) {
		t.Fatalf("%d bytes of samples from a file of %d", n, len(data))
	}
	m.Top(0, TopOptions{N: 2, Level: 0.9, ByLower: true})
	mu := make([]float64, m.Samples)
	for i := range min(m.Rows, 8) {
		for j := range min(m.Cols, 8) {
			m.predict(i, j, 0.9, mu)
		}
	}
}
