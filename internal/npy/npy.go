// Package npy reads and writes NumPy's .npy array format (format version
// 1.0, falling back to 2.0 for headers too long for it), for the arrays
// bnmf fit writes: little-endian float64 ('<f8'), int64 ('<i8') and int32
// ('<i4'), in C (row-major) order.
//
// The layout is NumPy's "NEP 1" format
// (https://numpy.org/doc/stable/reference/generated/numpy.lib.format.html):
// the magic string "\x93NUMPY", the format version (1, 0), the header's
// length as a little-endian uint16, and the header, a Python dict literal
// such as {'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }
// padded with spaces and a final newline so that the data starts at a
// multiple of 64 bytes. The data follows, in C order. Write pads the header
// exactly as numpy.save does (NumPy 1.24 and later, including the spare
// room numpy leaves for the first axis to grow), so that its files are
// byte for byte those of numpy.save.
package npy

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// Magic is the first six bytes of every .npy file.
const Magic = "\x93NUMPY"

// headerAlign is the multiple of bytes at which numpy starts the data.
const headerAlign = 64

// growthDigits is the room numpy.save leaves in a header for the length
// of the first axis to grow in place: the header is padded as if that
// length had this many digits (numpy.lib.format.GROWTH_AXIS_MAX_DIGITS).
const growthDigits = 21

// Elem is an element type that this package reads and writes.
type Elem interface{ float64 | int64 | int32 }

// Header is the parsed header of a .npy file.
type Header struct {
	// Major and Minor are the format version, (1, 0) or (2, 0).
	Major, Minor int
	// Descr is the dtype, such as "<f8".
	Descr string
	// FortranOrder reports column-major data; this package writes and
	// reads only C order.
	FortranOrder bool
	// Shape is the array's shape; empty for a scalar.
	Shape []int
}

// Len returns the number of elements of an array of the header's shape.
func (h Header) Len() int {
	n := 1
	for _, d := range h.Shape {
		n *= d
	}
	return n
}

// descr returns the NumPy dtype string of T.
func descr[T Elem]() string {
	var zero T
	switch any(zero).(type) {
	case float64:
		return "<f8"
	case int64:
		return "<i8"
	default:
		return "<i4"
	}
}

// size returns the size of T in bytes.
func size[T Elem]() int {
	var zero T
	return binary.Size(zero)
}

// Write writes data, an array of the given shape in C order, to w as a
// .npy file. It is an error if the shape does not hold len(data)
// elements or has a negative dimension.
func Write[T Elem](w io.Writer, shape []int, data []T) error {
	n, err := count(shape)
	if err != nil {
		return err
	}
	if n != len(data) {
		return fmt.Errorf("npy: shape %v holds %d elements, got %d", shape, n, len(data))
	}
	if err := WriteHeader[T](w, shape); err != nil {
		return err
	}
	return WriteData(w, data)
}

// WriteHeader writes the magic string, version and header of an array of
// element type T and the given shape, for a caller that then writes the
// data in pieces with WriteData (all of them, in C order, making up the
// shape's number of elements).
func WriteHeader[T Elem](w io.Writer, shape []int) error {
	if _, err := count(shape); err != nil {
		return err
	}
	if _, err := w.Write(header(descr[T](), shape)); err != nil {
		return fmt.Errorf("npy: %w", err)
	}
	return nil
}

// WriteData writes data little-endian, as the data of a .npy file whose
// header WriteHeader wrote.
func WriteData[T Elem](w io.Writer, data []T) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	if err := encode(bw, data); err != nil {
		return fmt.Errorf("npy: %w", err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("npy: %w", err)
	}
	return nil
}

// count returns the number of elements of shape, or an error for a
// negative dimension.
func count(shape []int) (int, error) {
	n := 1
	for _, d := range shape {
		if d < 0 {
			return 0, fmt.Errorf("npy: negative dimension in shape %v", shape)
		}
		n *= d
	}
	return n, nil
}

// header returns the magic string, version, header length and header of
// an array of the given dtype and shape, padded as numpy.save pads it.
func header(descr string, shape []int) []byte {
	dims := make([]string, len(shape))
	for i, d := range shape {
		dims[i] = strconv.Itoa(d)
	}
	tuple := "(" + strings.Join(dims, ", ") + ")"
	if len(shape) == 1 {
		tuple = "(" + dims[0] + ",)"
	}
	dict := fmt.Sprintf("{'descr': '%s', 'fortran_order': False, 'shape': %s, }", descr, tuple)
	if len(shape) > 0 {
		dict += strings.Repeat(" ", max(0, growthDigits-len(dims[0])))
	}
	// Version 1.0 has a 2-byte length; 2.0, for longer headers, 4 bytes.
	major, lenSize := 1, 2
	if len(dict)+1+headerAlign > math.MaxUint16 {
		major, lenSize = 2, 4
	}
	prefix := len(Magic) + 2 + lenSize
	pad := headerAlign - (prefix+len(dict)+1)%headerAlign
	if pad == headerAlign {
		pad = 0
	}
	hlen := len(dict) + pad + 1
	var b bytes.Buffer
	b.WriteString(Magic)
	b.WriteByte(byte(major))
	b.WriteByte(0)
	if lenSize == 2 {
		_ = binary.Write(&b, binary.LittleEndian, uint16(hlen)) // a bytes.Buffer does not fail
	} else {
		_ = binary.Write(&b, binary.LittleEndian, uint32(hlen))
	}
	b.WriteString(dict)
	b.WriteString(strings.Repeat(" ", pad))
	b.WriteByte('\n')
	return b.Bytes()
}

// encode writes data little-endian to w.
func encode[T Elem](w io.Writer, data []T) error {
	var buf [8]byte
	switch d := any(data).(type) {
	case []float64:
		for _, x := range d {
			binary.LittleEndian.PutUint64(buf[:], math.Float64bits(x))
			if _, err := w.Write(buf[:8]); err != nil {
				return err
			}
		}
	case []int64:
		for _, x := range d {
			binary.LittleEndian.PutUint64(buf[:], uint64(x))
			if _, err := w.Write(buf[:8]); err != nil {
				return err
			}
		}
	case []int32:
		for _, x := range d {
			binary.LittleEndian.PutUint32(buf[:], uint32(x))
			if _, err := w.Write(buf[:4]); err != nil {
				return err
			}
		}
	}
	return nil
}
