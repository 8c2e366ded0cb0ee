package experiments

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/bnmf-lab/bnmf/bnmf"
)

func TestAutoSweepsConfig(t *testing.T) {
	got, err := LoadConfig("testdata/good-auto.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if !got.AutoSweeps || got.Sweeps != 0 || got.MaxSweeps != 2000 || got.BurnIn != 0 || got.Thin != 2 || got.Chains != 4 {
		t.Errorf("auto %v, sweeps %d, max_sweeps %d, burn-in %d, thin %d, chains %d; want true, 0, 2000, 0, 2, 4",
			got.AutoSweeps, got.Sweeps, got.MaxSweeps, got.BurnIn, got.Thin, got.Chains)
	}
	src, err := os.ReadFile("testdata/good-auto.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if string(got.source) != string(src) {
		t.Error("the config's source is not the file as written")
	}
	// Quoted, the word is read the same; the hash covers auto and the cap.
	quoted, err := ParseConfig("q.yaml", []byte(strings.Replace(string(src), "sweeps:   auto", `sweeps: "auto"`, 1)))
	if err != nil {
		t.Fatal(err)
	}
	if mustHash(t, quoted) != mustHash(t, got) {
		t.Error(`sweeps: "auto" hashes differently from sweeps: auto`)
	}
	fixed := *got
	fixed.AutoSweeps, fixed.Sweeps, fixed.MaxSweeps, fixed.BurnIn = false, 2000, 0, 1000
	capped := *got
	capped.MaxSweeps = 1000
	for name, c := range map[string]*Config{"fixed sweeps": &fixed, "another cap": &capped} {
		if mustHash(t, c) == mustHash(t, got) {
			t.Errorf("%s kept the hash of sweeps: auto", name)
		}
	}
}

// TestAutoSweepsKeepsOldHashes checks that a config without sweeps: auto
// hashes as it did before the setting existed: the encoding the hash
// covers holds neither new key.
func TestAutoSweepsKeepsOldHashes(t *testing.T) {
	cfg, err := LoadConfig("testdata/good-sparsity.yaml")
	if err != nil {
		t.Fatal(err)
	}
	c := *cfg
	c.AutoSweeps = true
	before, after := mustHash(t, cfg), mustHash(t, &c)
	if before == after {
		t.Fatal("AutoSweeps did not change the hash")
	}
	// The pinned hashes of TestConfigHashPinned cover the encoding; here
	// the keys' names, which must not appear unset.
	h := hashed{Sweeps: 1}
	b, err := json.Marshal(h)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "AutoSweeps") || strings.Contains(string(b), "MaxSweeps") {
		t.Errorf("the hashed encoding of a config without sweeps: auto holds its keys: %s", b)
	}
}

// autoStudy is tinyStudy with sweeps: auto and two chains.
const autoStudy = `kind: sparsity
dataset:
  name: synthetic
  synthetic: {rows: 30, cols: 40, rank: 3, density: 0.3, seed: 3}
models: [{name: GRRN}, {name: GEE}, {name: NMF}]
ranks: [2]
fractions: [0.8]
repeats: 2
chains: 2
sweeps: auto
max_sweeps: 800
seed: 5
`

func autoPlan(t *testing.T) *Plan {
	t.Helper()
	return preparePlan(t, "auto.yaml", autoStudy)
}

