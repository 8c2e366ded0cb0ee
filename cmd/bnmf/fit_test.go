package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/bnmf-lab/bnmf/posterior"
)

// TestFitRecoversPlantedFactors fits a planted rank-3 matrix and checks
// that the outputs recover it up to the permutation and scale of the
// factors: the posterior predictive means match the noise-free matrix,
// and the column spaces of W and of Z^T match the truth's. It also reads
// every output back in its format's own terms.
func TestFitRecoversPlantedFactors(t *testing.T) {
	dir := t.TempDir()
	const m, n, k, noise = 60, 50, 3, 0.1
	p := newPlanted(t, dir, m, n, k, 0.5, noise, 1, 1)
	out := filepath.Join(dir, "fit")
	stdout, stderr := fitCLI(t, "--rank", "3", "--chains", "2", "--sweeps", "300", "--seed", "5", "--workers", "1", "--out", out, p.path)
	if !strings.Contains(stdout, "wrote "+out) || !strings.Contains(stderr, "data: planted-1-x1.csv, 60 rows x 50 columns") {
		t.Errorf("stdout %q\nstderr %q", stdout, stderr)
	}

	// The ids: every output names the file's own ids, in the order of the
	// arrays.
	rowIDs, wMean := readFactorCSV(t, filepath.Join(out, "W_mean.csv"), "row_id", k)
	colIDs, zMean := readFactorCSV(t, filepath.Join(out, "Z_mean.csv"), "col_id", k)
	if got, want := slices.Sorted(slices.Values(rowIDs)), slices.Sorted(slices.Values(p.rowIDs)); !slices.Equal(got, want) {
		t.Fatalf("W_mean.csv ids %v, want the file's %v", got, want)
	}
	if got, want := slices.Sorted(slices.Values(colIDs)), slices.Sorted(slices.Values(p.colIDs)); !slices.Equal(got, want) {
		t.Fatalf("Z_mean.csv ids %v, want the file's %v", got, want)
	}
	for name, ids := range map[string][]string{"row_ids.txt": rowIDs, "col_ids.txt": colIDs} {
		b, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != strings.Join(ids, "\n")+"\n" {
			t.Errorf("%s differs from the CSV's ids", name)
		}
	}
	// The .npy files hold the CSVs' numbers: W M x K, Z K x N.
	if got := readNpy(t, filepath.Join(out, "W_mean.npy"), m, k); !slices.Equal(got, wMean) {
		t.Error("W_mean.npy differs from W_mean.csv")
	}
	if got := readNpy(t, filepath.Join(out, "Z_mean.npy"), k, n); !slices.Equal(got, posterior.Transpose(zMean, n, k)) {
		t.Error("Z_mean.npy differs from Z_mean.csv")
	}
	sdW := readNpy(t, filepath.Join(out, "W_sd.npy"), m, k)
	readNpy(t, filepath.Join(out, "Z_sd.npy"), k, n)
	for i, s := range sdW {
		if !(s > 0) {
			t.Fatalf("W_sd[%d] = %v, want positive", i, s)
		}
	}

	// Reorder the truth to the outputs' rows and columns.
	rowOf := idIndex(p.rowIDs)
	colOf := idIndex(p.colIDs)
	truthW := mat.NewDense(m, k, nil)
	for i, id := range rowIDs {
		truthW.SetRow(i, mat.Row(nil, rowOf[id], p.w))
	}
	truthZ := mat.NewDense(k, n, nil)
	for j, id := range colIDs {
		truthZ.SetCol(j, mat.Col(nil, colOf[id], p.z))
	}
	var truth mat.Dense
	truth.Mul(truthW, truthZ)

	// The posterior predictive mean of every entry, from the model file's
	// samples, against the noise-free truth. Its error comes from the
	// noise: about noise * sqrt(K (M + N) / |observed|) = 0.1 * sqrt(330 /
	// ~1600) = 0.045 RMS; 3 times that allows for the posterior's own
	// spread and the sampling error of 100 samples. Entries have an RMS of
	// about 3.5, so 0.14 is within 4%.
	model := mustReadModel(t, out)
	if model.Samples != 100 || model.Rows != m || model.Cols != n || model.Rank != k {
		t.Fatalf("model: %d samples of %d x %d at rank %d", model.Samples, model.Rows, model.Cols, model.Rank)
	}
	var ss float64
	for i := range m {
		for j := range n {
			d := model.Predict(i, j, 0.9).Mean - truth.At(i, j)
			ss += d * d
		}
	}
	rmse := math.Sqrt(ss / (m * n))
	if rmse > 3*noise*math.Sqrt(float64(k*(m+n))/float64(p.observed)) {
		t.Errorf("RMS error of the predictive means against the truth %.4f, want below %.4f", rmse, 3*noise*math.Sqrt(float64(k*(m+n))/float64(p.observed)))
	} else {
		t.Logf("RMS error of the predictive means %.4f (noise %v)", rmse, noise)
	}
	// The column spaces: each true factor lies in the span of the
	// posterior means, up to the same relative error (0.14 / 3.5 = 4%,
	// doubled because a factor's error is not averaged over K of them).
	if r := projectionResidual(t, mat.NewDense(m, k, wMean), truthW); r > 0.08 {
		t.Errorf("the columns of the true W lie %.3f (relative) outside the span of W_mean, want below 0.08", r)
	}
	if r := projectionResidual(t, mat.NewDense(n, k, zMean), mat.DenseCopyOf(truthZ.T())); r > 0.08 {
		t.Errorf("the rows of the true Z lie %.3f (relative) outside the span of Z_mean, want below 0.08", r)
	}

	// summary.json, manifest.json and trace.png read back.
	var sum fitSummary
	readJSON(t, filepath.Join(out, "summary.json"), &sum)
	if sum.Data.Rows != m || sum.Data.Observed != p.observed || sum.Diagnostics == nil || sum.Diagnostics.Chains != 2 || len(sum.Permutations) != 2 {
		t.Errorf("summary.json: %+v", sum)
	}
	// sigma^2 is the noise variance 0.01 plus what the fit misses of the
	// truth, whose mean square on all entries is rmse^2 (less on the
	// training entries); 20% either way allows for its posterior spread
	// with ~1600 entries (sd about sqrt(2/1600) = 3.5% of it).
	if lo, hi := 0.8*noise*noise, 1.2*(noise*noise+rmse*rmse); sum.Sigma2.Mean < lo || sum.Sigma2.Mean > hi ||
		!(sum.Sigma2.Q025 < sum.Sigma2.Median && sum.Sigma2.Median < sum.Sigma2.Q975) {
		t.Errorf("sigma^2 summary %+v, want a mean in [%.4g, %.4g]", sum.Sigma2, lo, hi)
	}
	var man fitManifest
	readJSON(t, filepath.Join(out, "manifest.json"), &man)
	digest := sha256.Sum256(mustRead(t, p.path))
	if man.Data.SHA256 != hex.EncodeToString(digest[:]) || man.Data.Format != "triplets" || man.Settings.Chains != 2 || man.Settings.BurnIn != 240 || man.Model != "GRRN" {
		t.Errorf("manifest.json: %+v", man)
	}
	img, err := png.Decode(bytes.NewReader(mustRead(t, filepath.Join(out, "trace.png"))))
	if err != nil {
		t.Fatalf("trace.png: %v", err)
	}
	if img.Bounds().Dx() < 1000 {
		t.Errorf("trace.png is %d pixels wide", img.Bounds().Dx())
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("the output's parent holds %d entries, want the data and the output (no temporary directory left)", len(entries))
	}
}

