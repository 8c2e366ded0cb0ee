package dataset

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"

	"github.com/bnmf-lab/bnmf/internal/atomicfile"
)

// The drug-sensitivity datasets of Brouwer and Lio, "Prior and Likelihood
// Choices for Bayesian Matrix Factorisation on Small Datasets" (2017):
// GDSC IC50 and CCLE IC50 and EC50 as that paper's public repository
// (github.com/ThomasBrouwer/BMF_Priors) publishes them, fetched from one
// pinned commit and verified by their SHA-256 digests.
//
// Each dataset is three files under <data dir>/bmf-priors/<SET>/: the
// matrix (ic50.txt or ec50.txt), whose rows are cell lines and columns
// drugs, written densely with one tab-separated line per cell line and
// "nan" where no value is known; cell_lines.txt and drugs.txt, one line
// per row and column of the matrix, whose first tab-separated field is the
// normalised name that becomes the row or column identifier. As for every
// dataset, rows and columns are indexed in the order of their sorted
// identifiers (upstream's order differs only where its case-insensitive
// sort of the original names does).
//
// CCLE EC50 (ccle-ec50) holds 426 subnormal values between 2.18e-314 and
// 2.32e-314 where the other matrices have "nan". They are missing values,
// not measurements: they sit exactly at the 426 (cell line, drug) pairs
// that CCLE IC50 lacks, which CCLE never tested; upstream's processing
// script fills the EC50 matrix from an uninitialised array and sets only
// the IC50 one to NaN first, so untested pairs keep stale memory (read as
// integers, the values are heap addresses near 0x1_0800_0000 to
// 0x1_1700_0000); and no measured EC50 is below the lowest tested
// concentration, 0.0025 micromolar, the smallest value in both CCLE
// matrices. Open therefore drops every value below the smallest normal
// float64 in ccle-ec50, which leaves 7,200 observed entries where upstream,
// reading them as numbers, counts 7,626 and trains and tests on them (as
// zeros, after its cast to integers).
//
// Upstream's loaders also differ from Open in two ways that its
// experiments inherit: they remove the cell lines with fewer than 3
// observed drugs from GDSC and CCLE EC50 but not from CCLE IC50 (Open's
// default cleaning gives the same shapes, as no drug and no CCLE IC50 cell
// line falls below 3), and every experiment loads the "_integer" variant,
// which truncates each value to an integer (18,158 of GDSC's 79,262 values
// are below 1 and become 0). Open keeps the real values.

// drugFile is one file of a drug-sensitivity dataset.
type drugFile struct {
	name     string // the file's name in the dataset's directory
	upstream string // its path in the upstream repository
	sha256   string // its digest at upstream's pinned commit
}

// drugSource describes a drug-sensitivity dataset.
type drugSource struct {
	name   string
	dir    string // under <data dir>/bmf-priors
	matrix drugFile
	rows   drugFile // cell lines, one per matrix row
	cols   drugFile // drugs, one per matrix column
	// shape and observed are upstream's counts: the matrix's size and its
	// number of entries other than "nan", subnormal values included.
	nrows, ncols, observed int
	// subnormalMissing drops values below the smallest normal float64 as
	// missing (see the CCLE EC50 note above); without it they are values.
	subnormalMissing bool
}

// upstreamCommit is the commit of github.com/ThomasBrouwer/BMF_Priors
// whose files the drug-sensitivity datasets are pinned to.
const upstreamCommit = "15b20537eefd36347ed84617882eeea1c453e162"

// upstreamRaw is the address of the files of upstream's pinned commit.
const upstreamRaw = "https://raw.githubusercontent.com/ThomasBrouwer/BMF_Priors/" + upstreamCommit + "/"

