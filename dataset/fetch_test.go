package dataset

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
)

const fetchFixture = "1\t10\t5\t881250949\n2\t10\t3\t891717742\n10\t2\t4\t878887116\n"

// zipOf returns a zip archive holding files (name, content pairs), stored
// without compression when store is set so that tests can corrupt them.
func zipOf(t *testing.T, store bool, files ...string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for i := 0; i < len(files); i += 2 {
		method := zip.Deflate
		if store {
			method = zip.Store
		}
		w, err := zw.CreateHeader(&zip.FileHeader{Name: files[i], Method: method})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(files[i+1])); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// serve starts a test server whose handler h answers every request and
// counts them.
func serve(t *testing.T, h http.HandlerFunc) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		h(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

// serveBytes answers with body, announcing length bytes (len(body) if
// negative).
func serveBytes(body []byte, length int) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		if length < 0 {
			length = len(body)
		}
		w.Header().Set("Content-Length", strconv.Itoa(length))
		if _, err := w.Write(body); err != nil {
			// The client hung up, as a cancelled fetch does; the test
			// checks what the client saw.
			return
		}
	}
}

func sha(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

// listDir returns the names of the files under dir, relative to it.
func listDir(t *testing.T, dir string) []string {
	t.Helper()
	var names []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			rel, err := filepath.Rel(dir, p)
			if err != nil {
				return err
			}
			names = append(names, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return names
}

func TestFetch(t *testing.T) {
	good := zipOf(t, false, "ml-100k/u.data", fetchFixture, "ml-100k/README", "licence", "ml-100k/u.item", "titles", "ml-100k/sub/u.data", "nested")
	stored := zipOf(t, true, "ml-100k/u.data", fetchFixture)
	corrupt := bytes.Replace(bytes.Clone(stored), []byte("881250949"), []byte("881250948"), 1)
	installed := []string{"movielens/ml-100k/README", "movielens/ml-100k/u.data"}
	tests := []struct {
		name    string
		handler http.HandlerFunc
		digest  string
		skip    bool
		files   []string // what the data directory must hold afterwards
		wantErr string
		errIs   error
	}{
		{name: "checksum pass", handler: serveBytes(good, -1), digest: sha(fetchFixture), files: installed},
		{name: "checksum fail", handler: serveBytes(good, -1), digest: sha("other"), wantErr: "SHA-256", errIs: ErrChecksum},
		{name: "checksum skipped", handler: serveBytes(good, -1), digest: sha("other"), skip: true, files: installed},
		{name: "truncated download", handler: serveBytes(good[:len(good)/2], len(good)), digest: sha(fetchFixture), wantErr: "download stopped"},
		{name: "truncated archive", handler: serveBytes(good[:len(good)-30], -1), digest: sha(fetchFixture), wantErr: "not a valid zip"},
		{name: "corrupt entry", handler: serveBytes(corrupt, -1), digest: sha(fetchFixture), wantErr: "checksum", errIs: zip.ErrChecksum},
		{name: "server error", handler: func(w http.ResponseWriter, _ *http.Request) { http.Error(w, "down", http.StatusInternalServerError) },
			wantErr: "500 Internal Server Error"},
		{name: "no ratings in archive", handler: serveBytes(zipOf(t, false, "ml-100k/u.item", "titles"), -1), wantErr: "holds no u.data"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, _ := serve(t, tt.handler)
			s := source{name: "movielens-100k", url: srv.URL + "/ml-100k.zip", dir: "ml-100k", file: "u.data", layout: layoutUData, sha256: tt.digest}
			dir := t.TempDir()
			var progress bytes.Buffer
			got, err := s.fetch(context.Background(), dir, FetchOptions{Progress: &progress, SkipChecksum: tt.skip})
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("got %v, want an error containing %q", err, tt.wantErr)
				}
				if tt.errIs != nil && !errors.Is(err, tt.errIs) {
					t.Errorf("error %q does not wrap %v", err, tt.errIs)
				}
				if left, err := os.ReadDir(dir); err != nil || len(left) != 0 {
					t.Errorf("a failed fetch left %v (%v)", left, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if want := filepath.Join(dir, "movielens", "ml-100k", "u.data"); got != want {
				t.Errorf("installed at %s, want %s", got, want)
			}
			if files := listDir(t, dir); strings.Join(files, " ") != strings.Join(tt.files, " ") {
				t.Errorf("data directory holds %q, want %q", files, tt.files)
			}
			data, err := os.ReadFile(got)
			if err != nil {
				t.Fatal(err)
			}
			if string(data) != fetchFixture {
				t.Errorf("installed %q, want %q", data, fetchFixture)
			}
			if !strings.Contains(progress.String(), "(100%)") {
				t.Errorf("progress %q does not reach 100%%", progress.String())
			}
		})
	}
}

func TestFetchKeepsVerifiedFile(t *testing.T) {
	srv, requests := serve(t, serveBytes(zipOf(t, false, "ml-100k/u.data", fetchFixture), -1))
	s := source{name: "movielens-100k", url: srv.URL, dir: "ml-100k", file: "u.data", layout: layoutUData, sha256: sha(fetchFixture)}
	dir := t.TempDir()
	for i, force := range []bool{false, false, true} {
		if _, err := s.fetch(context.Background(), dir, FetchOptions{Force: force}); err != nil {
			t.Fatal(err)
		}
		if want := []int32{1, 1, 2}[i]; requests.Load() != want {
			t.Errorf("after fetch %d (force %v): %d requests, want %d", i+1, force, requests.Load(), want)
		}
	}
}

func TestFetchCancelled(t *testing.T) {
	srv, _ := serve(t, serveBytes(zipOf(t, false, "ml-100k/u.data", fetchFixture), -1))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Fetch(ctx, "movielens-100k", t.TempDir(), FetchOptions{URL: srv.URL})
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "u.data at ") {
		t.Errorf("got %v, want a cancelled fetch saying where to put u.data by hand", err)
	}
}

func TestFetchNames(t *testing.T) {
	for _, name := range []string{"synthetic", "movielens-7m"} {
		if _, err := Fetch(context.Background(), name, t.TempDir(), FetchOptions{}); err == nil {
			t.Errorf("Fetch(%q) gave no error", name)
		}
	}
}

// TestFetchMirror fetches through the public API from a mirror serving the
// layout of ml-latest-small, then opens the result.
func TestFetchMirror(t *testing.T) {
	csv := "userId,movieId,rating,timestamp\n1,1,4.0,964982703\n1,3,4.5,964981247\n2,1,2.5,1445714835\n"
	srv, _ := serve(t, serveBytes(zipOf(t, false, "ml-latest-small/ratings.csv", csv, "ml-latest-small/README.txt", "licence"), -1))
	dir := t.TempDir()
	if _, err := Fetch(context.Background(), "movielens-latest-small", dir, FetchOptions{URL: srv.URL}); err != nil {
		t.Fatal(err)
	}
	r, err := Open("movielens-latest-small", dir, Options{MinRatings: 1})
	if err != nil {
		t.Fatal(err)
	}
	if r.Rows != 2 || r.Cols != 2 || len(r.Entries) != 3 {
		t.Errorf("got %d x %d with %d entries, want 2 x 2 with 3", r.Rows, r.Cols, len(r.Entries))
	}
}

// TestFetchPinnedMovieLens100K serves the real u.data in a zip and checks
// that it passes the pinned digest and counts.
func TestFetchPinnedMovieLens100K(t *testing.T) {
	src, err := Path("movielens-100k", testDataDir(t, "movielens-100k"))
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	srv, _ := serve(t, serveBytes(zipOf(t, true, "ml-100k/u.data", string(data)), -1))
	dir := t.TempDir()
	if _, err := Fetch(context.Background(), "movielens-100k", dir, FetchOptions{URL: srv.URL}); err != nil {
		t.Fatal(err)
	}
	// One changed rating breaks the digest.
	bad := strings.Replace(string(data), "\t3\t", "\t4\t", 1)
	srv2, _ := serve(t, serveBytes(zipOf(t, true, "ml-100k/u.data", bad), -1))
	_, err = Fetch(context.Background(), "movielens-100k", t.TempDir(), FetchOptions{URL: srv2.URL})
	if !errors.Is(err, ErrChecksum) {
		t.Errorf("a modified u.data gave %v, want a checksum error", err)
	}
}

// TestFetchBaseURL checks that a mirror of the archives' directory is
// asked for the archive under its official name.
func TestFetchBaseURL(t *testing.T) {
	csv := "userId,movieId,rating,timestamp\n1,1,4.0,964982703\n"
	var asked atomic.Value
	srv, _ := serve(t, func(w http.ResponseWriter, r *http.Request) {
		asked.Store(r.URL.Path)
		serveBytes(zipOf(t, false, "ml-latest-small/ratings.csv", csv), -1)(w, r)
	})
	if _, err := Fetch(context.Background(), "movielens-latest-small", t.TempDir(), FetchOptions{BaseURL: srv.URL + "/mirror/movielens/"}); err != nil {
		t.Fatal(err)
	}
	if got := asked.Load(); got != "/mirror/movielens/ml-latest-small.zip" {
		t.Errorf("the mirror was asked for %v, want /mirror/movielens/ml-latest-small.zip", got)
	}
}
