package bnmf

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"
)

var updateFingerprints = flag.Bool("update-fingerprints", false,
	"rewrite testdata/fingerprints.json from this build's chains (a deliberate change of the numbers)")

// fingerprintModels lists every sampler the fingerprints pin: the
// registry's models, the block draws of the entry-wise ones, the
// row-wise and Poisson samplers, GGGW's upstream hyperparameter draw, and
// two models with offsets.
func fingerprintModels() []Model {
	ms := append(allModels(), blockDrawModels()...)
	return append(ms, GGG{}, GGGA{}, GGGW{}, GGGW{HyperDraw: HyperUpstream}, PGG{}, PGGG{},
		WithBiases(GRRN{}), WithBiases(GGGW{}))
}

// TestChainFingerprints checks that every sampler's chain gives, bit for
// bit, the numbers it gave when testdata/fingerprints.json was written:
// six sweeps (three kept) on a small planted matrix (of counts for the
// Poisson samplers) at K = 1, 4, 5 and 13
// (every remainder of the kernels' blocks of four, and the two-rows-at-a-
// time precision's odd and even K), hashed from the trace, the training
// MSE, sigma^2's mean and the predictive means and variances. A change
// that is meant to keep every number (a faster kernel, a reordering of
// independent work) must pass it unchanged; one that moves numbers on
// purpose rewrites the file with -update-fingerprints and says so.
//
// The fingerprints are those of amd64 with AVX and FMA, the machines that
// made the committed records; elsewhere (another architecture, -tags
// noasm, where gonum sums in another order, or a processor without FMA,
// where Go's math.Exp rounds otherwise) the test skips.
func TestChainFingerprints(t *testing.T) {
	if !fingerprintPlatform() {
		t.Skip("the fingerprints are those of amd64 with its assembly, AVX and FMA")
	}
	train, _, _ := planted(t, 23, 31, 3, 0.6, 0.1, 11)
	counts := roundedCounts(t, train)
	path := filepath.Join("testdata", "fingerprints.json")
	want := map[string]string{}
	if !*updateFingerprints {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("reading %s: %v (write it with -update-fingerprints)", path, err)
		}
		if err := json.Unmarshal(b, &want); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
	}
	got := map[string]string{}
	for _, model := range fingerprintModels() {
		for _, k := range []int{1, 4, 5, 13} {
			label := fmt.Sprintf("%s/K=%d", fingerprintLabel(model), k)
			data := train
			if spec, ok := Lookup(model.Name()); ok && spec.Family == Poisson {
				data = counts
			}
			res, err := Run(context.Background(), model, data, Settings{Rank: k, Sweeps: 6, BurnIn: 3, Seed: 5, Workers: 1})
			if err != nil {
				t.Fatalf("%s: %v", label, err)
			}
			got[label] = resultFingerprint(t, res)
		}
	}
	if *updateFingerprints {
		b, err := json.MarshalIndent(got, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %d fingerprints to %s", len(got), path)
		return
	}
	for label, g := range got {
		if w, ok := want[label]; !ok {
			t.Errorf("%s: no fingerprint in %s (rewrite it with -update-fingerprints)", label, path)
		} else if g != w {
			t.Errorf("%s: fingerprint %s, want %s: the chain's numbers changed", label, g, w)
		}
	}
	for label := range want {
		if _, ok := got[label]; !ok {
			t.Errorf("%s: in %s but no longer run", label, path)
		}
	}
}

// fingerprintLabel names model in the fingerprints: modelLabel, with the
// options the other samplers' labels would not show.
func fingerprintLabel(m Model) string {
	switch m := m.(type) {
	case NMF:
		return m.Name() + "/" + m.Objective.String()
	case GGGW:
		if m.HyperDraw == HyperUpstream {
			return m.Name() + "/hyper_draw=upstream"
		}
	}
	return modelLabel(m)
}

// resultFingerprint hashes the bits of res's trace, training MSE,
// sigma^2's mean and predictive means and variances; the first 16 hex
// digits of the SHA-256.
func resultFingerprint(t *testing.T, res *Result) string {
	t.Helper()
	h := sha256.New()
	put := func(v float64) {
		var b [8]byte
		binary.LittleEndian.PutUint64(b[:], math.Float64bits(v))
		h.Write(b[:])
	}
	for _, s := range res.Trace {
		put(float64(s.Sweep))
		put(s.TrainMSE)
		put(s.TestMSE)
		put(s.Sigma2)
		put(s.LogLikelihood)
	}
	put(res.TrainMSE)
	put(res.Sigma2Mean)
	for _, v := range res.PredictiveMean {
		put(v)
	}
	for _, v := range res.PredictiveVariance {
		put(v)
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}