// TestFitSameOutputsForAnyWorkers checks that equal seeds give
// byte-identical output directories for any number of workers.
func TestFitSameOutputsForAnyWorkers(t *testing.T) {
	dir := t.TempDir()
	p := newPlanted(t, dir, 30, 25, 2, 0.5, 0.2, 1, 2)
	var outs []string
	for _, workers := range []string{"1", "3"} {
		out := filepath.Join(dir, "w"+workers)
		fitCLI(t, "--rank", "2", "--chains", "3", "--sweeps", "40", "--samples", "30", "--holdout", "0.1", "--seed", "9", "--workers", workers, "--out", out, p.path)
		outs = append(outs, out)
	}
	entries, err := os.ReadDir(outs[0])
	if err != nil {
		t.Fatal(err)
	}
	// 14 outputs, and the 3 of the held-out entries.
	if len(entries) != 17 {
		t.Errorf("%d files written, want 17", len(entries))
	}
	for _, e := range entries {
		a := mustRead(t, filepath.Join(outs[0], e.Name()))
		b := mustRead(t, filepath.Join(outs[1], e.Name()))
		if !bytes.Equal(a, b) {
			t.Errorf("%s differs between 1 and 3 workers", e.Name())
		}
	}
}

// TestFitStandardize fits a matrix and the same matrix times 1024 (a
// power of two, so that every scaled value and moment is exact) with
// --standardize: the two fits sample identical chains, and every output
// of the second is the first's in its units: W times 1024, Z unchanged,
// sigma^2 times 1024^2, predictions times 1024. Without --standardize,
// the scaled data draws the scale warning.
func TestFitStandardize(t *testing.T) {
	dir := t.TempDir()
	a := newPlanted(t, dir, 20, 30, 2, 0.5, 0.2, 1, 3)
	b := newPlanted(t, dir, 20, 30, 2, 0.5, 0.2, 1024, 3)
	args := []string{"--rank", "2", "--chains", "2", "--sweeps", "30", "--workers", "1", "--standardize", "--holdout", "0.2"}
	outA, outB := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	_, errA := fitCLI(t, append(args, "--out", outA, a.path)...)
	_, errB := fitCLI(t, append(args, "--out", outB, b.path)...)
	for _, e := range []string{errA, errB} {
		if !strings.Contains(e, "standardized: divided by") || strings.Contains(e, "warning") {
			t.Errorf("stderr %q: want the scale, and no warning", e)
		}
	}
	check := func(name string, f float64) {
		t.Helper()
		x, y := readNpy(t, filepath.Join(outA, name), dimsOf(t, filepath.Join(outA, name))...), readNpy(t, filepath.Join(outB, name), dimsOf(t, filepath.Join(outB, name))...)
		for i := range x {
			if x[i]*f != y[i] {
				t.Fatalf("%s[%d]: %v on the scaled data, want %v times %v exactly", name, i, y[i], x[i], f)
			}
		}
	}
	check("W_mean.npy", 1024)
	check("W_sd.npy", 1024)
	check("Z_mean.npy", 1)
	check("Z_sd.npy", 1)
	ma := mustReadModel(t, outA)
	mb := mustReadModel(t, outB)
	for s := range ma.Sigma2 {
		if ma.Sigma2[s]*1024*1024 != mb.Sigma2[s] {
			t.Fatalf("sigma^2 sample %d: %v, want %v times 1024^2", s, mb.Sigma2[s], ma.Sigma2[s])
		}
	}
	// summary.json: held-out scores and sigma^2 in each fit's units,
	// diagnostics (all relative) the same.
	var sa, sb fitSummary
	readJSON(t, filepath.Join(outA, "summary.json"), &sa)
	readJSON(t, filepath.Join(outB, "summary.json"), &sb)
	ha, hb := sa.Holdout, sb.Holdout
	if ha == nil || hb == nil {
		t.Fatalf("summary.json without a holdout block: %+v, %+v", ha, hb)
	}
	if ha.MSE*1024*1024 != hb.MSE || ha.MeanCRPS*1024 != hb.MeanCRPS ||
		math.Abs(ha.MeanLogDensity-math.Log(1024)-hb.MeanLogDensity) > 1e-12*math.Abs(hb.MeanLogDensity) ||
		!slices.Equal(ha.Coverage, hb.Coverage) {
		t.Errorf("holdout on the scaled data %+v, want %+v in units 1024 times larger", *hb, *ha)
	}
	if sa.Sigma2.Mean*1024*1024 != sb.Sigma2.Mean || sa.Sigma2.Q975*1024*1024 != sb.Sigma2.Q975 {
		t.Errorf("sigma^2 summary on the scaled data %+v, want 1024^2 times %+v", sb.Sigma2, sa.Sigma2)
	}
	if ja, jb := mustJSON(t, sa.Diagnostics), mustJSON(t, sb.Diagnostics); ja != jb {
		t.Errorf("diagnostics differ with the data's scale:\n%s\n%s", ja, jb)
	}
	pairs := [][2]int{{0, 0}, {3, 7}, {19, 29}}
	pa, pb := ma.PredictPairs(pairs, 0.9), mb.PredictPairs(pairs, 0.9)
	for i := range pairs {
		// The means and sds are exact; the interval ends come from an
		// iterative search whose stopping test is relative, accurate to
		// DefaultTol of the sd, far above 1e-9 of it.
		x, y := pa[i], pb[i]
		if x.Mean*1024 != y.Mean || math.Abs(x.SD*1024-y.SD) > 1e-12*y.SD ||
			math.Abs(x.Lower*1024-y.Lower) > 1e-6*y.SD || math.Abs(x.Upper*1024-y.Upper) > 1e-6*y.SD {
			t.Errorf("pair %v: %+v on the scaled data, want 1024 times %+v", pairs[i], y, x)
		}
	}
	_, errC := fitCLI(t, "--rank", "2", "--chains", "1", "--sweeps", "10", "--out", filepath.Join(dir, "c"), b.path)
	if !strings.Contains(errC, "warning: the data's values have mean") || !strings.Contains(errC, "--standardize") {
		t.Errorf("no scale warning for values of about 2,000 without --standardize:\n%s", errC)
	}
}