// TestAutoStudy runs a tiny study with sweeps: auto, and checks that its
// records say how many sweeps the chains ran, on the checkpoints, with
// a burn-in of half and the verdict; that NMF runs its 500; and that a
// run cancelled after its first record resumes to the same records.
func TestAutoStudy(t *testing.T) {
	p := autoPlan(t)
	dir := run(t, p, RunOptions{Workers: 2})
	ref := records(t, dir)
	st, err := LoadStudy(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Records) != 6 || st.Manifest.MaxSweeps != 800 || st.Manifest.Sweeps != 0 {
		t.Fatalf("%d records, manifest max_sweeps %d, sweeps %d; want 6, 800, 0", len(st.Records), st.Manifest.MaxSweeps, st.Manifest.Sweeps)
	}
	checks := bnmf.AutoCheckpoints(800)
	for _, r := range st.Records {
		if r.Error != "" {
			t.Fatalf("%s: %s", r.Cell, r.Error)
		}
		if r.Cell.Model == "NMF" {
			if r.AutoSweeps != nil || r.Sweeps != bnmf.DefaultSweeps || len(r.Trace.TrainMSE) != bnmf.DefaultSweeps {
				t.Errorf("%s: auto %v, %d sweeps, trace of %d; want nil and %d", r.Cell, r.AutoSweeps, r.Sweeps, len(r.Trace.TrainMSE), bnmf.DefaultSweeps)
			}
			continue
		}
		a := r.AutoSweeps
		if a == nil {
			t.Errorf("%s: no auto_sweeps", r.Cell)
			continue
		}
		t.Logf("%s: %s after %d sweeps: sigma^2 %v, MSE %v, predictions %v", r.Cell, a.Verdict, a.Sweeps, a.Sigma2, a.TestMSE, a.Predictions)
		if !slices.Contains(checks, r.Sweeps) || a.Sweeps != r.Sweeps || r.BurnIn != r.Sweeps/2 || a.MaxSweeps != 800 ||
			len(r.Trace.TrainMSE) != r.Sweeps || len(r.ChainTraces) != 1 || len(r.ChainTraces[0].TrainMSE) != r.Sweeps {
			t.Errorf("%s: %d sweeps (auto %d), burn-in %d, trace of %d; want one of %v, burn-in half", r.Cell, r.Sweeps, a.Sweeps, r.BurnIn, len(r.Trace.TrainMSE), checks)
		}
		if (a.Verdict == bnmf.NotConverged) != (r.Sweeps == 800) || a.Verdict == bnmf.Stuck {
			t.Errorf("%s: %s after %d sweeps", r.Cell, a.Verdict, r.Sweeps)
		}
		if a.Verdict == bnmf.NotConverged && !slices.ContainsFunc(r.Warnings, func(w string) bool { return strings.HasPrefix(w, "convergence: not converged") }) {
			t.Errorf("%s: not converged without saying so: %v", r.Cell, r.Warnings)
		}
	}

	t.Run("a cancelled run resumes to the same records", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "study")
		runCancelled(t, p, RunOptions{Workers: 1, Output: dir})
		if got := records(t, dir); len(got) == len(ref) {
			t.Fatalf("all %d records were stored before the run was cancelled", len(got))
		}
		if _, err := p.Run(context.Background(), RunOptions{Workers: 2, Output: dir}); err != nil {
			t.Fatal(err)
		}
		sameRecords(t, records(t, dir), ref)
	})

	t.Run("a killed run resumes to the same records", func(t *testing.T) {
		checkKilledRunResumes(t, p, ref, "TestChildAutoStudy", "BNMF_EXPERIMENTS_AUTO_CHILD_DIR", 1)
	})

	t.Run("verify reruns a cell to the same record", func(t *testing.T) {
		cells := []Cell{st.Records[0].Cell}
		got, err := p.Verify(context.Background(), st, cells, 1, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !got[0].Identical() {
			t.Errorf("verify found differences: %v", got[0].Differences)
		}
	})
}

// TestAutoRecordsStraightRun checks that a cell of a study with sweeps:
// auto holds the numbers of a study with that cell's sweeps fixed and a
// burn-in of half: block boundaries do not change the draws.
func TestAutoRecordsStraightRun(t *testing.T) {
	p := autoPlan(t)
	dir := run(t, p, RunOptions{Workers: 1, Shard: Shard{Index: 0, Count: 6}})
	st, err := LoadStudy(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Records) != 1 || st.Records[0].AutoSweeps == nil {
		t.Fatalf("%d records, want one of a Bayesian model", len(st.Records))
	}
	auto := st.Records[0]
	fixedSrc := strings.Replace(strings.Replace(autoStudy, "sweeps: auto", "sweeps: "+strconv.Itoa(auto.Sweeps), 1), "max_sweeps: 800", "burn_in: "+strconv.Itoa(auto.Sweeps/2), 1)
	fp := preparePlan(t, "fixed.yaml", fixedSrc)
	fixed := records(t, run(t, fp, RunOptions{Workers: 1, Shard: Shard{Index: 0, Count: 6}}))
	want, got := withoutTimes(&auto), Record{}
	for _, b := range fixed {
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatal(err)
		}
	}
	if !reflect.DeepEqual(got.Metrics, want.Metrics) || !reflect.DeepEqual(got.Trace, want.Trace) ||
		!reflect.DeepEqual(got.ChainTraces, want.ChainTraces) || !reflect.DeepEqual(got.Predictive, want.Predictive) ||
		!reflect.DeepEqual(got.Diagnostics, want.Diagnostics) {
		t.Errorf("the cell of sweeps: auto differs from a straight run of its %d sweeps", auto.Sweeps)
	}
}

