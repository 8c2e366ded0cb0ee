package posterior

import (
	"archive/zip"
	"bytes"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

func testModel() *Model {
	return &Model{
		Header: Header{Model: "GRRN", Rank: 2, Rows: 3, Cols: 2, Samples: 2, Chains: 1, Scale: 1,
			RowIDs: []string{"a", "b", "c"}, ColIDs: []string{"x", "y"}},
		W:           [][]float64{{1, 2, 3, 4, 5, 6}, {7, 8, 9, 10, 11, 12}},
		Zt:          [][]float64{{0.1, 0.2, 0.3, 0.4}, {0.5, 0.6, 0.7, 0.8}},
		Sigma2:      []float64{0.25, 0.5},
		ObservedPtr: []int64{0, 2, 2, 3},
		ObservedCol: []int32{0, 1, 1},
	}
}

func TestModelFileRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	var b bytes.Buffer
	want := testModel()
	if err := want.Write(&b); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	want.Format, want.Version = FileFormat, FileVersion
	if !reflect.DeepEqual(got, want) {
		t.Errorf("read\n%+v\nwant\n%+v", got, want)
	}
	// The size is the documented one: 8 S (K (M + N) + 1) + 8 (M + 1) +
	// 4 |Omega| bytes of data, plus about 1.5 KB of zip and .npy headers
	// and model.json (here 0.3 KB).
	data := 8*2*(2*(3+2)+1) + 8*4 + 4*3
	if extra := b.Len() - data; extra < 0 || extra > 2000 {
		t.Errorf("file of %d bytes for %d bytes of data", b.Len(), data)
	}
	// Equal models, equal bytes.
	var again bytes.Buffer
	if err := testModel().Write(&again); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again.Bytes(), b.Bytes()) {
		t.Error("writing the same model twice gave different bytes")
	}
}

