package dataset

import (
	"archive/zip"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/bnmf-lab/bnmf/internal/atomicfile"
)

// FetchOptions controls Fetch.
type FetchOptions struct {
	// Client makes the request; nil means http.DefaultClient.
	Client *http.Client
	// URL replaces the official archive address of a MovieLens dataset,
	// for a mirror. The drug-sensitivity datasets, several files each,
	// do not accept it.
	URL string
	// BaseURL, when URL is empty, replaces the official directory of the
	// archives, https://files.grouplens.org/datasets/movielens/, for a
	// mirror that holds them under their official names (ml-100k.zip,
	// ...). For a drug-sensitivity dataset it replaces the address of
	// upstream's pinned commit, https://raw.githubusercontent.com/
	// ThomasBrouwer/BMF_Priors/<commit>/, for a mirror that holds the files
	// under their upstream paths (data/drug_sensitivity/GDSC/processed_all/
	// ic50.txt, ...).
	BaseURL string
	// Progress, if not nil, receives one line per tenth of the download and
	// a line for each step after it.
	Progress io.Writer
	// SkipChecksum installs a ratings file even if it differs from the
	// pinned digest or the official counts.
	SkipChecksum bool
	// Force downloads again even if a verified file is present.
	Force bool
}

// Fetch downloads the official zip archive of the MovieLens dataset name
// (see Names) and unpacks its ratings file, and any README beside it, to
// dir/movielens/<ml-name>/, where Open looks for it; an empty dir means
// DataDir(). It returns the ratings file's path.
//
// For a drug-sensitivity dataset (gdsc-ic50, ccle-ic50, ccle-ec50) it
// downloads the matrix, cell_lines.txt and drugs.txt from upstream's
// pinned commit to dir/bmf-priors/<SET>/, each checked against its
// SHA-256 digest before it is installed, and returns the matrix's path.
//
// The archive is checked as it is unpacked: the CRC-32 of every unpacked
// file must match the archive's, a download shorter than announced is an
// error, and the ratings file must match the pinned SHA-256 digest and
// official counts where these are known (see Open) unless
// opts.SkipChecksum is set. Nothing is installed when a check fails. A
// file already present that passes the checks is kept unless opts.Force
// is set. ctx cancels the download.
func Fetch(ctx context.Context, name, dir string, opts FetchOptions) (string, error) {
	if name == SyntheticName {
		return "", fmt.Errorf("fetch %s: the dataset is generated and needs no download", name)
	}
	d, err := find(name)
	if err != nil {
		return "", fmt.Errorf("fetch: %w", err)
	}
	if dir == "" {
		dir = DataDir()
	}
	p, err := d.install(ctx, dir, opts)
	if err != nil {
		return "", fmt.Errorf("fetch %s: %w", name, err)
	}
	return p, nil
}

// install fetches the archive of s, from opts.URL or opts.BaseURL when
// set.
func (s source) install(ctx context.Context, dir string, opts FetchOptions) (string, error) {
	switch {
	case opts.URL != "":
		s.url = opts.URL
	case opts.BaseURL != "":
		s.url = strings.TrimSuffix(opts.BaseURL, "/") + "/" + path.Base(s.url)
	}
	return s.fetch(ctx, dir, opts)
}

