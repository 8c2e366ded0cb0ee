package experiments

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/bnmf-lab/bnmf/internal/atomicfile"
)

// tinyStudy is a sparsity study small enough to run in about a second:
// 5 models x 1 rank x 2 fractions x 2 repeats = 20 cells on a 30 x 40
// synthetic matrix.
const tinyStudy = `kind: sparsity
dataset:
  name: synthetic
  synthetic: {rows: 30, cols: 40, rank: 3, density: 0.3, seed: 3}
ranks: [2]
fractions: [0.8, 0.85]
repeats: 2
sweeps: 120
burn_in: 60
seed: 5
`

// tinyPlan prepares tinyStudy, with extra YAML lines replacing its models.
func tinyPlan(t *testing.T, models string) *Plan {
	t.Helper()
	return preparePlan(t, "tiny.yaml", tinyStudy+models)
}

// preparePlan parses the config src, named file in messages, and prepares
// it with the default options, failing the test on any error.
func preparePlan(t testing.TB, file, src string) *Plan {
	t.Helper()
	cfg, err := ParseConfig(file, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	p, err := Prepare(cfg, PrepareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// run runs p into a new directory and returns it.
func run(t *testing.T, p *Plan, opts RunOptions) string {
	t.Helper()
	opts.Output = filepath.Join(t.TempDir(), "study")
	if _, err := p.Run(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	return opts.Output
}

// records returns the records stored in dir, each encoded with its wall
// times zeroed, by cell key. It fails the test if the store has problems.
func records(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	st, err := LoadStudy(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Problems) > 0 {
		t.Fatalf("problems in %s: %v", dir, st.Problems)
	}
	out := make(map[string][]byte, len(st.Records))
	for i := range st.Records {
		out[st.Records[i].Cell.Key()] = canonical(&st.Records[i])
	}
	return out
}

// sameRecords fails the test unless got holds exactly the records of want.
func sameRecords(t *testing.T, got, want map[string][]byte) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%d records, want %d", len(got), len(want))
	}
	for k, w := range want {
		g, ok := got[k]
		switch {
		case !ok:
			t.Errorf("record %s is missing", k)
		case !bytes.Equal(g, w):
			t.Errorf("record %s differs:\n got %.300s\nwant %.300s", k, g, w)
		}
	}
}

func TestRunner(t *testing.T) {
	p := tinyPlan(t, "")
	refDir := run(t, p, RunOptions{Workers: 1})
	ref := records(t, refDir)
	if len(ref) != 20 {
		t.Fatalf("reference run stored %d records, want 20", len(ref))
	}
	st, err := LoadStudy(refDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range st.Records {
		if r.Error != "" || len(r.Trace.TrainMSE) != 120 || r.TestEntries == 0 || !(r.Metrics.TestMSE > 0) || !(r.Metrics.SecondsPerSweep > 0) {
			t.Errorf("record %s: error %q, %d sweeps traced, %d test entries, test MSE %v, %v s/sweep",
				r.Cell, r.Error, len(r.Trace.TrainMSE), r.TestEntries, r.Metrics.TestMSE, r.Metrics.SecondsPerSweep)
		}
	}

	t.Run("workers 2 give identical records", func(t *testing.T) {
		sameRecords(t, records(t, run(t, p, RunOptions{Workers: 2})), ref)
	})

	t.Run("cores split within cells give identical records", func(t *testing.T) {
		// Two cells on four cores: each chain gets two sampler workers.
		got := records(t, run(t, p, RunOptions{Workers: 4, Shard: Shard{Index: 1, Count: 10}}))
		if len(got) != 2 {
			t.Fatalf("%d records, want 2", len(got))
		}
		for k, g := range got {
			if !bytes.Equal(g, ref[k]) {
				t.Errorf("record %s differs from the one-worker run's", k)
			}
		}
	})

	t.Run("rerun resumes and runs nothing", func(t *testing.T) {
		sum, err := p.Run(context.Background(), RunOptions{Workers: 1, Output: refDir})
		if err != nil {
			t.Fatal(err)
		}
		if sum.Stored != 20 || sum.Ran != 0 {
			t.Errorf("rerun: %d stored, %d ran; want 20, 0", sum.Stored, sum.Ran)
		}
	})

	t.Run("a changed config is refused", func(t *testing.T) {
		changed := tinyPlan(t, "thin: 2\n")
		_, err := changed.Run(context.Background(), RunOptions{Output: refDir})
		if err == nil || !strings.Contains(err.Error(), "holds results of a different config") || !strings.Contains(err.Error(), "--force") {
			t.Fatalf("got error %v, want a refusal that mentions --force", err)
		}
		if got := records(t, refDir); len(got) != 20 {
			t.Errorf("the refusal touched the store: %d records left", len(got))
		}
	})

	t.Run("adding a model changes no other cell", func(t *testing.T) {
		only := tinyPlan(t, "models: [{name: GRRN}]\n")
		st, err := LoadStudy(run(t, only, RunOptions{Workers: 2}))
		if err != nil {
			t.Fatal(err)
		}
		refStudy, err := LoadStudy(refDir)
		if err != nil {
			t.Fatal(err)
		}
		byKey := make(map[string]Record)
		for _, r := range refStudy.Records {
			byKey[r.Cell.Key()] = r
		}
		for _, r := range st.Records {
			want := byKey[r.Cell.Key()]
			if r.Seed != want.Seed || r.Metrics.TestMSE != want.Metrics.TestMSE || !reflect.DeepEqual(r.Trace.TrainMSE, want.Trace.TrainMSE) {
				t.Errorf("cell %s: seed %#x, test MSE %v; with all models %#x, %v", r.Cell, r.Seed, r.Metrics.TestMSE, want.Seed, want.Metrics.TestMSE)
			}
		}
	})

	t.Run("shards merged equal one run", func(t *testing.T) {
		var dirs []string
		for i := range 3 {
			dir := run(t, p, RunOptions{Workers: 1, Shard: Shard{Index: i, Count: 3}})
			got := records(t, dir)
			for j, c := range p.Manifest.Cells {
				if _, ok := got[c.Key()]; ok != (j%3 == i) {
					t.Errorf("shard %d/3: cell %d (%s) stored %v", i, j, c, ok)
				}
			}
			dirs = append(dirs, dir)
		}
		out := filepath.Join(t.TempDir(), "merged")
		if _, err := Merge(out, dirs, MergeOptions{}); err != nil {
			t.Fatal(err)
		}
		sameRecords(t, records(t, out), ref)
	})

	t.Run("a repeats limit runs the first repeats and resuming completes", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "study")
		sum, err := p.Run(context.Background(), RunOptions{Workers: 2, Output: dir, Repeats: 1})
		if err != nil {
			t.Fatal(err)
		}
		if sum.Cells != 10 || sum.Ran != 10 || sum.Deferred != 10 {
			t.Errorf("limited run: %d cells, %d ran, %d deferred; want 10, 10, 10", sum.Cells, sum.Ran, sum.Deferred)
		}
		for k, rec := range records(t, dir) {
			if !strings.HasSuffix(k, "-r0") {
				t.Errorf("limited run stored %s", k)
			}
			if !bytes.Equal(rec, ref[k]) {
				t.Errorf("record %s differs from the full run's", k)
			}
		}
		sum, err = p.Run(context.Background(), RunOptions{Workers: 2, Output: dir})
		if err != nil {
			t.Fatal(err)
		}
		if sum.Stored != 10 || sum.Ran != 10 || sum.Deferred != 0 {
			t.Errorf("resumed run: %d stored, %d ran, %d deferred; want 10, 10, 0", sum.Stored, sum.Ran, sum.Deferred)
		}
		sameRecords(t, records(t, dir), ref)
		if _, err := p.Run(context.Background(), RunOptions{Output: dir, Repeats: -1}); err == nil {
			t.Error("a negative repeats limit was accepted")
		}
	})

	t.Run("a cancelled context leaves no partial record", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "study")
		runCancelled(t, p, RunOptions{Workers: 2, Output: dir})
		got := records(t, dir)
		if len(got) == 0 || len(got) == len(ref) {
			t.Fatalf("%d of %d records after cancelling; want some but not all", len(got), len(ref))
		}
		for k, g := range got {
			if !bytes.Equal(g, ref[k]) {
				t.Errorf("record %s differs from the uninterrupted run's", k)
			}
		}
		if temps := tempFiles(t, dir); len(temps) > 0 {
			t.Errorf("temporary files left: %v", temps)
		}
	})

	t.Run("a killed run resumes to the same records", func(t *testing.T) {
		checkKilledRunResumes(t, p, ref, "TestChildStudy", "BNMF_EXPERIMENTS_CHILD_DIR", 3)
	})
}