// drugSources lists the drug-sensitivity datasets, their files and digests.
func drugSources() []drugSource {
	const gdsc, ccle = "data/drug_sensitivity/GDSC/processed_all/", "data/drug_sensitivity/CCLE/processed_all/"
	gdscCells := drugFile{"cell_lines.txt", gdsc + "cell_lines.txt", "221599cc555eb2597165cbdf90808f7c734a3182c55a9f1ebbc99fde343db032"}
	gdscDrugs := drugFile{"drugs.txt", gdsc + "drugs.txt", "3a984babb193183a2039ae13c0215ae66e2bf2c1300ea20d763f1c9ac629a467"}
	ccleCells := drugFile{"cell_lines.txt", ccle + "cell_lines.txt", "95d8ab57fff5cbba3c4c2430ae52a20e30a9feea71a38070c0aaf4e970fba4c3"}
	ccleDrugs := drugFile{"drugs.txt", ccle + "drugs.txt", "68bdbb1220e077bb8285eb427c064610f413bdd4a02179cad5a2be75c8e104da"}
	return []drugSource{
		{name: "gdsc-ic50", dir: "GDSC",
			matrix: drugFile{"ic50.txt", gdsc + "ic50.txt", "4af989ab5b1ae963df637d9a6d9e7335a092e790e67acc45876f7bbc7e1f2a08"},
			rows:   gdscCells, cols: gdscDrugs, nrows: 707, ncols: 139, observed: 79262},
		{name: "ccle-ic50", dir: "CCLE",
			matrix: drugFile{"ic50.txt", ccle + "ic50.txt", "44ea2ac0ac3660b1f16439504359f7664174825fda3574a75de0f1cf6fcf555b"},
			rows:   ccleCells, cols: ccleDrugs, nrows: 504, ncols: 24, observed: 11670},
		{name: "ccle-ec50", dir: "CCLE",
			matrix: drugFile{"ec50.txt", ccle + "ec50.txt", "0503ade4b1c37545de571d59c58e3a729ec8fda04e38d6e4a1c745644b1544ae"},
			rows:   ccleCells, cols: ccleDrugs, nrows: 504, ncols: 24, observed: 7626, subnormalMissing: true},
	}
}

// drugMirrorEnv names the environment variable that replaces upstreamRaw
// with a mirror holding the files under their upstream paths.
const drugMirrorEnv = "BNMF_BMF_PRIORS_MIRROR"

func (s drugSource) datasetName() string { return s.name }
func (s drugSource) mirrorEnv() string   { return drugMirrorEnv }

// filePath returns where the file f of s lives under dir.
func (s drugSource) filePath(dir string, f drugFile) string {
	return filepath.Join(dir, "bmf-priors", s.dir, f.name)
}

// path returns where the matrix of s lives under dir.
func (s drugSource) path(dir string) string { return s.filePath(dir, s.matrix) }

// files returns the files of s, the matrix first.
func (s drugSource) files() []drugFile { return []drugFile{s.matrix, s.rows, s.cols} }

// open reads, verifies and cleans the dataset under dir.
func (s drugSource) open(ctx context.Context, dir string, opts Options) (*Ratings, error) {
	var labels [2][]string
	for i, f := range []drugFile{s.rows, s.cols} {
		p := s.filePath(dir, f)
		data, err := s.readFile(p, f, opts.SkipChecksum)
		if err != nil {
			return nil, s.openError(dir, p, err)
		}
		if labels[i], err = parseLabels(p, data); err != nil {
			return nil, fmt.Errorf("dataset %s: %w", s.name, err)
		}
	}
	p := s.path(dir)
	data, err := s.readFile(p, s.matrix, opts.SkipChecksum)
	if err != nil {
		return nil, s.openError(dir, p, err)
	}
	r, stats, err := parseDense(ctx, p, bytes.NewReader(data), labels[0], labels[1], s.subnormalMissing)
	if err == nil {
		err = r.prepareValues(opts)
	}
	if err != nil {
		return nil, fmt.Errorf("dataset %s: %w", s.name, err)
	}
	if !opts.SkipChecksum && (r.rows != s.nrows || r.cols != s.ncols || stats.tokens != s.observed) {
		return nil, fmt.Errorf("dataset %s: %s: %w: %d x %d with %d values other than nan, want %d x %d with %d",
			s.name, p, ErrChecksum, r.rows, r.cols, stats.tokens, s.nrows, s.ncols, s.observed)
	}
	minRatings := opts.MinRatings
	if minRatings == 0 {
		minRatings = DefaultMinRatings
	}
	return clean(ctx, r, s.name, minRatings)
}

// openError explains a file of s that could not be read at p.
func (s drugSource) openError(dir, p string, err error) error {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("dataset %s: expected %s: %w; run \"%s\" to download it (from %s), or set BNMF_DATA_DIR to the directory that holds bmf-priors/%s/",
			s.name, p, fs.ErrNotExist, fetchCommand(s.name, dir), upstreamRaw, s.dir)
	case errors.Is(err, ErrChecksum):
		return fmt.Errorf("dataset %s: %w; run \"%s\" to replace it with upstream's file, or skip the check (--skip-checksum)",
			s.name, err, fetchCommand(s.name, dir))
	}
	return fmt.Errorf("dataset %s: %w", s.name, err)
}

