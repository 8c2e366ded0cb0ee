package dataset

import (
	"bytes"
	"fmt"
	"io"
	"math"
)

// movieLensLayout is one MovieLens ratings file layout.
type movieLensLayout int

// The MovieLens layouts. ratings.dat of MovieLens 1M has the fields
// UserID::MovieID::Rating::Timestamp, but copies without the timestamp
// are in circulation, so it is optional there (consistently within a
// file).
const (
	layoutUData movieLensLayout = iota // u.data of 100K: tab-separated, whole stars
	layoutDat1M                        // ratings.dat of 1M: "::", whole stars, timestamp optional
	layoutDat                          // ratings.dat of 10M: "::", half stars
	layoutCSV                          // ratings.csv of 20M and later: header, commas, half stars
)

// sep returns the field separator.
func (l movieLensLayout) sep() string {
	switch l {
	case layoutUData:
		return "\t"
	case layoutCSV:
		return ","
	}
	return "::"
}

// header returns the required first line, or "" for none.
func (l movieLensLayout) header() string {
	if l == layoutCSV {
		return "userId,movieId,rating,timestamp"
	}
	return ""
}

// minFields returns 3 when the timestamp is optional, else 4.
func (l movieLensLayout) minFields() int {
	if l == layoutDat1M {
		return 3
	}
	return 4
}

// halfStars reports whether ratings go from 0.5 to 5 in half stars rather
// than from 1 to 5 in whole stars.
func (l movieLensLayout) halfStars() bool { return l == layoutDat || l == layoutCSV }

// movieLensField names field i of a MovieLens ratings line.
func movieLensField(i int) string {
	return [...]string{"user id", "movie id", "rating", "timestamp"}[i]
}

// parseMovieLens reads MovieLens ratings in the given layout from r; file
// names the input in errors.
func parseMovieLens(file string, r io.Reader, l movieLensLayout) (*raw, error) {
	lr := newLineReader(file, r)
	b := newBuilder(file)
	sep := []byte(l.sep())
	nfields := 0 // the field count of the first rating line
	var fields [4][]byte
	for {
		line, ok := lr.next()
		if !ok {
			break
		}
		if lr.line == 1 && l.header() != "" {
			if string(bytes.TrimPrefix(line, []byte("\ufeff"))) != l.header() {
				return nil, lr.errorf(1, "", "header is %q, want %q", line, l.header())
			}
			continue
		}
		n, ok := splitFields(line, sep, fields[:])
		if !ok || n < l.minFields() {
			return nil, lr.errorf(lr.line, "", "want %s separated by %q, found %d",
				wantFields(l), l.sep(), countFields(line, sep))
		}
		if nfields == 0 {
			nfields = n
		} else if n != nfields {
			return nil, lr.errorf(lr.line, "", "%d fields, but line %d has %d", n, firstDataLine(l), nfields)
		}
		for i := range 2 {
			if !isDigits(fields[i]) {
				return nil, lr.errorf(lr.line, movieLensField(i), "%q is not a positive integer", fields[i])
			}
		}
		v, err := lr.parseValue(movieLensField(2), fields[2])
		if err != nil {
			return nil, err
		}
		if err := checkStars(v, l.halfStars()); err != nil {
			return nil, lr.wrap(lr.line, movieLensField(2), err)
		}
		if n == 4 && !isDigits(fields[3]) {
			return nil, lr.errorf(lr.line, movieLensField(3), "%q is not a nonnegative integer", fields[3])
		}
		if err := b.add(fields[0], fields[1], v, lr.line); err != nil {
			return nil, err
		}
	}
	if err := lr.err(); err != nil {
		return nil, err
	}
	return b.finish()
}

func firstDataLine(l movieLensLayout) int {
	if l.header() != "" {
		return 2
	}
	return 1
}

func wantFields(l movieLensLayout) string {
	if l.minFields() == 3 {
		return "3 or 4 fields (user, movie, rating and optionally timestamp)"
	}
	return "4 fields (user, movie, rating, timestamp)"
}

// checkStars checks that v is a MovieLens star rating.
func checkStars(v float64, half bool) error {
	lo, step := 1.0, 1.0
	if half {
		lo, step = 0.5, 0.5
	}
	if v < lo || v > 5 || math.Mod(v, step) != 0 {
		if half {
			return fmt.Errorf("%v is not a rating from 0.5 to 5 in half stars", v)
		}
		return fmt.Errorf("%v is not a rating from 1 to 5 whole stars", v)
	}
	return nil
}

// splitFields splits line at sep into fields and returns their number; it
// returns false when there are more than len(fields).
func splitFields(line, sep []byte, fields [][]byte) (int, bool) {
	n := 0
	for {
		i := bytes.Index(line, sep)
		if n == len(fields) {
			return n, false
		}
		if i < 0 {
			fields[n] = line
			return n + 1, true
		}
		fields[n] = line[:i]
		n++
		line = line[i+len(sep):]
	}
}

func countFields(line, sep []byte) int {
	return bytes.Count(line, sep) + 1
}