// runCancelled runs p with opts until opts.Output holds a record, then
// cancels the run and checks that Run returns context.Canceled.
func runCancelled(t *testing.T, p *Plan, opts RunOptions) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error)
	go func() {
		_, err := p.Run(ctx, opts)
		done <- err
	}()
	waitForRecords(t, opts.Output, 1)
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("Run returned %v, want context.Canceled", err)
	}
}

// checkKilledRunResumes starts the test binary's test child, which runs
// p's study into the directory named by the environment variable dirEnv,
// kills it once that directory holds killAfter records, and
// checks that running p again with two workers keeps the records the
// child stored, runs the others and ends with the records ref. It skips
// under -short.
func checkKilledRunResumes(t *testing.T, p *Plan, ref map[string][]byte, child, dirEnv string, killAfter int) {
	t.Helper()
	if testing.Short() {
		t.Skip("starts a child process")
	}
	dir := filepath.Join(t.TempDir(), "study")
	cmd := exec.Command(os.Args[0], "-test.run=^"+child+"$")
	cmd.Env = append(os.Environ(), dirEnv+"="+dir)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waitForRecords(t, dir, killAfter)
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err == nil {
		t.Fatalf("the child finished before it was killed:\n%s", out.Bytes())
	}
	killed := records(t, dir)
	if len(killed) >= len(ref) {
		t.Fatalf("the child stored all %d records before it was killed", len(killed))
	}
	sum, err := p.Run(context.Background(), RunOptions{Workers: 2, Output: dir})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Stored != len(killed) || sum.Ran != len(ref)-len(killed) {
		t.Errorf("resume: %d stored, %d ran; want %d, %d", sum.Stored, sum.Ran, len(killed), len(ref)-len(killed))
	}
	sameRecords(t, records(t, dir), ref)
}

