package npy

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
)

// ErrFormat is wrapped by the errors of ReadHeader and Read for input that
// is not a .npy file this package can read.
var ErrFormat = errors.New("not a readable .npy file")

// maxHeader bounds the header length ReadHeader accepts.
const maxHeader = 1 << 20

// ReadHeader reads the magic string, version and header of a .npy file
// from r, leaving r at the start of the data. It accepts format versions
// 1.0, 2.0 and 3.0 (3.0 differs only in allowing UTF-8 in the header).
func ReadHeader(r io.Reader) (Header, error) {
	var pre [8]byte
	if _, err := io.ReadFull(r, pre[:]); err != nil {
		return Header{}, fmt.Errorf("npy: %w: %v", ErrFormat, err)
	}
	if string(pre[:6]) != Magic {
		return Header{}, fmt.Errorf("npy: %w: no magic string", ErrFormat)
	}
	h := Header{Major: int(pre[6]), Minor: int(pre[7])}
	var hlen int
	switch h.Major {
	case 1:
		var n uint16
		if err := binary.Read(r, binary.LittleEndian, &n); err != nil {
			return h, fmt.Errorf("npy: %w: %v", ErrFormat, err)
		}
		hlen = int(n)
	case 2, 3:
		var n uint32
		if err := binary.Read(r, binary.LittleEndian, &n); err != nil {
			return h, fmt.Errorf("npy: %w: %v", ErrFormat, err)
		}
		if n > maxHeader {
			return h, fmt.Errorf("npy: %w: header of %d bytes", ErrFormat, n)
		}
		hlen = int(n)
	default:
		return h, fmt.Errorf("npy: %w: format version %d.%d", ErrFormat, h.Major, h.Minor)
	}
	buf := make([]byte, hlen)
	if _, err := io.ReadFull(r, buf); err != nil {
		return h, fmt.Errorf("npy: %w: header: %v", ErrFormat, err)
	}
	if err := parseDict(strings.TrimSpace(string(buf)), &h); err != nil {
		return h, fmt.Errorf("npy: %w: header %q: %v", ErrFormat, strings.TrimSpace(string(buf)), err)
	}
	return h, nil
}

// parseDict parses the header's dict literal, which must have exactly the
// keys descr, fortran_order and shape.
func parseDict(s string, h *Header) error {
	if !strings.HasPrefix(s, "{") || !strings.HasSuffix(s, "}") {
		return errors.New("not a dict")
	}
	s = strings.TrimSpace(s[1 : len(s)-1])
	seen := map[string]bool{}
	for s != "" {
		key, rest, ok := quoted(s)
		if !ok {
			return errors.New("bad key")
		}
		rest = strings.TrimSpace(rest)
		if !strings.HasPrefix(rest, ":") {
			return fmt.Errorf("no ':' after key %q", key)
		}
		rest = strings.TrimSpace(rest[1:])
		var err error
		switch key {
		case "descr":
			h.Descr, rest, ok = quoted(rest)
			if !ok {
				err = errors.New("bad descr")
			}
		case "fortran_order":
			switch {
			case strings.HasPrefix(rest, "False"):
				h.FortranOrder, rest = false, rest[len("False"):]
			case strings.HasPrefix(rest, "True"):
				h.FortranOrder, rest = true, rest[len("True"):]
			default:
				err = errors.New("bad fortran_order")
			}
		case "shape":
			h.Shape, rest, err = parseShape(rest)
		default:
			err = fmt.Errorf("unknown key %q", key)
		}
		if err != nil {
			return err
		}
		if seen[key] {
			return fmt.Errorf("key %q twice", key)
		}
		seen[key] = true
		rest = strings.TrimSpace(rest)
		if strings.HasPrefix(rest, ",") {
			rest = strings.TrimSpace(rest[1:])
		} else if rest != "" {
			return errors.New("no ',' between items")
		}
		s = rest
	}
	if len(seen) != 3 {
		return errors.New("want the keys descr, fortran_order and shape")
	}
	return nil
}

// quoted splits a leading Python string literal in single or double quotes
// off s.
func quoted(s string) (lit, rest string, ok bool) {
	if s == "" || (s[0] != '\'' && s[0] != '"') {
		return "", s, false
	}
	end := strings.IndexByte(s[1:], s[0])
	if end < 0 {
		return "", s, false
	}
	return s[1 : 1+end], s[2+end:], true
}

