package dataset

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// The file formats that the MovieLens datasets' own ratings files are in,
// as OpenFile names them: the format of the first dataset of each layout.
// The datasets of one layout read alike (movielens-20m, -25m and
// -latest-small share ratings.csv's).
const (
	formatUData = "movielens-100k"
	formatDat1M = "movielens-1m"
	formatDat   = "movielens-10m"
	formatCSV   = "movielens-latest-small"
)

// maxSniff bounds the bytes read to find a file's first line.
const maxSniff = 64 * 1024

// DetectFormat returns the format (see Formats) of the file at path,
// judged by its name and its first non-blank line:
//
//   - "matrix-market" for a name ending in ".mtx" or a first line that
//     starts with "%%MatrixMarket";
//   - "movielens-latest-small" for the header of MovieLens's ratings.csv,
//     "userId,movieId,rating,timestamp" (the layout of movielens-20m and
//     -25m too);
//   - "movielens-1m" for fields separated by "::" (ratings.dat), three of
//     them, and "movielens-10m" (whose half stars include whole ones) for
//     four;
//   - "movielens-100k" for four tab-separated integers (u.data: user,
//     movie, rating, timestamp);
//   - "triplets" for anything else.
//
// OpenFile uses it when its format is "".
func DetectFormat(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close() // read-only
	first, err := firstLine(bufio.NewReaderSize(f, maxSniff))
	if err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	return detectFormat(path, first), nil
}

// firstLine returns the first non-blank line that br starts with, without
// consuming it, BOM and line ending removed; only the first maxSniff bytes
// are looked at.
func firstLine(br *bufio.Reader) ([]byte, error) {
	head, err := br.Peek(maxSniff)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) {
		return nil, err
	}
	head = bytes.TrimPrefix(head, []byte("\ufeff"))
	for len(head) > 0 {
		line := head
		if i := bytes.IndexByte(head, '\n'); i >= 0 {
			line, head = head[:i], head[i+1:]
		} else {
			head = nil
		}
		line = bytes.TrimRight(line, "\r")
		if len(bytes.TrimSpace(line)) > 0 {
			return line, nil
		}
	}
	return nil, nil
}

// detectFormat is DetectFormat given the file's first non-blank line.
func detectFormat(path string, first []byte) string {
	switch {
	case strings.EqualFold(filepath.Ext(path), ".mtx") || bytes.HasPrefix(first, []byte("%%MatrixMarket")):
		return "matrix-market"
	case string(first) == layoutCSV.header():
		return formatCSV
	case bytes.Contains(first, []byte("::")):
		if countFields(first, []byte("::")) == 3 {
			return formatDat1M
		}
		return formatDat
	}
	if f := bytes.Split(first, []byte("\t")); len(f) == 4 {
		digits := true
		for _, x := range f {
			digits = digits && isDigits(x)
		}
		if digits {
			return formatUData
		}
	}
	return "triplets"
}

// isMovieLensFormat reports whether format is a MovieLens dataset's.
func isMovieLensFormat(format string) bool {
	_, err := lookup(format)
	return err == nil
}

// describeFormat says in a few words what a file in format looks like,
// for an error that suggests it.
func describeFormat(format string) string {
	switch format {
	case "matrix-market":
		return "a MatrixMarket file"
	case "triplets":
		return "a triplets file"
	case formatCSV:
		return "MovieLens's ratings.csv, by its header"
	case formatUData:
		return "MovieLens 100K's u.data, four tab-separated integers"
	}
	return "MovieLens's ratings.dat, by its separator \"::\""
}

// sameLayout reports whether formats a and b read a file alike.
func sameLayout(a, b string) bool {
	if a == b {
		return true
	}
	sa, erra := lookup(a)
	sb, errb := lookup(b)
	return erra == nil && errb == nil && sa.layout.halfStars() && sb.layout.halfStars()
}
