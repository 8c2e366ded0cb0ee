package dataset

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
)

// Formats returns the file formats OpenFile accepts.
func Formats() []string {
	f := []string{"triplets", "matrix-market"}
	for _, s := range sources() {
		f = append(f, s.name)
	}
	return f
}

// OpenFile loads the file at path in the given format (see Formats):
//
//   - "triplets": "row, column, value" lines. The separator is a tab if
//     the first non-blank line has one, else a comma if it has one, else
//     runs of spaces. Identifiers are any non-empty strings (surrounding
//     spaces and double quotes are dropped). The first non-blank line is a
//     header, and skipped, only when none of its fields is a number and
//     its value field is a name (a letter, then letters, digits,
//     underscores or spaces), such as "user,item,rating"; any other first
//     line is data and a malformed one is an error. Blank lines are
//     ignored.
//   - "matrix-market": a MatrixMarket coordinate file with real or integer
//     values and general symmetry; row i has the identifier "i", and rows
//     and columns without entries are kept unless cleaned (a size line
//     declaring more than 65,536 of them beyond the number of entries is
//     an error, so that memory follows the entries).
//   - a MovieLens dataset name: that dataset's ratings layout; for
//     "movielens-10m" and later a file whose first line has "::" is read
//     as ratings.dat and any other as ratings.csv (with header).
//   - "": the format DetectFormat finds, so that a MovieLens ratings file
//     reads as MovieLens and anything else as triplets or MatrixMarket.
//
// The file is not verified against official digests. A file in a
// MovieLens format is cleaned as Open cleans the dataset (threshold
// opts.MinRatings, default 3); a file in another format only when
// opts.MinRatings is positive. When the file does not parse in an
// explicitly given format but looks like another, the error says which
// format reads it. Rows and
// columns are indexed in the order of their sorted identifiers, numeric
// identifiers numerically and before the others.
func OpenFile(path, format string, opts Options) (*Ratings, error) {
	return OpenFileContext(context.Background(), path, format, opts)
}

// OpenFileContext is OpenFile, stopped when ctx is cancelled: reading,
// parsing and cleaning check ctx as they go, and the error then wraps
// ctx.Err().
func OpenFileContext(ctx context.Context, path, format string, opts Options) (*Ratings, error) {
	r, _, err := OpenFileDigest(ctx, path, format, opts)
	return r, err
}

// OpenFileDigest is OpenFileContext that also returns the hex SHA-256 of
// the file's content, read in the same pass, so that the digest is that
// of the bytes parsed and a file that can be read once (a named pipe, or
// a shell's process substitution) is read once. Opening and reading a
// named pipe give way to ctx too.
func OpenFileDigest(ctx context.Context, path, format string, opts Options) (*Ratings, string, error) {
	if opts.MinRatings < 0 {
		return nil, "", fmt.Errorf("%s: MinRatings is %d; it must not be negative", path, opts.MinRatings)
	}
	if format != "" && !slices.Contains(Formats(), format) {
		return nil, "", fmt.Errorf("%s: unknown format %q; known formats are %s", path, format, strings.Join(Formats(), ", "))
	}
	f, err := openContext(ctx, path)
	if err != nil {
		return nil, "", err
	}
	defer f.Close() // read only: a close error loses nothing
	h := sha256.New()
	// The first line, which tells the format, is peeked from the same
	// reader the parser reads, so that a pipe is read once and hashed
	// once.
	br := bufio.NewReaderSize(io.TeeReader(readerContext(ctx, f), h), maxSniff)
	first, err := firstLine(br)
	if err != nil {
		return nil, "", fmt.Errorf("%s: %w", path, err)
	}
	detected := detectFormat(path, first)
	explicit := format != ""
	if !explicit {
		format = detected
	}
	parse, err := parser(path, format, first)
	if err != nil {
		return nil, "", err
	}
	r, err := parse(path, br)
	if err == nil {
		err = r.prepareValues(opts)
	}
	if err != nil {
		if explicit && !sameLayout(format, detected) && !errors.Is(err, ErrNotCount) {
			err = fmt.Errorf("%w; the file looks like %s: read it with --format %s (format: %s in a config)",
				err, describeFormat(detected), detected, detected)
		}
		return nil, "", err
	}
	// Hash what the parser left unread, if anything.
	if _, err := io.Copy(io.Discard, br); err != nil {
		return nil, "", err
	}
	minRatings := opts.MinRatings
	if minRatings == 0 && isMovieLensFormat(format) {
		minRatings = DefaultMinRatings
	}
	cleaned, err := clean(ctx, r, filepath.Base(path), minRatings)
	if err != nil {
		return nil, "", err
	}
	cleaned.Format = format
	return cleaned, hex.EncodeToString(h.Sum(nil)), nil
}

// parser returns the parsing function for format, for a file whose first
// non-blank line is first.
func parser(path, format string, first []byte) (func(string, io.Reader) (*raw, error), error) {
	switch format {
	case "triplets":
		return parseTriplets, nil
	case "matrix-market":
		return parseMatrixMarket, nil
	}
	s, err := lookup(format)
	if err != nil {
		return nil, fmt.Errorf("%s: unknown format %q; known formats are %s", path, format, strings.Join(Formats(), ", "))
	}
	l := s.layout
	if l.halfStars() {
		l = layoutCSV
		if bytes.Contains(first, []byte("::")) {
			l = layoutDat
		}
	}
	return func(file string, r io.Reader) (*raw, error) { return parseMovieLens(file, r, l) }, nil
}
