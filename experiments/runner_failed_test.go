package experiments

// The runner's tests of failed cells: their records, retries, and the
// revision a record names (runner_test.go has the runner's others).

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bnmf-lab/bnmf/bnmf"
)

// TestFailedCellsAreRecorded checks that a cell whose chain fails gets a
// record holding the error, naming the bad hyperparameter, and that a
// rerun skips it rather than running it again.
func TestFailedCellsAreRecorded(t *testing.T) {
	p := tinyPlan(t, "models: [{name: GEE}, {name: NMF}]\n")
	// Config validation rejects a negative rate; set one behind its back
	// so that bnmf.Run fails for every GEE cell.
	p.models["GEE"] = bnmf.GEE{Lambda: -1}
	dir := filepath.Join(t.TempDir(), "study")
	for _, pass := range []struct {
		name              string
		stored, ran, fail int
	}{{"first run", 0, 8, 4}, {"rerun skips failed cells", 8, 0, 4}} {
		sum, err := p.Run(context.Background(), RunOptions{Workers: 2, Output: dir})
		if err != nil {
			t.Fatal(err)
		}
		if sum.Stored != pass.stored || sum.Ran != pass.ran || sum.Failed != pass.fail {
			t.Errorf("%s: %d stored, %d ran, %d failed; want %d, %d, %d", pass.name, sum.Stored, sum.Ran, sum.Failed, pass.stored, pass.ran, pass.fail)
		}
	}
	st, err := LoadStudy(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range st.Records {
		if failed := r.Error != ""; failed != (r.Cell.Model == "GEE") {
			t.Errorf("cell %s: error %q", r.Cell, r.Error)
		}
		if r.Cell.Model == "GEE" && !strings.Contains(r.Error, "Lambda") {
			t.Errorf("cell %s: error %q does not name the bad hyperparameter", r.Cell, r.Error)
		}
	}
}

// TestRetryFailed checks that --retry-failed reruns exactly the failed
// cells of a compacted store, that the new records win over the failed
// ones, and that compacting again leaves one successful record per cell.
func TestRetryFailed(t *testing.T) {
	p := tinyPlan(t, "models: [{name: GEE}, {name: NMF}]\n")
	good := p.models["GEE"]
	p.models["GEE"] = bnmf.GEE{Lambda: -1} // every GEE cell fails
	dir := filepath.Join(t.TempDir(), "study")
	if _, err := p.Run(context.Background(), RunOptions{Workers: 2, Output: dir}); err != nil {
		t.Fatal(err)
	}
	if err := Compact(dir); err != nil {
		t.Fatal(err)
	}
	p.models["GEE"] = good
	sum, err := p.Run(context.Background(), RunOptions{Workers: 2, Output: dir, RetryFailed: true})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Stored != 4 || sum.Ran != 4 || sum.Failed != 0 {
		t.Errorf("retry: %d stored, %d ran, %d failed; want 4, 4, 0", sum.Stored, sum.Ran, sum.Failed)
	}
	if err := Compact(dir); err != nil {
		t.Fatal(err)
	}
	// The retried study equals a study run without failures.
	sameRecords(t, records(t, dir), records(t, run(t, p, RunOptions{Workers: 2})))
}

// TestRevisionIsRecorded checks that a revision given to Prepare, as
// build.sh has bnmf give one, is what every record names, in place of the build's.
func TestRevisionIsRecorded(t *testing.T) {
	cfg, err := ParseConfig("tiny.yaml", []byte(tinyStudy+"models: [{name: NMF}]\n"))
	if err != nil {
		t.Fatal(err)
	}
	const rev = "0123456789abcdef+dirty"
	p, err := Prepare(cfg, PrepareOptions{Revision: rev})
	if err != nil {
		t.Fatal(err)
	}
	st, err := LoadStudy(run(t, p, RunOptions{}))
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Records) != 4 {
		t.Fatalf("%d records, want 4", len(st.Records))
	}
	for _, r := range st.Records {
		if r.Versions.Module != rev {
			t.Errorf("record %s names revision %q, want %q", r.Cell.Key(), r.Versions.Module, rev)
		}
	}
}