// TestFitFloat32Factors fits one matrix with and without
// --float32-factors: the posterior means of W agree to a relative 1e-5
// without being equal, and manifest.json records the flag only when it
// is given.
func TestFitFloat32Factors(t *testing.T) {
	dir := t.TempDir()
	p := newPlanted(t, dir, 30, 25, 2, 0.5, 0.2, 1, 4)
	args := []string{"--rank", "2", "--chains", "2", "--sweeps", "30", "--seed", "3", p.path}
	outA, outB := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	fitCLI(t, append(args, "--out", outA)...)
	fitCLI(t, append(args, "--out", outB, "--float32-factors")...)
	name := "W_mean.npy"
	dims := dimsOf(t, filepath.Join(outA, name))
	x, y := readNpy(t, filepath.Join(outA, name), dims...), readNpy(t, filepath.Join(outB, name), dims...)
	equal := true
	for i := range x {
		if math.Abs(x[i]-y[i]) > 1e-5*math.Abs(x[i]) {
			t.Fatalf("%s[%d]: %v with --float32-factors, %v without: further apart than 1e-5 of it", name, i, y[i], x[i])
		}
		equal = equal && x[i] == y[i]
	}
	if equal {
		t.Error("--float32-factors changed nothing")
	}
	for out, want := range map[string]bool{outA: false, outB: true} {
		got := strings.Contains(string(mustRead(t, filepath.Join(out, "manifest.json"))), `"float32_factors": true`)
		if got != want {
			t.Errorf("%s/manifest.json records float32_factors: %v, want %v", out, got, want)
		}
	}
}

