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
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// DefaultMinRatings is the paper's cleaning threshold: users and movies
// with fewer ratings are removed (Section 5).
const DefaultMinRatings = 3

// Options controls Open and OpenFile.
type Options struct {
	// MinRatings is the cleaning threshold (see Open). Zero means
	// DefaultMinRatings for MovieLens data, whether Open reads a dataset
	// by name or OpenFile a file in a MovieLens format, and no cleaning
	// for the other formats of OpenFile; 1 keeps every row and column that
	// has a rating. It must not be negative.
	MinRatings int
	// SkipChecksum accepts MovieLens files whose SHA-256 digest or rating
	// counts differ from the official ones.
	SkipChecksum bool
	// Synthetic configures the "synthetic" dataset.
	Synthetic SyntheticOptions
	// Counts refuses data with a value that is not a count, a
	// nonnegative integer (ErrNotCount), as the models with a Poisson
	// likelihood need: the error names the file and line of the earliest
	// such value, or for the synthetic dataset the entry.
	Counts bool
	// Truncate casts every value to an integer toward zero as it is read,
	// before the counts check and the cleaning (math.Trunc, as a cast to
	// int in C or numpy does): Brouwer and Lio's experiments read the
	// drug-sensitivity matrices so (their "_integer" loaders), and a model
	// with a Poisson likelihood needs counts. An entry stays observed
	// whatever its value, so a value in (-1, 1) becomes an observed 0.
	Truncate bool
}

// counts are the numbers of ratings, users and movies of an official
// MovieLens ratings file, before cleaning.
type counts struct{ ratings, users, movies int }

// source describes an official MovieLens dataset.
type source struct {
	name   string
	url    string // the official GroupLens zip
	size   string // its approximate size
	dir    string // the dataset's directory under <data dir>/movielens
	file   string // the ratings file, in the zip and in dir
	layout movieLensLayout
	// sha256 is the pinned digest of the official ratings file, or "" when
	// it is not known; the file is then checked by the CRC-32 of its zip
	// entry when fetched, and by counts (if set) when opened.
	sha256 string
	counts *counts
}

const groupLens = "https://files.grouplens.org/datasets/movielens/"

// sources lists the official datasets and how each is verified.
//
// The SHA-256 digest of MovieLens 100K's u.data is pinned. The official
// digests of the other ratings files could not be computed when this table
// was written (no official copy was at hand), so they are not pinned:
// MovieLens 1M's ratings.dat is checked by its official counts of ratings,
// users and movies, which catch a truncated or mixed-up file but not a
// changed rating; the others are checked only when fetched, by the CRC-32
// that their zip archive records for each unpacked file. Sizes are those
// of the archives, roughly.
func sources() []source {
	return []source{
		{name: "movielens-100k", url: groupLens + "ml-100k.zip", size: "5 MB", dir: "ml-100k", file: "u.data", layout: layoutUData,
			sha256: "06416e597f82b7342361e41163890c81036900f418ad91315590814211dca490",
			counts: &counts{ratings: 100000, users: 943, movies: 1682}},
		{name: "movielens-1m", url: groupLens + "ml-1m.zip", size: "6 MB", dir: "ml-1m", file: "ratings.dat", layout: layoutDat1M,
			counts: &counts{ratings: 1000209, users: 6040, movies: 3706}},
		{name: "movielens-10m", url: groupLens + "ml-10m.zip", size: "63 MB", dir: "ml-10m", file: "ratings.dat", layout: layoutDat},
		{name: "movielens-20m", url: groupLens + "ml-20m.zip", size: "190 MB", dir: "ml-20m", file: "ratings.csv", layout: layoutCSV},
		{name: "movielens-25m", url: groupLens + "ml-25m.zip", size: "250 MB", dir: "ml-25m", file: "ratings.csv", layout: layoutCSV},
		{name: "movielens-latest-small", url: groupLens + "ml-latest-small.zip", size: "1 MB", dir: "ml-latest-small", file: "ratings.csv", layout: layoutCSV},
	}
}

// SyntheticName is the name of the generated dataset (see Synthetic).
const SyntheticName = "synthetic"

