package main

import (
	"archive/zip"
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bnmf-lab/bnmf/dataset"
)

// movieLensConfig writes a tiny convergence study on MovieLens 100K.
func movieLensConfig(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "ml.yaml")
	src := "kind: convergence\ndataset: {name: movielens-100k}\nmodels: [{name: NMF}]\nranks: [1]\nrepeats: 1\nsweeps: 2\nburn_in: 1\n"
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// mirror serves a zip holding ml-100k/u.data with the given content at
// /ml-100k.zip, as a mirror of the GroupLens directory, and returns its
// address.
func mirror(t *testing.T, udata []byte) string {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, err := zw.Create("ml-100k/u.data")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(udata); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/ml-100k.zip" {
			http.NotFound(w, r)
			return
		}
		_, _ = w.Write(buf.Bytes()) // a client that hangs up sees a short archive
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestRunFetchesMissingData checks that run --fetch downloads a missing
// MovieLens dataset, checks it, says so and runs the study; without
// --fetch, or offline, the missing data is reported with how to get it.
func TestRunFetchesMissingData(t *testing.T) {
	t.Setenv("JOB_COMPLETION_INDEX", "")
	t.Setenv("SLURM_ARRAY_TASK_ID", "")
	cfg := movieLensConfig(t)
	missing := "expected its ratings at"

	t.Run("without --fetch", func(t *testing.T) {
		var stderr bytes.Buffer
		err := runRun(context.Background(), []string{"--data-dir", t.TempDir(), "--out", filepath.Join(t.TempDir(), "o"), cfg}, &bytes.Buffer{}, &stderr)
		if err == nil || !strings.Contains(err.Error(), missing) {
			t.Errorf("got %v, want the missing-data message", err)
		}
		if strings.Contains(stderr.String(), "downloading") {
			t.Errorf("downloaded without --fetch: %q", stderr.String())
		}
	})

	t.Run("offline", func(t *testing.T) {
		srv := httptest.NewServer(http.NotFoundHandler())
		srv.Close() // nothing listens there now
		t.Setenv(mirrorEnv, srv.URL)
		var stderr bytes.Buffer
		err := runRun(context.Background(), []string{"--fetch", "--data-dir", t.TempDir(), "--out", filepath.Join(t.TempDir(), "o"), cfg}, &bytes.Buffer{}, &stderr)
		if err == nil || !strings.Contains(err.Error(), missing) || !strings.Contains(err.Error(), "bnmf data fetch") {
			t.Errorf("got %v, want the missing-data message that says how to get it", err)
		}
		if !strings.Contains(stderr.String(), "could not download movielens-100k") {
			t.Errorf("standard error %q does not say the download failed", stderr.String())
		}
	})

	t.Run("a file that fails the checksum", func(t *testing.T) {
		t.Setenv(mirrorEnv, mirror(t, []byte("1\t10\t5\t881250949\n2\t10\t3\t891717742\n")))
		dir := t.TempDir()
		var stderr bytes.Buffer
		err := runRun(context.Background(), []string{"--fetch", "--data-dir", dir, "--out", filepath.Join(t.TempDir(), "o"), cfg}, &bytes.Buffer{}, &stderr)
		if err == nil || !strings.Contains(stderr.String(), "checksum mismatch") {
			t.Errorf("got %v and %q, want a refused download", err, stderr.String())
		}
		if p, _ := dataset.Path("movielens-100k", dir); fileExists(p) {
			t.Errorf("a file that fails the checksum was installed at %s", p)
		}
	})

	t.Run("downloaded and run", func(t *testing.T) {
		real := os.Getenv("BNMF_DATA_DIR")
		src, err := dataset.Path("movielens-100k", real)
		if real == "" || err != nil || !fileExists(src) {
			t.Skip("MovieLens 100K not found under $BNMF_DATA_DIR")
		}
		udata, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		t.Setenv(mirrorEnv, mirror(t, udata))
		dir := t.TempDir()
		out := filepath.Join(t.TempDir(), "o")
		var stdout, stderr bytes.Buffer
		if err := runRun(context.Background(), []string{"--fetch", "--data-dir", dir, "--out", out, cfg}, &stdout, &stderr); err != nil {
			t.Fatalf("%v\n%s", err, stderr.String())
		}
		for _, want := range []string{"needs movielens-100k, which is not at", "downloading it", "unpacked and verified"} {
			if !strings.Contains(stderr.String(), want) {
				t.Errorf("standard error lacks %q:\n%s", want, stderr.String())
			}
		}
		if stdout.String() != out+"\n" {
			t.Errorf("printed %q, want the output directory", stdout.String())
		}
	})
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// TestDataFetchDrugSensitivity fetches gdsc-ic50 through
// $BNMF_BMF_PRIORS_MIRROR from a local server holding the real files under
// their upstream paths, and checks that a changed file is refused.
func TestDataFetchDrugSensitivity(t *testing.T) {
	real := os.Getenv("BNMF_DATA_DIR")
	if real == "" || !fileExists(filepath.Join(real, "bmf-priors", "GDSC", "ic50.txt")) {
		t.Skip("bmf-priors/GDSC not found under $BNMF_DATA_DIR (set it to ../shared/data)")
	}
	files := map[string][]byte{}
	for _, name := range []string{"ic50.txt", "cell_lines.txt", "drugs.txt"} {
		data, err := os.ReadFile(filepath.Join(real, "bmf-priors", "GDSC", name))
		if err != nil {
			t.Fatal(err)
		}
		files["/data/drug_sensitivity/GDSC/processed_all/"+name] = data
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		data, ok := files[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		_, _ = w.Write(data) // a client that hangs up sees a short file
	}))
	t.Cleanup(srv.Close)
	t.Setenv("BNMF_BMF_PRIORS_MIRROR", srv.URL)

	dir := t.TempDir()
	var stdout, stderr bytes.Buffer
	if err := runData(context.Background(), []string{"fetch", "--data-dir", dir, "gdsc-ic50"}, &stdout, &stderr); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	want := filepath.Join(dir, "bmf-priors", "GDSC", "ic50.txt")
	if stdout.String() != want+"\n" {
		t.Errorf("printed %q, want %s", stdout.String(), want)
	}
	r, err := dataset.Open("gdsc-ic50", dir, dataset.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Rows != 705 || r.Cols != 139 {
		t.Errorf("opened %d x %d, want 705 x 139", r.Rows, r.Cols)
	}

	files["/data/drug_sensitivity/GDSC/processed_all/drugs.txt"] = append([]byte("x\tX\n"), files["/data/drug_sensitivity/GDSC/processed_all/drugs.txt"]...)
	dir2 := t.TempDir()
	err = runData(context.Background(), []string{"fetch", "--data-dir", dir2, "gdsc-ic50"}, &bytes.Buffer{}, &bytes.Buffer{})
	if err == nil || !strings.Contains(err.Error(), "checksum mismatch") || fileExists(filepath.Join(dir2, "bmf-priors", "GDSC", "drugs.txt")) {
		t.Errorf("a changed drugs.txt gave %v, want it refused and not installed", err)
	}
}
