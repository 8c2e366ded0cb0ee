package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/bnmf-lab/bnmf/bnmf"
	"github.com/bnmf-lab/bnmf/posterior"
)

// TestFitAutoSweeps runs fit with its default, --sweeps auto, and checks
// that it prints the sweeps taken and the diagnostics reached, that
// summary.json and manifest.json say them, and that its outputs are
// those of a fit of that many sweeps with a burn-in of half.
func TestFitAutoSweeps(t *testing.T) {
	dir := t.TempDir()
	p := newPlanted(t, dir, 30, 25, 2, 0.5, 0.2, 1, 7)
	out := filepath.Join(dir, "auto")
	stdout, stderr := fitCLI(t, "--rank", "2", "--chains", "2", "--max-sweeps", "400", "--samples", "20", "--seed", "3", "--workers", "1", "--out", out, p.path)

	t.Logf("stdout:\n%s", stdout)
	var sum fitSummary
	readJSON(t, filepath.Join(out, "summary.json"), &sum)
	a := sum.AutoSweeps
	if a == nil {
		t.Fatal("summary.json has no auto_sweeps")
	}
	if !slices.Contains(bnmf.AutoCheckpoints(400), a.Sweeps) || a.MaxSweeps != 400 || (a.Verdict == bnmf.NotConverged) != (a.Sweeps == 400) {
		t.Errorf("auto_sweeps: %s after %d of at most %d sweeps", a.Verdict, a.Sweeps, a.MaxSweeps)
	}
	want := "sweeps: auto: " + a.Verdict + " after " + strconv.Itoa(a.Sweeps) + " sweeps per chain (at most 400; burn-in the first half)"
	for _, line := range []string{want, "sigma^2", "training MSE", "worst training prediction"} {
		if !strings.Contains(stdout, line) {
			t.Errorf("stdout does not say %q:\n%s", line, stdout)
		}
	}
	if a.Verdict == bnmf.NotConverged && !strings.Contains(stdout, "warning: convergence: not converged") {
		t.Errorf("not converged without a warning:\n%s", stdout)
	}
	if !strings.Contains(stderr, "will hold up to 20 samples") || !strings.Contains(stderr, "fit: 2 chains of "+strconv.Itoa(a.Sweeps)+" sweeps") {
		t.Errorf("stderr:\n%s", stderr)
	}
	var man fitManifest
	readJSON(t, filepath.Join(out, "manifest.json"), &man)
	if st := man.Settings; st.Sweeps != a.Sweeps || st.BurnIn != a.Sweeps/2 || st.MaxSweeps != 400 || st.Kept != a.Sweeps-a.Sweeps/2 || st.Samples != 20 {
		t.Errorf("manifest settings: %+v", st)
	}

	// The same fit, of that many sweeps straight.
	fixed := filepath.Join(dir, "fixed")
	fitCLI(t, "--rank", "2", "--chains", "2", "--sweeps", strconv.Itoa(a.Sweeps), "--burn-in", strconv.Itoa(a.Sweeps/2), "--samples", "20", "--seed", "3", "--workers", "2", "--out", fixed, p.path)
	for _, name := range []string{"W_mean.csv", "Z_sd.csv", posterior.FileName} {
		if !bytes.Equal(mustRead(t, filepath.Join(out, name)), mustRead(t, filepath.Join(fixed, name))) {
			t.Errorf("%s differs from that of a fit of %d sweeps", name, a.Sweeps)
		}
	}
}

func TestFitAutoSweepsFlags(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.csv")
	if err := os.WriteFile(good, []byte("a,x,1\na,y,2\nb,x,3\nb,y,4\nc,z,5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--sweeps", "many"}, `"many" is neither auto nor a whole number of sweeps`},
		{[]string{"--max-sweeps", "3"}, "--max-sweeps 3 must be between 4 and 10000000 (every sweep's statistics are kept in memory)"},
		{[]string{"--max-sweeps", "10000001"}, "--max-sweeps 10000001 must be between 4 and 10000000 (every sweep's statistics are kept in memory)"},
		{[]string{"--burn-in", "100"}, "--burn-in does not go with --sweeps auto"},
		{[]string{"--sweeps", "auto", "--max-sweeps", "400", "--thin", "51"}, "--thin 51 keeps none of the 50 sweeps of the first block"},
		{[]string{"--sweeps", "0"}, "--sweeps 0 must be between 1 and 10000000 (every sweep's statistics are kept in memory)"},
	}
	for _, tt := range tests {
		var stdout, stderr bytes.Buffer
		args := append(append([]string{"fit", "--out", filepath.Join(dir, "out")}, tt.args...), good)
		err := run(context.Background(), args, &stdout, &stderr)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v: error %v, want one containing %q", tt.args, err, tt.want)
		}
	}
}
