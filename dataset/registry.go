package dataset

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
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

// fetchCommand returns the command line that fetches name into dir.
func fetchCommand(name, dir string) string {
	if dir == DataDir() {
		return "bnmf data fetch " + name
	}
	return fmt.Sprintf("bnmf data fetch --data-dir %s %s", dir, name)
}

// ErrChecksum means a file differs from the official one.
var ErrChecksum = errors.New("checksum mismatch")
