package experiments

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bnmf-lab/bnmf/bnmf"
)

// TestBiasesConfig runs one study with GRRN with and without biases:
// true. The key enters the hash only when set, the record names the
// model GRRN+b, and a study may list GRRN and GRRN+b side by side.
func TestBiasesConfig(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(12, 13))
	path := filepath.Join(dir, "m.csv")
	writeRandomTriplets(t, path, 30, 40, 0.4, rng, func(i, j int) float64 { return 1 + float64(i%5) + float64(j%3) + rng.Float64() })
	src := func(models string) string {
		return fmt.Sprintf("kind: sparsity\ndataset: {path: %s, format: triplets}\nmodels: [%s]\nranks: [2]\nfractions: [0.8]\nrepeats: 1\nsweeps: 40\nburn_in: 20\n", path, models)
	}
	def, off, on := runOneCell(t, dir, "default", src("{name: GRRN}")), runOneCell(t, dir, "off", src("{name: GRRN, biases: false}")), runOneCell(t, dir, "on", src("{name: GRRN, biases: true}"))
	if off.ConfigHash != def.ConfigHash {
		t.Error("biases: false changed the config hash")
	}
	if on.ConfigHash == def.ConfigHash {
		t.Error("biases: true kept the config hash")
	}
	if on.Cell.Model != "GRRN+b" || def.Cell.Model != "GRRN" {
		t.Errorf("records name the models %q and %q, want GRRN+b and GRRN", on.Cell.Model, def.Cell.Model)
	}
	if on.Metrics.TestMSE == def.Metrics.TestMSE {
		t.Error("biases: true changed nothing")
	}
	cfg, err := ParseConfig("both.yaml", []byte(src("{name: GRRN}, {name: GRRN, biases: true}, {name: GEE, biases: true, lambda: 0.5}")))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range cfg.Cells() {
		names = append(names, c.Model)
	}
	if got := strings.Join(names, ","); got != "GRRN,GRRN+b,GEE+b" {
		t.Errorf("cells %s, want GRRN,GRRN+b,GEE+b", got)
	}
	m, err := cfg.Models[2].Model()
	if err != nil || m.Name() != "GEE+b" {
		t.Errorf("models[2] is %v (%v), want GEE+b", m, err)
	}

	// The offsets' hyperparameters: set with biases, in the hash.
	withTau, err := ParseConfig("tau.yaml", []byte(src("{name: GRRN, biases: true, bias_tau_mu: 2, alpha_sigma: 3}")))
	if err != nil {
		t.Fatal(err)
	}
	bm, err := withTau.Models[0].Model()
	if err != nil {
		t.Fatal(err)
	}
	b, ok := bm.(bnmf.Biased)
	if !ok || b.TauMu != 2 || b.Model.(bnmf.GRRN).AlphaSigma != 3 {
		t.Errorf("configured %#v, want GRRN+b with TauMu 2 and GRRN's AlphaSigma 3", bm)
	}
	h1, err1 := withTau.Hash()
	plainCfg, err2 := ParseConfig("plain.yaml", []byte(src("{name: GRRN, biases: true, alpha_sigma: 3}")))
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	if h2, _ := plainCfg.Hash(); h1 == h2 {
		t.Error("bias_tau_mu left the hash unchanged")
	}
	for _, tc := range []struct{ models, want string }{
		{"{name: GRRN, bias_tau_mu: 2}", "bias_tau_mu is a hyperparameter of the offsets; set biases: true to use it"},
		{"{name: GRRN, biases: true, bias_tau_mu: -1}", "-1 must be positive"},
		{"{name: NMF, biases: true}", "NMF has no Gaussian likelihood"},
	} {
		_, err := ParseConfig("bad.yaml", []byte(src(tc.models)))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want an error containing %q", tc.models, err, tc.want)
		}
	}
}

// TestCaughtOffsetsRecord checks that a cell's record carries the
// sampler's warning of caught offsets (bnmf's caughtOffsetsWarning: an
// offset far from its side's mean, in standard deviations of the training
// values). The data declare a last row with no entries, whose offset b_i
// is drawn from its prior N(0, 1/tau_b) alone, and bias_beta_b = 1e14
// makes tau_b's conditional Gamma(1 + M/2, 1e14 + sum b_i^2/2) put
// 1/tau_b near 1e13: the empty row's draws have a standard deviation of
// millions where the training values' is about 1.4, so the posterior
// mean of its offset lies far past the warning's ten standard deviations
// (-9.45e5 at the config's seed, and past it at each of config seeds 1 to
// 100 when this test was written).
func TestCaughtOffsetsRecord(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(21, 22))
	const rows, cols = 20, 15
	var entries []string
	for i := range rows - 1 { // the last row has no entries
		for j := range cols {
			if rng.Float64() < 0.6 {
				entries = append(entries, fmt.Sprintf("%d %d %v", i+1, j+1, 1+float64(i%4)+float64(j%3)+rng.Float64()))
			}
		}
	}
	path := filepath.Join(dir, "m.mtx")
	mtx := fmt.Sprintf("%%%%MatrixMarket matrix coordinate real general\n%d %d %d\n%s\n", rows, cols, len(entries), strings.Join(entries, "\n"))
	if err := os.WriteFile(path, []byte(mtx), 0o644); err != nil {
		t.Fatal(err)
	}
	src := fmt.Sprintf("kind: sparsity\ndataset: {path: %s, format: matrix-market}\nmodels: [{name: GRRN, biases: true, bias_beta_b: 1e14}]\n"+
		"ranks: [2]\nfractions: [0.6]\nrepeats: 1\nsweeps: 40\nburn_in: 20\n", path)
	r := runOneCell(t, dir, "caught", src)
	if r.Error != "" {
		t.Fatalf("the cell failed: %s", r.Error)
	}
	want := fmt.Sprintf("offsets: row %d's b_i ", rows-1)
	for _, w := range r.Warnings {
		if strings.HasPrefix(w, want) && strings.Contains(w, "lie more than 10 standard deviations of the training values") {
			return
		}
	}
	t.Errorf("the record's warnings %q hold none that starts %q and says the offset lies more than 10 standard deviations out", r.Warnings, want)
}