func (s source) fetch(ctx context.Context, dir string, opts FetchOptions) (_ string, err error) {
	logf := func(format string, args ...any) {
		if opts.Progress != nil {
			fmt.Fprintf(opts.Progress, format+"\n", args...)
		}
	}
	target := s.path(dir)
	if !opts.Force {
		if err := s.check(target, target, opts.SkipChecksum); err == nil {
			logf("%s is already present and verified", target)
			return target, nil
		} else if !errors.Is(err, os.ErrNotExist) {
			logf("%s: %v; downloading it again", target, err)
		}
	}
	targetDir := filepath.Dir(target)
	if err := os.MkdirAll(targetDir, 0o755); err != nil {
		return "", err
	}
	defer func() {
		if err != nil {
			// Leave no empty directories behind; this fails harmlessly
			// when they hold other files.
			os.Remove(targetDir)
			os.Remove(filepath.Dir(targetDir))
		}
	}()
	archive, err := os.CreateTemp(targetDir, ".download-*.zip")
	if err != nil {
		return "", err
	}
	defer os.Remove(archive.Name())
	defer archive.Close()

	logf("downloading %s", s.url)
	if err := s.download(ctx, archive, opts, logf); err != nil {
		return "", fmt.Errorf("%w; to install it by hand, download %s and put its %s at %s", err, s.url, s.file, target)
	}
	info, err := archive.Stat()
	if err != nil {
		return "", err
	}
	zr, err := zip.NewReader(archive, info.Size())
	if err != nil {
		return "", fmt.Errorf("%s is not a valid zip archive (an incomplete download?): %w", s.url, err)
	}
	var ratings *zip.File
	var readmes []*zip.File
	for _, f := range zr.File {
		if strings.Count(f.Name, "/") > 1 || strings.HasSuffix(f.Name, "/") {
			continue
		}
		switch base := path.Base(f.Name); {
		case base == s.file && ratings == nil:
			ratings = f
		case strings.HasPrefix(base, "README"):
			readmes = append(readmes, f)
		}
	}
	if ratings == nil {
		return "", fmt.Errorf("the archive %s holds no %s", s.url, s.file)
	}

	tmp, err := unpack(ratings, targetDir)
	if err != nil {
		return "", err
	}
	defer os.Remove(tmp)
	if err := s.check(tmp, ratings.Name+" in "+s.url, opts.SkipChecksum); err != nil {
		if errors.Is(err, ErrChecksum) {
			return "", fmt.Errorf("%w; to install it anyway, skip the check (--skip-checksum)", err)
		}
		return "", err
	}
	for _, f := range readmes {
		t, err := unpack(f, targetDir)
		if err != nil {
			return "", err
		}
		if err := os.Rename(t, filepath.Join(targetDir, path.Base(f.Name))); err != nil {
			os.Remove(t)
			return "", err
		}
	}
	if err := os.Rename(tmp, target); err != nil {
		return "", err
	}
	// The unpacked files were synced before their renames; this makes the
	// renames durable, so a crash cannot leave a ratings file cut short.
	if err := atomicfile.SyncDir(targetDir); err != nil {
		return "", err
	}
	logf("unpacked and verified %s", target)
	return target, nil
}

// check parses the ratings file at p and verifies it unless skip is set;
// file names it in errors.
func (s source) check(p, file string, skip bool) error {
	f, err := os.Open(p)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = s.load(file, f, skip)
	return err
}

// download copies the archive at s.url into w.
func (s source) download(ctx context.Context, w io.Writer, opts FetchOptions, logf func(string, ...any)) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.url, nil)
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
		return fmt.Errorf("GET %s: %s", s.url, resp.Status)
	}
	pw := &progress{logf: logf, total: resp.ContentLength}
	n, err := io.Copy(w, io.TeeReader(resp.Body, pw))
	if err != nil {
		return fmt.Errorf("GET %s: download stopped after %d bytes: %w", s.url, n, err)
	}
	if resp.ContentLength >= 0 && n != resp.ContentLength {
		return fmt.Errorf("GET %s: got %d bytes, want %d", s.url, n, resp.ContentLength)
	}
	return nil
}

// unpack writes the zip entry f to a new temporary file in dir and
// returns its name. archive/zip checks the entry's CRC-32 as it is read.
func unpack(f *zip.File, dir string) (string, error) {
	rc, err := f.Open()
	if err != nil {
		return "", fmt.Errorf("%s in the archive: %w", f.Name, err)
	}
	defer rc.Close()
	out, err := os.CreateTemp(dir, ".unpack-*")
	if err != nil {
		return "", err
	}
	fail := func(err error) (string, error) {
		_ = out.Close()           // the write already failed; report that
		_ = os.Remove(out.Name()) // best effort: a hidden leftover is harmless
		return "", err
	}
	if _, err := io.Copy(out, rc); err != nil {
		return fail(fmt.Errorf("%s in the archive: %w", f.Name, err))
	}
	// Synced before the caller renames it into place, so that a crash
	// cannot leave a ratings file cut short under its final name.
	if err := out.Sync(); err != nil {
		return fail(err)
	}
	if err := out.Close(); err != nil {
		_ = os.Remove(out.Name()) // best effort, as above
		return "", err
	}
	return out.Name(), nil
}

// progress reports the bytes written through it at every tenth of total
// (or every 10 MB when the total is unknown).
type progress struct {
	logf        func(string, ...any)
	total, done int64
	next        int64
}

// Write counts b and reports when another step is done.
func (p *progress) Write(b []byte) (int, error) {
	p.done += int64(len(b))
	step := p.total / 10
	if p.total <= 0 {
		step = 10 << 20
	}
	if step <= 0 {
		step = 1
	}
	if p.done >= p.next+step || (p.total > 0 && p.done == p.total) {
		for p.next+step <= p.done {
			p.next += step
		}
		if p.total > 0 {
			p.logf("  %s of %s (%d%%)", megabytes(p.done), megabytes(p.total), 100*p.done/p.total)
		} else {
			p.logf("  %s", megabytes(p.done))
		}
	}
	return len(b), nil
}

func megabytes(n int64) string {
	return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
}