// readFile reads the file f of s at p and, unless skip is set, checks its
// digest.
func (s drugSource) readFile(p string, f drugFile, skip bool) ([]byte, error) {
	data, err := os.ReadFile(p)
	if err != nil {
		return nil, err
	}
	if !skip {
		if err := checkDigest(p, data, f.sha256); err != nil {
			return nil, err
		}
	}
	return data, nil
}

// checkDigest checks that data, read from file, has the SHA-256 digest want.
func checkDigest(file string, data []byte, want string) error {
	sum := sha256.Sum256(data)
	if got := hex.EncodeToString(sum[:]); got != want {
		return fmt.Errorf("%s: %w: SHA-256 is %s, want %s", file, ErrChecksum, got, want)
	}
	return nil
}

// install downloads the files of s that are missing or fail their digest
// into dir/bmf-priors/<SET>/ and returns the matrix's path. opts.URL is not
// accepted (a dataset is several files); opts.BaseURL replaces upstreamRaw.
func (s drugSource) install(ctx context.Context, dir string, opts FetchOptions) (_ string, err error) {
	if opts.URL != "" {
		return "", fmt.Errorf("%s is %d files: give a mirror of the repository (BaseURL, $%s), not one URL", s.name, len(s.files()), drugMirrorEnv)
	}
	base := upstreamRaw
	if opts.BaseURL != "" {
		base = opts.BaseURL
		if base[len(base)-1] != '/' {
			base += "/"
		}
	}
	logf := func(format string, args ...any) {
		if opts.Progress != nil {
			fmt.Fprintf(opts.Progress, format+"\n", args...)
		}
	}
	targetDir := filepath.Join(dir, "bmf-priors", s.dir)
	if err := os.MkdirAll(targetDir, 0o755); err != nil {
		return "", err
	}
	defer func() {
		if err != nil {
			// Leave no empty directories behind; this fails harmlessly
			// when they hold files.
			os.Remove(targetDir)
			os.Remove(filepath.Dir(targetDir))
		}
	}()
	for _, f := range s.files() {
		target := s.filePath(dir, f)
		if !opts.Force {
			data, err := os.ReadFile(target)
			if err == nil && (opts.SkipChecksum || checkDigest(target, data, f.sha256) == nil) {
				logf("%s is already present and verified", target)
				continue
			}
			if err == nil {
				logf("%s: %v; downloading it again", target, checkDigest(target, data, f.sha256))
			}
		}
		url := base + f.upstream
		logf("downloading %s", url)
		if err := fetchFile(ctx, url, target, f.sha256, opts); err != nil {
			return "", fmt.Errorf("%w; to install it by hand, download %s%s to %s", err, upstreamRaw, f.upstream, target)
		}
		logf("installed and verified %s", target)
	}
	return s.path(dir), nil
}

// fetchFile downloads url and installs it at target when its digest is
// want (or opts.SkipChecksum is set); nothing is installed otherwise.
func fetchFile(ctx context.Context, url, target, want string, opts FetchOptions) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	client := opts.Client
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: %s", url, resp.Status)
	}
	// The largest file is 1.4 MB: read it whole, check it, then write it.
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxDrugFile+1))
	if err != nil {
		return fmt.Errorf("GET %s: download stopped after %d bytes: %w", url, len(data), err)
	}
	if len(data) > maxDrugFile {
		return fmt.Errorf("GET %s: larger than %d bytes", url, maxDrugFile)
	}
	if resp.ContentLength >= 0 && int64(len(data)) != resp.ContentLength {
		return fmt.Errorf("GET %s: got %d bytes, want %d", url, len(data), resp.ContentLength)
	}
	if !opts.SkipChecksum {
		if err := checkDigest(url, data, want); err != nil {
			return fmt.Errorf("%w; to install it anyway, skip the check (--skip-checksum)", err)
		}
	}
	return atomicfile.WriteFile(target, data)
}

// maxDrugFile bounds a downloaded drug-sensitivity file, 10 MB, well above
// the largest (GDSC's ic50.txt, 1.4 MB).
const maxDrugFile = 10 << 20