// registered is a dataset that Open, Path and Fetch know by name: a
// MovieLens source or a drug-sensitivity one (drugsensitivity.go).
type registered interface {
	datasetName() string
	// path returns where its main file lives under dir.
	path(dir string) string
	// open reads, verifies and cleans it from dir.
	open(ctx context.Context, dir string, opts Options) (*Ratings, error)
	// install downloads it into dir, as Fetch describes.
	install(ctx context.Context, dir string, opts FetchOptions) (string, error)
	// mirrorEnv names the environment variable of its mirror (MirrorEnv).
	mirrorEnv() string
}

var (
	_ registered = source{}
	_ registered = drugSource{}
)

// registry lists the datasets that can be downloaded, in the order of
// Names.
func registry() []registered {
	var r []registered
	for _, s := range sources() {
		r = append(r, s)
	}
	for _, s := range drugSources() {
		r = append(r, s)
	}
	return r
}

// find returns the registered dataset called name.
func find(name string) (registered, error) {
	for _, d := range registry() {
		if d.datasetName() == name {
			return d, nil
		}
	}
	return nil, fmt.Errorf("unknown dataset %q; known datasets are %s", name, strings.Join(Names(), ", "))
}

// lookup returns the MovieLens source called name.
func lookup(name string) (source, error) {
	for _, s := range sources() {
		if s.name == name {
			return s, nil
		}
	}
	return source{}, fmt.Errorf("unknown dataset %q; known datasets are %s", name, strings.Join(Names(), ", "))
}

// Names returns the names Open accepts: the MovieLens datasets, the
// drug-sensitivity datasets of Brouwer and Lio (gdsc-ic50, ccle-ic50,
// ccle-ec50) and "synthetic".
func Names() []string {
	var names []string
	for _, d := range registry() {
		names = append(names, d.datasetName())
	}
	return append(names, SyntheticName)
}

// MirrorEnv returns the name of the environment variable through which
// the command line points Fetch at a mirror of dataset name (as
// FetchOptions.BaseURL): BNMF_MOVIELENS_MIRROR for MovieLens,
// BNMF_BMF_PRIORS_MIRROR for the drug-sensitivity datasets. It returns ""
// for an unknown name or one that needs no download.
func MirrorEnv(name string) string {
	d, err := find(name)
	if err != nil {
		return ""
	}
	return d.mirrorEnv()
}

// DataDir returns the data directory: $BNMF_DATA_DIR if set, else
// "./data". Dataset files live under it as movielens/ml-100k/u.data,
// movielens/ml-1m/ratings.dat, bmf-priors/GDSC/ic50.txt, and so on.
func DataDir() string {
	if d := os.Getenv("BNMF_DATA_DIR"); d != "" {
		return d
	}
	return "./data"
}

// Path returns where Open looks for the ratings file of the MovieLens
// dataset name under dir, or the matrix of a drug-sensitivity dataset.
func Path(name, dir string) (string, error) {
	d, err := find(name)
	if err != nil {
		return "", err
	}
	return d.path(dir), nil
}

func (s source) datasetName() string { return s.name }
func (s source) mirrorEnv() string   { return movieLensMirrorEnv }

// movieLensMirrorEnv names the environment variable that replaces the
// GroupLens directory of the archives with a mirror.
const movieLensMirrorEnv = "BNMF_MOVIELENS_MIRROR"

func (s source) path(dir string) string {
	return filepath.Join(dir, "movielens", s.dir, s.file)
}

// Open loads a named dataset (see Names) from dir, or from DataDir() when
// dir is empty, verifies it and cleans it.
//
// A MovieLens ratings file must be at dir/movielens/<ml-name>/<file> (see
// Path), where "bnmf data fetch NAME" (Fetch) puts it; when it is missing
// the error says where it was expected and how to get it. The file is
// checked against the pinned SHA-256 digest or the official rating counts
// where these are known, unless opts.SkipChecksum is set. The paper's
// cleaning then removes users and movies with fewer than opts.MinRatings
// ratings (default 3): rows, then columns, then rows again. Rows (users)
// and columns (movies) are indexed in the numeric order of their
// identifiers, and RowIDs and ColIDs keep the mapping.
//
// A drug-sensitivity dataset (gdsc-ic50, ccle-ic50, ccle-ec50) is read
// from dir/bmf-priors/<SET>/, checked against the SHA-256 digests of
// upstream's files and its counts unless opts.SkipChecksum is set, and
// cleaned in the same way; rows are cell lines and columns drugs, named
// by the first field of cell_lines.txt and drugs.txt. See
// drugsensitivity.go for its conventions and for the subnormal values of
// ccle-ec50, which are read as missing.
//
// "synthetic" ignores dir and generates data from opts.Synthetic; it is
// not cleaned, as every row and column already has at least 3 ratings.
func Open(name, dir string, opts Options) (*Ratings, error) {
	return OpenContext(context.Background(), name, dir, opts)
}