// parseShape splits a leading tuple of nonnegative integers off s. The
// number of elements they make must fit in an int, so that Header.Len
// cannot overflow.
func parseShape(s string) ([]int, string, error) {
	end := strings.IndexByte(s, ')')
	if !strings.HasPrefix(s, "(") || end < 0 {
		return nil, s, errors.New("bad shape")
	}
	shape := []int{}
	n := 1
	for f := range strings.SplitSeq(s[1:end], ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		d, err := strconv.Atoi(f)
		if err != nil || d < 0 {
			return nil, s, fmt.Errorf("bad dimension %q", f)
		}
		shape = append(shape, d)
		if d > 0 && n > math.MaxInt/d {
			n = -1 // overflowed; reported once every dimension is parsed
		} else if n >= 0 {
			n *= d
		}
	}
	if n < 0 && !slices.Contains(shape, 0) {
		return nil, s, fmt.Errorf("shape %v has more elements than an int counts", shape)
	}
	return shape, s[end+1:], nil
}

// Read reads a .npy file of element type T in C order from r and returns
// its shape and data. A different dtype, Fortran order, or data shorter
// than the shape says are errors wrapping ErrFormat. Memory grows with the
// data read, so a header that claims more than the file holds cannot
// exhaust it; ReadShape, for arrays of a known shape, allocates once.
func Read[T Elem](r io.Reader) (shape []int, data []T, err error) {
	h, err := readHeaderOf[T](r)
	if err != nil {
		return nil, nil, err
	}
	data, err = readData(r, make([]T, 0, min(h.Len(), 1<<20)), h.Len())
	return h.Shape, data, err
}

// ReadShape reads a .npy file of element type T in C order and of the
// given shape from r, allocating its data at once. Another shape is an
// error wrapping ErrFormat, as are the errors of Read. The allocation is
// the shape's, before any data is read: a caller whose shape comes from
// another file checks first that r can hold that many bytes.
func ReadShape[T Elem](r io.Reader, shape []int) ([]T, error) {
	h, err := readHeaderOf[T](r)
	if err != nil {
		return nil, err
	}
	if !slices.Equal(h.Shape, shape) {
		return nil, fmt.Errorf("npy: %w: shape %v, want %v", ErrFormat, h.Shape, shape)
	}
	return readData(r, make([]T, 0, h.Len()), h.Len())
}

// readHeaderOf reads the header and checks that it describes a C-order
// array of T.
func readHeaderOf[T Elem](r io.Reader) (Header, error) {
	h, err := ReadHeader(r)
	if err != nil {
		return h, err
	}
	if want := descr[T](); h.Descr != want {
		return h, fmt.Errorf("npy: %w: dtype %q, want %q", ErrFormat, h.Descr, want)
	}
	if h.FortranOrder {
		return h, fmt.Errorf("npy: %w: Fortran order", ErrFormat)
	}
	if h.Len() > math.MaxInt/size[T]() {
		return h, fmt.Errorf("npy: %w: shape %v has more bytes than an int counts", ErrFormat, h.Shape)
	}
	return h, nil
}

// readData appends n elements read from r to data.
func readData[T Elem](r io.Reader, data []T, n int) ([]T, error) {
	es := size[T]()
	const chunk = 1 << 13
	buf := make([]byte, chunk*es)
	for len(data) < n {
		m := min(chunk, n-len(data))
		if _, err := io.ReadFull(r, buf[:m*es]); err != nil {
			return nil, fmt.Errorf("npy: %w: %d of %d elements: %v", ErrFormat, len(data), n, err)
		}
		data = decode(data, buf[:m*es])
	}
	return data, nil
}

// decode appends the little-endian elements in b to data.
func decode[T Elem](data []T, b []byte) []T {
	switch d := any(data).(type) {
	case []float64:
		for i := 0; i+8 <= len(b); i += 8 {
			d = append(d, math.Float64frombits(binary.LittleEndian.Uint64(b[i:])))
		}
		return any(d).([]T)
	case []int64:
		for i := 0; i+8 <= len(b); i += 8 {
			d = append(d, int64(binary.LittleEndian.Uint64(b[i:])))
		}
		return any(d).([]T)
	case []int32:
		for i := 0; i+4 <= len(b); i += 4 {
			d = append(d, int32(binary.LittleEndian.Uint32(b[i:])))
		}
		return any(d).([]T)
	}
	return data
}
