package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestFitPredictBiases fits GRRN with --biases in process and with the
// command, and checks the offsets' outputs (b.csv, c.csv, their .npy
// files, summary.json's offsets, the model file's samples) and that
// bnmf predict, adding each stored sample's mu + b_i + c_j, gives the
// predictive means that the sampler computed in process over every kept
// sweep.
func TestFitPredictBiases(t *testing.T) {
	dir := t.TempDir()
	p := newPlanted(t, dir, 25, 20, 2, 0.5, 0.2, 1, 4)
	o := fitOptions{model: "GRRN", rank: 2, sweeps: 50, burnIn: 30, thin: 1, chains: 2, seed: 4, workers: 1,
		holdout: 0.2, samples: 100, progress: time.Hour, biases: true}
	src, err := loadFitData(p.path, o)
	if err != nil {
		t.Fatal(err)
	}
	name, err := withBiasesFlag(o.model, true)
	if err != nil {
		t.Fatal(err)
	}
	model, hyper, err := configureModel(name, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := fitData(context.Background(), o, src, model, hyper, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "fit")
	stdout, _ := fitCLI(t, "--biases", "--rank", "2", "--sweeps", "50", "--burn-in", "30", "--chains", "2", "--seed", "4", "--workers", "1", "--holdout", "0.2", "--out", out, p.path)
	if !strings.HasPrefix(stdout, "GRRN+b, K = 2") || !strings.Contains(stdout, "\noffsets: mu ") {
		t.Errorf("fit's summary does not name GRRN+b or show the offsets:\n%s", stdout)
	}
	pooled := res.chains.Pooled
	if pooled.Offsets == nil {
		t.Fatal("no offsets in the pooled result")
	}
	r := src.ratings
	bRecs, err := csv.NewReader(bytes.NewReader(mustRead(t, filepath.Join(out, "b.csv")))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(bRecs) != r.Rows+1 || strings.Join(bRecs[0], ",") != "row_id,mean,sd" || bRecs[1][0] != r.RowIDs[0] {
		t.Fatalf("b.csv has %d lines starting %v, want a header and %d rows starting %s", len(bRecs), bRecs[:2], r.Rows, r.RowIDs[0])
	}
	var b []float64
	for _, rec := range bRecs[1:] {
		b = append(b, parseFloats(t, rec[1:])...)
	}
	bMean := readNpy(t, filepath.Join(out, "b_mean.npy"), r.Rows)
	cSD := readNpy(t, filepath.Join(out, "c_sd.npy"), r.Cols)
	for i := range r.Rows {
		if b[2*i] != bMean[i] || bMean[i] != pooled.Offsets.B[i] || b[2*i+1] != pooled.Offsets.BSD[i] {
			t.Fatalf("b_%d: b.csv %v±%v, b_mean.npy %v, in process %v±%v", i, b[2*i], b[2*i+1], bMean[i], pooled.Offsets.B[i], pooled.Offsets.BSD[i])
		}
	}
	for j, v := range cSD {
		if v != pooled.Offsets.CSD[j] || !(v > 0) {
			t.Fatalf("c_sd[%d] = %v, in process %v", j, v, pooled.Offsets.CSD[j])
		}
	}
	var sum fitSummary
	readJSON(t, filepath.Join(out, "summary.json"), &sum)
	if sum.Offsets == nil || sum.Offsets.MuMean != pooled.Offsets.Mu {
		t.Errorf("summary.json offsets %+v, want mu %v", sum.Offsets, pooled.Offsets.Mu)
	}
	m := mustReadModel(t, out)
	if !m.Offsets || len(m.Mu) != m.Samples || len(m.B) != m.Samples || len(m.C[0]) != r.Cols || m.Model != "GRRN+b" {
		t.Fatalf("model file: offsets %v, %d mu, %d b samples, model %s", m.Offsets, len(m.Mu), len(m.B), m.Model)
	}

	var pairs strings.Builder
	for _, e := range res.prob.test {
		pairs.WriteString(r.RowIDs[e.Row] + "\t" + r.ColIDs[e.Col] + "\n")
	}
	pairsFile := filepath.Join(dir, "pairs.tsv")
	if err := os.WriteFile(pairsFile, []byte(pairs.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	recs := predictCLI(t, "--pairs", pairsFile, out)[1:]
	if len(recs) != len(res.prob.test) {
		t.Fatalf("%d predictions of %d held-out entries", len(recs), len(res.prob.test))
	}
	for i, rec := range recs {
		x := parseFloats(t, rec[2:4])
		// The stored samples are all 40 kept sweeps, the offsets' in
		// them; averaged in another order: equal to 1e-12.
		sd := math.Sqrt(pooled.PredictiveVariance[i] + pooled.Sigma2Mean)
		if math.Abs(x[0]-pooled.PredictiveMean[i]) > 1e-12*math.Abs(x[0]) || math.Abs(x[1]-sd) > 1e-12*sd {
			t.Errorf("%v: mean %v, sd %v; in process %v, %v", rec[:2], x[0], x[1], pooled.PredictiveMean[i], sd)
		}
	}
}

// TestFitBiasesRefused checks that --biases is refused for a model
// without a Gaussian likelihood, and that a model file without offsets
// does not mention them (files written before offsets existed read as
// they did).
func TestFitBiasesRefused(t *testing.T) {
	dir := t.TempDir()
	p := newPlanted(t, dir, 12, 10, 2, 0.6, 0.2, 1, 5)
	var out, errOut bytes.Buffer
	err := run(context.Background(), []string{"fit", "--model", "PGG", "--biases", "--rank", "2", "--out", filepath.Join(dir, "x"), p.path}, &out, &errOut)
	if err == nil || !strings.Contains(err.Error(), "--biases: PGG has no Gaussian likelihood") {
		t.Errorf("got error %v, want one refusing --biases for PGG", err)
	}
	if _, err := withBiasesFlag("NMF", true); err == nil {
		t.Error("--biases accepted for NMF")
	}
	// The offsets' hyperparameters with --set: accepted with --biases
	// only, and recorded.
	withSet := filepath.Join(dir, "set")
	fitCLI(t, "--biases", "--set", "bias_beta_b=2", "--set", "bias_alpha_b=3", "--rank", "2", "--sweeps", "10", "--chains", "1", "--out", withSet, p.path)
	if man := string(mustRead(t, filepath.Join(withSet, "manifest.json"))); !strings.Contains(man, `"bias_alpha_b": 3`) {
		t.Errorf("manifest.json does not record bias_alpha_b:\n%s", man)
	}
	err = run(context.Background(), []string{"fit", "--set", "bias_alpha_b=3", "--rank", "2", "--out", filepath.Join(dir, "y"), p.path}, &out, &errOut)
	if err == nil || !strings.Contains(err.Error(), "has no hyperparameter") {
		t.Errorf("--set bias_alpha_b without --biases: got %v", err)
	}
	plain := filepath.Join(dir, "plain")
	fitCLI(t, "--rank", "2", "--sweeps", "10", "--chains", "1", "--out", plain, p.path)
	m := mustReadModel(t, plain)
	if m.Offsets || m.B != nil {
		t.Error("a model without offsets reads with offsets")
	}
	if _, err := os.Stat(filepath.Join(plain, "b.csv")); !os.IsNotExist(err) {
		t.Errorf("b.csv written without --biases (%v)", err)
	}
}

// TestFitSigma2Start checks --sigma2-start: auto starts sigma^2 at the
// data's variance with offsets and at the paper's conditional draw
// without them, an explicit start is used as given, the manifest names
// any start but the paper's, and an unknown start is refused.
func TestFitSigma2Start(t *testing.T) {
	dir := t.TempDir()
	p := newPlanted(t, dir, 25, 20, 2, 0.5, 0.2, 1, 4)
	for i, c := range []struct {
		args     []string
		manifest string // settings.sigma2_start, "" when absent
	}{
		{nil, ""},
		{[]string{"--biases"}, "data-variance"},
		{[]string{"--biases", "--sigma2-start", "conditional"}, ""},
		{[]string{"--sigma2-start", "data-variance"}, "data-variance"},
		{[]string{"--sigma2-start", "prior"}, "prior"},
	} {
		out := filepath.Join(dir, fmt.Sprintf("fit%d", i))
		args := append([]string{"--rank", "2", "--sweeps", "20", "--chains", "1", "--workers", "1", "--out", out}, c.args...)
		fitCLI(t, append(args, p.path)...)
		var m fitManifest
		if err := json.Unmarshal(mustRead(t, filepath.Join(out, "manifest.json")), &m); err != nil {
			t.Fatal(err)
		}
		if m.Settings.Sigma2Start != c.manifest {
			t.Errorf("%v: manifest sigma2_start %q, want %q", c.args, m.Settings.Sigma2Start, c.manifest)
		}
	}
	var stderr bytes.Buffer
	err := run(context.Background(), []string{"fit", "--sigma2-start", "zero", "--out", filepath.Join(dir, "bad"), p.path}, io.Discard, &stderr)
	if err == nil || !strings.Contains(err.Error(), "--sigma2-start") || !strings.Contains(err.Error(), "data-variance") {
		t.Errorf("--sigma2-start zero: %v, want an error naming the flag and the starts", err)
	}
}
