package npy

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
)

// numpyHeader is the header numpy.save (NumPy 1.24) writes for a dtype and
// shape tuple: the dict, spaces, and a newline, 118 bytes after the
// 10-byte prefix for every case below (copied from numpy's output).
func numpyHeader(descr, shape string) string {
	dict := "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shape + ", }"
	return Magic + "\x01\x00\x76\x00" + dict + strings.Repeat(" ", 118-1-len(dict)) + "\n"
}

func TestWriteMatchesNumpy(t *testing.T) {
	tests := []struct {
		name  string
		shape []int
		tuple string
	}{
		{"matrix", []int{2, 3}, "(2, 3)"},
		{"vector", []int{5}, "(5,)"},
		{"scalar", nil, "()"},
		{"empty", []int{0, 3}, "(0, 3)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := 1
			for _, d := range tt.shape {
				n *= d
			}
			data := make([]float64, n)
			for i := range data {
				data[i] = float64(i)
			}
			var b bytes.Buffer
			if err := Write(&b, tt.shape, data); err != nil {
				t.Fatal(err)
			}
			want := numpyHeader("<f8", tt.tuple)
			got := b.String()
			if !strings.HasPrefix(got, want) {
				t.Fatalf("header\n got %q\nwant %q", got[:min(len(got), len(want))], want)
			}
			if len(got) != 128+8*n {
				t.Fatalf("file of %d bytes, want %d", len(got), 128+8*n)
			}
			for i, x := range data {
				if v := math.Float64frombits(binary.LittleEndian.Uint64(b.Bytes()[128+8*i:])); v != x {
					t.Errorf("element %d is %v, want %v", i, v, x)
				}
			}
		})
	}
}

func TestWriteIntegers(t *testing.T) {
	var b bytes.Buffer
	if err := Write(&b, []int{4}, []int64{0, 1, -2, 1 << 40}); err != nil {
		t.Fatal(err)
	}
	if want := numpyHeader("<i8", "(4,)"); !strings.HasPrefix(b.String(), want) || b.Len() != 128+32 {
		t.Errorf("int64 file %q", b.String())
	}
	b.Reset()
	if err := Write(&b, []int{4}, []int32{0, 1, -2, 3}); err != nil {
		t.Fatal(err)
	}
	if want := numpyHeader("<i4", "(4,)"); !strings.HasPrefix(b.String(), want) || b.Len() != 128+16 {
		t.Errorf("int32 file %q", b.String())
	}
}

func TestRoundTrip(t *testing.T) {
	data := []float64{0, -1.5, math.Inf(1), math.SmallestNonzeroFloat64, math.MaxFloat64, 1e-300}
	var b bytes.Buffer
	if err := Write(&b, []int{3, 2}, data); err != nil {
		t.Fatal(err)
	}
	shape, got, err := Read[float64](&b)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(shape, []int{3, 2}) || !slices.Equal(got, data) {
		t.Errorf("read %v %v, want [3 2] %v", shape, got, data)
	}

	// More elements than one read chunk, and int32.
	big := make([]int32, 20000)
	for i := range big {
		big[i] = int32(i*7 - 5000)
	}
	b.Reset()
	if err := Write(&b, []int{100, 200}, big); err != nil {
		t.Fatal(err)
	}
	shape, gotInts, err := Read[int32](&b)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(shape, []int{100, 200}) || !slices.Equal(gotInts, big) {
		t.Errorf("int32 round trip: shape %v, equal %v", shape, slices.Equal(gotInts, big))
	}
}

