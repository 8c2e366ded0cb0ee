package main

import (
	"archive/zip"
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func testModel() *fittedModel {
	return &fittedModel{
		modelHeader: modelHeader{Model: "GRRN", Rank: 2, Rows: 3, Cols: 2, Samples: 2, Chains: 1, Scale: 1,
			RowIDs: []string{"a", "b", "c"}, ColIDs: []string{"x", "y"}},
		W:           [][]float64{{1, 2, 3, 4, 5, 6}, {7, 8, 9, 10, 11, 12}},
		Zt:          [][]float64{{0.1, 0.2, 0.3, 0.4}, {0.5, 0.6, 0.7, 0.8}},
		Sigma2:      []float64{0.25, 0.5},
		ObservedPtr: []int64{0, 2, 2, 3},
		ObservedCol: []int32{0, 1, 1},
	}
}

func TestModelFileRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), modelFile)
	var b bytes.Buffer
	want := testModel()
	if err := writeModel(&b, want); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := readModel(path)
	if err != nil {
		t.Fatal(err)
	}
	want.Format, want.Version = modelFormat, modelVersion
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
	if err := writeModel(&again, testModel()); err != nil {
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
		change func(m *fittedModel, members map[string][]byte)
		want   string
	}{
		{"version", func(_ *fittedModel, mem map[string][]byte) {
			mem["model.json"] = bytes.Replace(mem["model.json"], []byte(`"version": 1`), []byte(`"version": 2`), 1)
		}, "format version 2; this bnmf reads version 1"},
		{"missing member", func(_ *fittedModel, mem map[string][]byte) { delete(mem, "sigma2.npy") }, "sigma2.npy"},
		{"ids", func(m *fittedModel, _ map[string][]byte) { m.RowIDs = m.RowIDs[:2] }, "with 2 row and 2 column ids"},
		{"column index", func(m *fittedModel, _ map[string][]byte) { m.ObservedCol[2] = 5 }, "observed_indices.npy holds column 5 of 2"},
		{"shape", func(m *fittedModel, _ map[string][]byte) { m.Samples = 3 }, "W.npy: npy: not a readable .npy file: shape [2 3 2], want [3 3 2]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := testModel()
			members := map[string][]byte{}
			tt.change(m, members)
			var b bytes.Buffer
			if err := writeModel(&b, m); err != nil {
				t.Fatal(err)
			}
			if len(members) > 0 || tt.name == "missing member" {
				b = rewriteMembers(t, b.Bytes(), tt.change)
			}
			path := filepath.Join(dir, tt.name+".npz")
			if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := readModel(path)
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), path) {
				t.Errorf("error %v, want one naming the file and containing %q", err, tt.want)
			}
		})
	}
}

// rewriteMembers applies change to the members of the zip archive b.
func rewriteMembers(t *testing.T, b []byte, change func(*fittedModel, map[string][]byte)) bytes.Buffer {
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
