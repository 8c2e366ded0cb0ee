package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bnmf-lab/bnmf/bnmf"
)

// TestFitBadInputs checks that bad data and flags give one-line errors
// that say what is wrong, before any sampling.
func TestFitBadInputs(t *testing.T) {
	dir := t.TempDir()
	file := func(name, content string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	good := file("good.csv", "a,x,1\na,y,2\nb,x,3\nb,y,4\nc,z,5\n")
	full := filepath.Join(dir, "full")
	if err := os.MkdirAll(full, 0o755); err != nil {
		t.Fatal(err)
	}
	file("full/keep.txt", "a previous fit")
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"empty file", []string{file("empty.csv", "")}, "empty.csv: no ratings"},
		{"repeated ids", []string{file("dup.csv", "a,x,1\nb,y,2\na,x,3\n")}, `dup.csv:3: duplicate entry: row "a", column "x" already given on line 1`},
		{"NaN", []string{file("nan.csv", "a,x,1\nb,y,NaN\n")}, `nan.csv:2: value: non-finite value "NaN"`},
		{"rank", []string{"--rank", "4", good}, "--rank 4 exceeds min(rows, columns) = 3 of good.csv, a 3 x 3 matrix"},
		{"unknown set key", []string{"--set", "lambda=2", good}, `--set lambda=2: GRRN has no hyperparameter "lambda"; its hyperparameters are mu_mu, tau_mu, a, b, alpha_lambda, beta_lambda, alpha_sigma, beta_sigma`},
		{"bad set value", []string{"--set", "alpha_sigma=-1", good}, "--set alpha_sigma: -1 must be positive"},
		{"set not a number", []string{"--set", "tau_mu=x", good}, `--set tau_mu=x: "x" is not a number`},
		{"set twice", []string{"--set", "a=1", "--set", "a=2", good}, "a is set twice"},
		{"point estimate", []string{"--model", "NMF", good}, "--model NMF is a point estimate with no posterior to sample; use one of GEE, GTT, GTTN, GRRN"},
		{"unknown model", []string{"--model", "PCA", good}, "--model PCA: unknown model"},
		{"no such file", []string{filepath.Join(dir, "nope.csv")}, "nope.csv: no such file, nor a dataset name"},
		{"holdout", []string{"--holdout", "1", good}, "--holdout 1 must be in [0, 1)"},
		{"holdout too large", []string{"--holdout", "0.9", "--rank", "1", good}, `leaves 0 for training`},
		{"burn-in", []string{"--sweeps", "10", "--burn-in", "10", good}, "--burn-in 10 must be less than --sweeps 10"},
		{"chains", []string{"--chains", "100000000", "--samples", "100000000", good}, "--chains 100000000 must be between 1 and 64"},
		{"sweeps", []string{"--sweeps", "2000000000", good}, "--sweeps 2000000000 must be between 1 and 10000000 (every sweep's statistics are kept in memory)"},
		{"samples", []string{"--samples", "2", good}, "--samples 2 must be at least --chains 4"},
		{"output exists", []string{"--rank", "1", good}, "--out " + full + " exists and is not empty; choose another directory or replace it with --force"},
		{"format", []string{"--format", "excel", good}, `unknown format "excel"`},
		// Values of about 1e-300 differ, but their variance underflows
		// to 0; values of 1e308 are finite, but their mean and variance
		// overflow (the sampler then blamed GRRN's beta_lambda default).
		{"variance underflows", []string{"--standardize", "--rank", "1", file("tiny.csv", "a,x,1e-300\na,y,2e-300\nb,x,3e-300\nb,y,1.5e-300\n")},
			"--standardize: the variance of the training values underflows to 0 in float64 (they range from 1e-300 to 3e-300, not all equal); multiply them by a power of ten first"},
		{"variance overflows", []string{"--standardize", "--rank", "1", file("huge.csv", "a,x,1e308\na,y,2\nb,x,3\nb,y,1.5e308\n")},
			"the mean and variance of the training values overflow float64 (mean +Inf, variance +Inf; the values range from 2 to 1.5e+308); divide them by a power of ten first"},
		{"variance overflows unstandardized", []string{"--rank", "1", file("huge2.csv", "a,x,1e200\na,y,2\nb,x,3\nb,y,1.5e200\n")},
			"the variance of the training values overflows float64 (mean 6.25e+199, variance +Inf; the values range from 2 to 1.5e+200); divide them by a power of ten first"},
		{"all equal", []string{"--standardize", "--rank", "1", file("equal.csv", "a,x,2\na,y,2\nb,x,2\n")},
			"--standardize: the training values are all equal (2); there is no spread to divide by"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			args := append([]string{"fit", "--out", full}, tt.args...)
			if tt.name != "output exists" {
				args = append([]string{"fit", "--out", filepath.Join(dir, "out-"+strings.ReplaceAll(tt.name, " ", "-"))}, tt.args...)
			}
			err := run(context.Background(), args, &stdout, &stderr)
			if err == nil {
				t.Fatal("no error")
			}
			msg := err.Error()
			if !strings.Contains(msg, tt.want) || strings.Contains(msg, "\n") {
				t.Errorf("error %q, want one line containing %q", msg, tt.want)
			}
			if strings.Contains(stderr.String(), "sweeps") {
				t.Errorf("sampling started: %q", stderr.String())
			}
		})
	}
	if b, err := os.ReadFile(filepath.Join(full, "keep.txt")); err != nil || string(b) != "a previous fit" {
		t.Errorf("the existing output directory was changed: %q, %v", b, err)
	}
}

// TestFitInterrupted checks that an interrupted fit writes nothing: not
// the output directory, nor a temporary one beside it, whether it is
// interrupted while sampling or while writing.
func TestFitInterrupted(t *testing.T) {
	dir := t.TempDir()
	p := newPlanted(t, dir, 10, 8, 1, 0.6, 0.2, 1, 8)
	out := filepath.Join(dir, "fit")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var stdout, stderr bytes.Buffer
	err := run(ctx, []string{"fit", "--rank", "1", "--sweeps", "10", "--out", out, p.path}, &stdout, &stderr)
	if err == nil || !strings.Contains(err.Error(), "interrupted; nothing was written to "+out) {
		t.Errorf("error %v, want an interruption that wrote nothing", err)
	}

	o := fitOptions{model: "GRRN", rank: 1, sweeps: 10, burnIn: -1, thin: 1, chains: 1, seed: 1, samples: 100, progress: time.Hour}
	src, err := loadFitData(p.path, o)
	if err != nil {
		t.Fatal(err)
	}
	res, err := fitData(context.Background(), o, src, bnmf.GRRN{}, nil, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if err := writeFitDir(ctx, out, false, res); err == nil || !strings.Contains(err.Error(), "interrupted") {
		t.Errorf("writing with a cancelled context: %v, want an interruption", err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 {
		t.Errorf("the directory holds %v, want only the data file", entries)
	}
}