// TestFitBurnInAndModelSize checks that --burn-in 0 keeps every sweep of
// every chain (it once kept the last fifth), and that the size fit
// announces before sampling is the model file's, within the zip
// container's few kilobytes.
func TestFitBurnInAndModelSize(t *testing.T) {
	dir := t.TempDir()
	p := newPlanted(t, dir, 30, 25, 2, 0.5, 0.2, 1, 7)
	tests := []struct {
		burnIn, samples string
		kept, stored    int
	}{
		{"0", "1000", 20, 40},
		{"-1", "1000", 4, 8},
		{"5", "10", 15, 10},
	}
	for _, tt := range tests {
		out := filepath.Join(dir, "b"+tt.burnIn)
		_, errOut := fitCLI(t, "--rank", "2", "--chains", "2", "--sweeps", "20", "--burn-in", tt.burnIn, "--samples", tt.samples, "--out", out, p.path)
		var man fitManifest
		readJSON(t, filepath.Join(out, "manifest.json"), &man)
		if man.Settings.Kept != tt.kept || man.Settings.Samples != tt.stored {
			t.Errorf("--burn-in %s --samples %s: kept %d per chain, stored %d; want %d and %d", tt.burnIn, tt.samples, man.Settings.Kept, man.Settings.Samples, tt.kept, tt.stored)
		}
		want := fmt.Sprintf("will hold %d samples, about %s", tt.stored, fmtBytes(8*int64(tt.stored)*2*(30+25)+4*int64(p.observed)))
		if !strings.Contains(errOut, want) {
			t.Errorf("--burn-in %s: stderr does not say %q:\n%s", tt.burnIn, want, errOut)
		}
		if size := fileSize(filepath.Join(out, posterior.FileName)); math.Abs(float64(size)-float64(8*tt.stored*2*(30+25)+4*p.observed)) > 4096 {
			t.Errorf("--burn-in %s: model file of %d bytes, announced %d", tt.burnIn, size, 8*tt.stored*2*(30+25)+4*p.observed)
		}
	}
}