func TestLongHeaderIsVersion2(t *testing.T) {
	shape := make([]int, 30000) // a header of about 90 KB, beyond version 1.0's 64 KB
	for i := range shape {
		shape[i] = 1
	}
	var b bytes.Buffer
	if err := Write(&b, shape, []float64{2.5}); err != nil {
		t.Fatal(err)
	}
	if b.Bytes()[6] != 2 {
		t.Fatalf("version %d.%d, want 2.0", b.Bytes()[6], b.Bytes()[7])
	}
	h, err := ReadHeader(bytes.NewReader(b.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if len(h.Shape) != len(shape) || (12+binary.LittleEndian.Uint32(b.Bytes()[8:]))%headerAlign != 0 {
		t.Errorf("header: %d dimensions, data at %d", len(h.Shape), 12+binary.LittleEndian.Uint32(b.Bytes()[8:]))
	}
	_, got, err := Read[float64](&b)
	if err != nil || !slices.Equal(got, []float64{2.5}) {
		t.Errorf("read %v, %v", got, err)
	}
}

func TestReadHeaderForms(t *testing.T) {
	// Headers as other writers (older numpy) spell them.
	tests := []struct {
		dict  string
		shape []int
		descr string
	}{
		{"{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3)}", []int{2, 3}, "<f8"},
		{"{'shape': (7,), 'fortran_order': False, 'descr': '<i8', }", []int{7}, "<i8"},
		{`{"descr": "<f8", "fortran_order": True, "shape": ()}`, []int{}, "<f8"},
	}
	for _, tt := range tests {
		var b bytes.Buffer
		b.WriteString(Magic + "\x01\x00")
		_ = binary.Write(&b, binary.LittleEndian, uint16(len(tt.dict)+1))
		b.WriteString(tt.dict + "\n")
		h, err := ReadHeader(&b)
		if err != nil {
			t.Errorf("%s: %v", tt.dict, err)
			continue
		}
		if h.Descr != tt.descr || !slices.Equal(h.Shape, tt.shape) {
			t.Errorf("%s: got %+v", tt.dict, h)
		}
	}
}

func TestReadErrors(t *testing.T) {
	var good bytes.Buffer
	if err := Write(&good, []int{2, 2}, []float64{1, 2, 3, 4}); err != nil {
		t.Fatal(err)
	}
	withDict := func(dict string) []byte {
		var b bytes.Buffer
		b.WriteString(Magic + "\x01\x00")
		_ = binary.Write(&b, binary.LittleEndian, uint16(len(dict)+1))
		b.WriteString(dict + "\n")
		return b.Bytes()
	}
	tests := []struct {
		name string
		in   []byte
		want string
	}{
		{"empty", nil, "EOF"},
		{"no magic", []byte("PK\x03\x04 not npy at all"), "no magic string"},
		{"version", []byte(Magic + "\x04\x00\x00\x00"), "format version 4.0"},
		{"truncated data", good.Bytes()[:good.Len()-1], "of 4 elements"},
		{"wrong dtype", withDict("{'descr': '<f4', 'fortran_order': False, 'shape': (1,), }"), `dtype "<f4", want "<f8"`},
		{"fortran", withDict("{'descr': '<f8', 'fortran_order': True, 'shape': (1,), }"), "Fortran order"},
		{"missing key", withDict("{'descr': '<f8', 'shape': (1,), }"), "want the keys"},
		{"negative", withDict("{'descr': '<f8', 'fortran_order': False, 'shape': (-1,), }"), "bad dimension"},
		{"unknown key", withDict("{'descr': '<f8', 'fortran_order': False, 'shape': (1,), 'x': 1}"), "unknown key"},
		// Shapes whose element count, or byte count, overflows an int.
		{"elements overflow", withDict("{'descr': '<f8', 'fortran_order': False, 'shape': (4611686018427387904, 3), }"), "more elements than an int counts"},
		{"bytes overflow", withDict("{'descr': '<f8', 'fortran_order': False, 'shape': (2305843009213693952,), }"), "more bytes than an int counts"},
		{"dimension overflow", withDict("{'descr': '<f8', 'fortran_order': False, 'shape': (99999999999999999999,), }"), "bad dimension"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := Read[float64](bytes.NewReader(tt.in))
			if err == nil || !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want ErrFormat mentioning %q", err, tt.want)
			}
		})
	}
}

func TestWriteErrors(t *testing.T) {
	var b bytes.Buffer
	if err := Write(&b, []int{2, 2}, []float64{1, 2, 3}); err == nil || !strings.Contains(err.Error(), "holds 4 elements, got 3") {
		t.Errorf("shape mismatch: %v", err)
	}
	if err := Write(&b, []int{-1}, []float64{}); err == nil {
		t.Error("negative dimension accepted")
	}
}

func TestReadShape(t *testing.T) {
	var b bytes.Buffer
	if err := Write(&b, []int{2, 3}, []float64{1, 2, 3, 4, 5, 6}); err != nil {
		t.Fatal(err)
	}
	raw := b.Bytes()
	got, err := ReadShape[float64](bytes.NewReader(raw), []int{2, 3})
	if err != nil || !slices.Equal(got, []float64{1, 2, 3, 4, 5, 6}) || cap(got) != 6 {
		t.Errorf("ReadShape = %v (cap %d), %v", got, cap(got), err)
	}
	if _, err := ReadShape[float64](bytes.NewReader(raw), []int{3, 2}); err == nil || !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), "shape [2 3], want [3 2]") {
		t.Errorf("another shape: %v", err)
	}
	if _, err := ReadShape[int64](bytes.NewReader(raw), []int{2, 3}); err == nil || !strings.Contains(err.Error(), `dtype "<f8", want "<i8"`) {
		t.Errorf("another dtype: %v", err)
	}
}
