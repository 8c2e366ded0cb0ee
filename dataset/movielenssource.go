package dataset

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
)

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

func (s source) datasetName() string { return s.name }
func (s source) mirrorEnv() string   { return movieLensMirrorEnv }

// movieLensMirrorEnv names the environment variable that replaces the
// GroupLens directory of the archives with a mirror.
const movieLensMirrorEnv = "BNMF_MOVIELENS_MIRROR"

func (s source) path(dir string) string {
	return filepath.Join(dir, "movielens", s.dir, s.file)
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