// OpenContext is Open, stopped when ctx is cancelled: reading, parsing
// and cleaning check ctx as they go, and the error then wraps ctx.Err().
func OpenContext(ctx context.Context, name, dir string, opts Options) (*Ratings, error) {
	if opts.MinRatings < 0 {
		return nil, fmt.Errorf("dataset %s: MinRatings is %d; it must not be negative", name, opts.MinRatings)
	}
	if name == SyntheticName {
		r, err := Synthetic(opts.Synthetic)
		if err == nil && opts.Truncate {
			for i := range r.Entries {
				r.Entries[i].Value = math.Trunc(r.Entries[i].Value)
			}
		}
		if err == nil && opts.Counts {
			err = checkCountEntries(r)
		}
		return r, err
	}
	d, err := find(name)
	if err != nil {
		return nil, err
	}
	if dir == "" {
		dir = DataDir()
	}
	return d.open(ctx, dir, opts)
}

// open reads, verifies and cleans the MovieLens ratings under dir.
func (s source) open(ctx context.Context, dir string, opts Options) (*Ratings, error) {
	name := s.name
	path := s.path(dir)
	f, err := openContext(ctx, path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("dataset %s: expected its ratings at %s: %w; "+
			"run \"%s\" to download them (%s from %s), or set BNMF_DATA_DIR to the directory that holds movielens/%s/%s",
			name, path, fs.ErrNotExist, fetchCommand(name, dir), s.size, s.url, s.dir, s.file)
	}
	if err != nil {
		return nil, fmt.Errorf("dataset %s: %w", name, err)
	}
	defer f.Close()
	r, err := s.load(path, readerContext(ctx, f), opts.SkipChecksum)
	if errors.Is(err, ErrChecksum) {
		return nil, fmt.Errorf("dataset %s: %w; run \"%s\" to replace it with the official file, or skip the check (--skip-checksum)",
			name, err, fetchCommand(name, dir))
	}
	if err == nil {
		err = r.prepareValues(opts)
	}
	if err != nil {
		return nil, fmt.Errorf("dataset %s: %w", name, err)
	}
	minRatings := opts.MinRatings
	if minRatings == 0 {
		minRatings = DefaultMinRatings
	}
	return clean(ctx, r, name, minRatings)
}

// fetchCommand returns the command line that fetches name into dir.
func fetchCommand(name, dir string) string {
	if dir == DataDir() {
		return "bnmf data fetch " + name
	}
	return fmt.Sprintf("bnmf data fetch --data-dir %s %s", dir, name)
}

// load parses the ratings file f and unless skip is set checks it against
// the pinned digest and counts; file names it in errors.
func (s source) load(file string, f io.Reader, skip bool) (*raw, error) {
	h := sha256.New()
	r, err := parseMovieLens(file, io.TeeReader(f, h), s.layout)
	if err != nil {
		return nil, err
	}
	if !skip {
		if err := s.verify(file, hex.EncodeToString(h.Sum(nil)), r); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// ErrChecksum means a file differs from the official one.
var ErrChecksum = errors.New("checksum mismatch")

// verify checks the digest and counts of a parsed ratings file; file
// names it in errors.
func (s source) verify(file, digest string, r *raw) error {
	if s.sha256 != "" && digest != s.sha256 {
		return fmt.Errorf("%s: %w: SHA-256 is %s, want %s", file, ErrChecksum, digest, s.sha256)
	}
	if c := s.counts; c != nil && (len(r.cells) != c.ratings || r.rows != c.users || r.cols != c.movies) {
		return fmt.Errorf("%s: %w: %d ratings by %d users of %d movies, want %d by %d of %d",
			file, ErrChecksum, len(r.cells), r.rows, r.cols, c.ratings, c.users, c.movies)
	}
	return nil
}

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
