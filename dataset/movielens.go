package dataset

import (
	"bytes"
	"fmt"
	"io"
	"math"
)

// movieLensLayout describes one MovieLens ratings file layout.
type movieLensLayout struct {
	sep       string // field separator
	header    string // required first line, or "" for none
	minFields int    // user, movie, rating and perhaps timestamp
	halfStars bool   // ratings from 0.5 to 5 in half stars; else 1 to 5 whole stars
}

// The MovieLens layouts. ratings.dat of MovieLens 1M has the fields
// UserID::MovieID::Rating::Timestamp, but copies without the timestamp
// are in circulation, so it is optional there (consistently within a
// file).
var (
	layoutUData = movieLensLayout{sep: "\t", minFields: 4}
	layoutDat1M = movieLensLayout{sep: "::", minFields: 3}
	layoutDat   = movieLensLayout{sep: "::", minFields: 3, halfStars: true}
	layoutCSV   = movieLensLayout{sep: ",", header: "userId,movieId,rating,timestamp", minFields: 4, halfStars: true}
)

// movieLensFields names the fields of a MovieLens ratings line.
var movieLensFields = [4]string{"user id", "movie id", "rating", "timestamp"}

// parseMovieLens reads MovieLens ratings in the given layout from r; file
// names the input in errors.
func parseMovieLens(file string, r io.Reader, l movieLensLayout) (*raw, error) {
	lr := newLineReader(file, r)
	b := newBuilder(file)
	sep := []byte(l.sep)
	nfields := 0 // the field count of the first rating line
	var fields [4][]byte
	for {
		line, ok := lr.next()
		if !ok {
			break
		}
		if lr.line == 1 && l.header != "" {
			if string(bytes.TrimPrefix(line, []byte("\ufeff"))) != l.header {
				return nil, lr.errorf(1, "", "header is %q, want %q", line, l.header)
			}
			continue
		}
		n, ok := splitFields(line, sep, fields[:])
		if !ok || n < l.minFields {
			return nil, lr.errorf(lr.line, "", "want %s separated by %q, found %d",
				wantFields(l), l.sep, countFields(line, sep))
		}
		if nfields == 0 {
			nfields = n
		} else if n != nfields {
			return nil, lr.errorf(lr.line, "", "%d fields, but line %d has %d", n, firstDataLine(l), nfields)
		}
		for i := range 2 {
			if !isDigits(fields[i]) {
				return nil, lr.errorf(lr.line, movieLensFields[i], "%q is not a positive integer", fields[i])
			}
		}
		v, err := lr.parseValue(movieLensFields[2], fields[2])
		if err != nil {
			return nil, err
		}
		if err := checkStars(v, l.halfStars); err != nil {
			return nil, lr.wrap(lr.line, movieLensFields[2], err)
		}
		if n == 4 && !isDigits(fields[3]) {
			return nil, lr.errorf(lr.line, movieLensFields[3], "%q is not a nonnegative integer", fields[3])
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
	if l.header != "" {
		return 2
	}
	return 1
}

func wantFields(l movieLensLayout) string {
	if l.minFields == 3 {
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