// TestModelFileErrors checks that a model file of another version or
// with arrays that disagree with its header is refused with a reason.
func TestModelFileErrors(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name   string
		change func(m *Model, members map[string][]byte)
		want   string
	}{
		{"version", func(_ *Model, mem map[string][]byte) {
			mem["model.json"] = bytes.Replace(mem["model.json"], []byte(`"version": 1`), []byte(`"version": 2`), 1)
		}, "format version 2; this bnmf reads version 1"},
		{"missing member", func(_ *Model, mem map[string][]byte) { delete(mem, "sigma2.npy") }, "sigma2.npy"},
		{"ids", func(m *Model, _ map[string][]byte) { m.RowIDs = m.RowIDs[:2] }, "with 2 row and 2 column ids"},
		{"column index", func(m *Model, _ map[string][]byte) { m.ObservedCol[2] = 5 }, "observed_indices.npy holds column 5 in row 2; the model has 2 columns"},
		{"shape", func(m *Model, _ map[string][]byte) { m.Samples = 3 }, "W.npy: npy: not a readable .npy file: shape [2 3 2], want [3 3 2]"},
		// The CSR offsets: the first is 0, none decreases, none passes the
		// entry count (the last), and the columns are valid and
		// increasing. Without these checks predict slices out of range.
		{"negative first offset", func(m *Model, _ map[string][]byte) { m.ObservedPtr[0] = -1 }, "observed_indptr.npy starts at -1, not 0"},
		{"offset overshoots", func(m *Model, _ map[string][]byte) { m.ObservedPtr[1] = 4 }, "observed_indptr.npy: row 0 ends at entry 4, past the 3 entries"},
		{"offset decreases", func(m *Model, _ map[string][]byte) { m.ObservedPtr[1], m.ObservedPtr[2] = 2, 1 }, "observed_indptr.npy decreases at row 1 (from 2 to 1)"},
		{"column index equals columns", func(m *Model, _ map[string][]byte) { m.ObservedCol[2] = 2 }, "observed_indices.npy holds column 2 in row 2; the model has 2 columns"},
		{"negative column index", func(m *Model, _ map[string][]byte) { m.ObservedCol[0] = -1 }, "observed_indices.npy holds column -1 in row 0"},
		{"columns not increasing", func(m *Model, _ map[string][]byte) { m.ObservedCol[0], m.ObservedCol[1] = 1, 0 }, "observed_indices.npy: row 0's columns are not increasing (1, then 0)"},
		// Damaged numbers and ids.
		{"NaN sigma2", func(m *Model, _ map[string][]byte) { m.Sigma2[1] = math.NaN() }, "sigma2.npy: sample 1 is NaN; sigma^2 must be positive and finite"},
		{"negative sigma2", func(m *Model, _ map[string][]byte) { m.Sigma2[0] = -0.25 }, "sigma2.npy: sample 0 is -0.25; sigma^2 must be positive and finite"},
		{"zero sigma2", func(m *Model, _ map[string][]byte) { m.Sigma2[0] = 0 }, "sigma2.npy: sample 0 is 0; sigma^2 must be positive and finite"},
		{"NaN in W", func(m *Model, _ map[string][]byte) { m.W[1][3] = math.NaN() }, "W.npy: sample 1 holds NaN"},
		{"infinity in Z", func(m *Model, _ map[string][]byte) { m.Zt[0][1] = math.Inf(1) }, "Z.npy: sample 0 holds +Inf"},
		{"duplicate row id", func(m *Model, _ map[string][]byte) { m.RowIDs[2] = "a" }, `model.json: row_ids: "a" is given twice (rows 1 and 3)`},
		{"duplicate column id", func(m *Model, _ map[string][]byte) { m.ColIDs[1] = "x" }, `model.json: col_ids: "x" is given twice (columns 1 and 2)`},
		{"scale", func(m *Model, _ map[string][]byte) { m.Scale = -2 }, "model.json: scale -2 must be positive and finite"},
		{"trailing bytes", func(_ *Model, mem map[string][]byte) {
			mem["sigma2.npy"] = append(mem["sigma2.npy"], make([]byte, 8)...)
		}, "sigma2.npy: 8 bytes after the data"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := testModel()
			members := map[string][]byte{}
			tt.change(m, members)
			var b bytes.Buffer
			if err := m.Write(&b); err != nil {
				t.Fatal(err)
			}
			if len(members) > 0 || tt.name == "missing member" {
				b = rewriteMembers(t, b.Bytes(), tt.change)
			}
			path := filepath.Join(dir, tt.name+".npz")
			if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := Read(path)
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), path) {
				t.Errorf("error %v, want one naming the file and containing %q", err, tt.want)
			}
		})
	}
}