// TestChildAutoStudy runs autoStudy into $BNMF_EXPERIMENTS_AUTO_CHILD_DIR
// for the killed-run test of TestAutoStudy; it is skipped otherwise.
func TestChildAutoStudy(t *testing.T) {
	dir := os.Getenv("BNMF_EXPERIMENTS_AUTO_CHILD_DIR")
	if dir == "" {
		t.Skip("runs only as the child of TestAutoStudy")
	}
	if _, err := autoPlan(t).Run(context.Background(), RunOptions{Workers: 1, Output: dir}); err != nil {
		t.Fatal(err)
	}
}

// TestAutoStudyStuck runs GEE with a sigma^2 prior of scale 1e6, whose
// sigma^2 stays thousands of times the data's variance (its conditional
// has rate 1e6 + SS/2 against shape 1 + 120 for the 240 training entries,
// so sigma^2 is about 8,000; the test logs 9,200 times the variance): a
// stuck chain by the diagnostics' rule, which stops the cell at the
// first check, 100 sweeps of the cap 800, with its verdict.
func TestAutoStudyStuck(t *testing.T) {
	src := strings.Replace(autoStudy, "models: [{name: GRRN}, {name: GEE}, {name: NMF}]", "models: [{name: GEE, beta_sigma: 1e6}]", 1)
	src = strings.Replace(src, "repeats: 2", "repeats: 1", 1)
	p := preparePlan(t, "stuck.yaml", src)
	st, err := LoadStudy(run(t, p, RunOptions{Workers: 1}))
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Records) != 1 {
		t.Fatalf("%d records, want 1", len(st.Records))
	}
	r := st.Records[0]
	a := r.AutoSweeps
	if a == nil || a.Verdict != bnmf.Stuck || a.Sweeps != 100 || r.Sweeps != 100 || len(r.Trace.Sigma2) != 100 || !(a.MaxSigma2OverVariance > bnmf.DefaultThresholds().MaxSigma2OverVariance) {
		t.Fatalf("record: %d sweeps, auto %+v; want stuck after 100", r.Sweeps, a)
	}
	t.Logf("%d training entries, sigma^2 %.3g times their variance", r.TrainEntries, a.MaxSigma2OverVariance)
	if !slices.ContainsFunc(r.Warnings, func(w string) bool { return strings.Contains(w, "stopped after 100 sweeps: a chain is stuck") }) {
		t.Errorf("warnings %v do not say the chain is stuck", r.Warnings)
	}
}

// TestAutoStudyMixes runs GRRN at K = 1, whose four chains mix fast on
// the tiny study's data (a rank-1 model has no factors to swap), with a
// cap of 2000: both repeats' cells stop before the cap, converged (after
// 1000 sweeps with these seeds, having failed the checks at 125, 250
// and 500), each record saying so.
func TestAutoStudyMixes(t *testing.T) {
	if testing.Short() {
		t.Skip("runs 4 chains of up to 2000 sweeps twice")
	}
	src := strings.Replace(autoStudy, "models: [{name: GRRN}, {name: GEE}, {name: NMF}]", "models: [{name: GRRN}]", 1)
	src = strings.Replace(src, "ranks: [2]", "ranks: [1]", 1)
	src = strings.Replace(src, "chains: 2", "chains: 4", 1)
	src = strings.Replace(src, "max_sweeps: 800", "max_sweeps: 2000", 1)
	p := preparePlan(t, "mixes.yaml", src)
	st, err := LoadStudy(run(t, p, RunOptions{Workers: 2}))
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Records) != 2 {
		t.Fatalf("%d records, want 2", len(st.Records))
	}
	for _, r := range st.Records {
		a := r.AutoSweeps
		if a == nil || a.Verdict != bnmf.Converged || a.Sweeps >= 2000 || r.Sweeps != a.Sweeps || len(r.Trace.Sigma2) != a.Sweeps {
			t.Errorf("%s: %d sweeps, auto %+v; want converged before 2000", r.Cell, r.Sweeps, a)
			continue
		}
		t.Logf("%s: converged after %d sweeps: sigma^2 %v; MSE %v; predictions %v", r.Cell, a.Sweeps, a.Sigma2, a.TestMSE, a.Predictions)
		th := bnmf.DefaultThresholds()
		for _, q := range []*bnmf.Convergence{&a.Sigma2, a.TestMSE, a.Predictions} {
			if !(*q.RHat < th.MaxRHat && *q.ESSBulk >= float64(th.MinESS) && *q.ESSTail >= float64(th.MinESS)) {
				t.Errorf("%s: converged with %v", r.Cell, q)
			}
		}
		if slices.ContainsFunc(r.Warnings, func(w string) bool { return strings.Contains(w, "not converged") }) {
			t.Errorf("%s: converged but warned: %v", r.Cell, r.Warnings)
		}
	}
}