// TestChildStudy runs tinyStudy into $BNMF_EXPERIMENTS_CHILD_DIR for the
// killed-run test; it is skipped otherwise.
func TestChildStudy(t *testing.T) {
	dir := os.Getenv("BNMF_EXPERIMENTS_CHILD_DIR")
	if dir == "" {
		t.Skip("runs only as the child of TestRunner")
	}
	p := tinyPlan(t, "")
	if _, err := p.Run(context.Background(), RunOptions{Workers: 1, Output: dir}); err != nil {
		t.Fatal(err)
	}
}

// waitForRecords waits until dir/records holds at least n records.
func waitForRecords(t *testing.T, dir string, n int) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second) // far beyond the second a tiny study takes
	for time.Now().Before(deadline) {
		entries, err := os.ReadDir(filepath.Join(dir, RecordsDir))
		if err == nil {
			count := 0
			for _, e := range entries {
				if !atomicfile.IsTemp(e.Name()) {
					count++
				}
			}
			if count >= n {
				return
			}
		}
		time.Sleep(time.Millisecond)
	}
	t.Fatalf("%s did not reach %d records in time", dir, n)
}

func tempFiles(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(dir, RecordsDir))
	if err != nil {
		t.Fatal(err)
	}
	var temps []string
	for _, e := range entries {
		if atomicfile.IsTemp(e.Name()) {
			temps = append(temps, e.Name())
		}
	}
	return temps
}