// rewriteMembers applies change to the members of the zip archive b.
func rewriteMembers(t *testing.T, b []byte, change func(*Model, map[string][]byte)) bytes.Buffer {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	members := map[string][]byte{}
	var names []string
	for _, f := range zr.File {
		r, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if _, err := buf.ReadFrom(r); err != nil {
			t.Fatal(err)
		}
		members[f.Name] = buf.Bytes()
		names = append(names, f.Name)
	}
	change(testModel(), members)
	var out bytes.Buffer
	zw := zip.NewWriter(&out)
	for _, name := range names {
		data, ok := members[name]
		if !ok {
			continue
		}
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(data); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return out
}

// modelBytes returns testModel, changed by change, as a model file.
func modelBytes(t *testing.T, change func(*Model)) []byte {
	t.Helper()
	m := testModel()
	if change != nil {
		change(m)
	}
	var b bytes.Buffer
	if err := m.Write(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestModelFileDamage checks that damage the zip archive itself would
// hide is found: a flipped byte (by the CRC-32 of the member, checked
// only when the member is read to its end), a second member of the same
// name, and a model.json that claims more samples than the arrays hold.
func TestModelFileDamage(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name   string
		damage func(t *testing.T, b []byte) []byte
		want   string
	}{
		{"flipped byte in W", func(t *testing.T, b []byte) []byte {
			// The last byte of W's data, the sign byte of its last element:
			// every shape and range check still passes.
			f := member(t, b, "W.npy")
			off, err := f.DataOffset()
			if err != nil {
				t.Fatal(err)
			}
			b[off+int64(f.UncompressedSize64)-1] ^= 0x80
			return b
		}, "W.npy: zip: checksum error (its bytes do not match the archive's CRC-32)"},
		{"flipped byte in the CSR columns", func(t *testing.T, b []byte) []byte {
			f := member(t, b, "observed_indices.npy")
			off, err := f.DataOffset()
			if err != nil {
				t.Fatal(err)
			}
			b[off+int64(f.UncompressedSize64)-4] ^= 0x01 // column 1 of row 2 becomes 0
			return b
		}, "observed_indices.npy: zip: checksum error (its bytes do not match the archive's CRC-32)"},
		{"two members of one name", func(t *testing.T, b []byte) []byte {
			var out bytes.Buffer
			zw := zip.NewWriter(&out)
			if err := zw.Copy(member(t, b, "sigma2.npy")); err != nil {
				t.Fatal(err)
			}
			zr := zipReader(t, b)
			for _, f := range zr.File {
				if err := zw.Copy(f); err != nil {
					t.Fatal(err)
				}
			}
			if err := zw.Close(); err != nil {
				t.Fatal(err)
			}
			return out.Bytes()
		}, "holds two members named sigma2.npy"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "-")+".npz")
			if err := os.WriteFile(path, tt.damage(t, modelBytes(t, nil)), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := Read(path)
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), path) {
				t.Errorf("error %v, want one naming the file and containing %q", err, tt.want)
			}
		})
	}
}

// TestModelFileSizeClaims checks that the sizes in model.json are
// bounded by what the archive's members can hold before anything is
// allocated: a file of 2 KB claiming 100,000 samples of a 3 x 2 model at
// rank 2 (4.8 MB of W) is refused having allocated far less.
func TestModelFileSizeClaims(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name, header string // header replaces model.json's "samples": 2, "rank": 2
		want         string
	}{
		{"samples", `"samples": 100000, "rank": 2`, "W.npy: model.json's shape [100000 3 2] needs 4800000 bytes of data; the member holds 224"},
		{"rank", `"samples": 2, "rank": 1099511627776`, "W.npy: model.json's shape [2 3 1099511627776] needs 52776558133248 bytes of data; the member holds 224"},
		{"overflow", `"samples": 1099511627776, "rank": 1099511627776`, "W.npy: model.json's shape [1099511627776 3 1099511627776] is too large"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := rewriteMembers(t, modelBytes(t, nil), func(_ *Model, mem map[string][]byte) {
				j := mem["model.json"]
				j = bytes.Replace(j, []byte(`"rank": 2,`), nil, 1)
				mem["model.json"] = bytes.Replace(j, []byte(`"samples": 2`), []byte(tt.header), 1)
			})
			path := filepath.Join(dir, tt.name+".npz")
			if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, err := Read(path)
			runtime.ReadMemStats(&after)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one containing %q", err, tt.want)
			}
			// Reading the archive's directory and model.json takes some
			// kilobytes; W's claimed size would be 4.8 MB or far more.
			if got := after.TotalAlloc - before.TotalAlloc; got > 1<<20 {
				t.Errorf("refusing the file allocated %d bytes", got)
			}
		})
	}
}

// member returns the archive member of b named name.
func member(t *testing.T, b []byte, name string) *zip.File {
	t.Helper()
	for _, f := range zipReader(t, b).File {
		if f.Name == name {
			return f
		}
	}
	t.Fatalf("no member %s", name)
	return nil
}

func zipReader(t *testing.T, b []byte) *zip.Reader {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	return zr
}
