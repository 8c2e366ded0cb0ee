package experiments

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// TestAddingModelsKeepsRecords runs a study, then the same study with
// models added, removed or changed, into one directory: an edit of the
// models list alone keeps (and does not rerun) the records of the models
// the configs share; an edit of a kept model's hyperparameters or of a
// shared setting is another config and is refused.
func TestAddingModelsKeepsRecords(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "study")
	runIn := func(models string, extra ...string) (RunSummary, error) {
		t.Helper()
		src := tinyStudy + models + strings.Join(extra, "")
		p := preparePlan(t, "tiny.yaml", src)
		return p.Run(context.Background(), RunOptions{Output: dir, Workers: 2})
	}
	first, err := runIn("models: [{name: GRRN}, {name: NMF}]\n")
	if err != nil || first.Ran != 8 {
		t.Fatalf("first run: %+v, %v; want 8 cells run", first, err)
	}
	before := records(t, dir)

	added, err := runIn("models: [{name: GRRN}, {name: ColumnMean}, {name: NMF}, {name: Bias}]\n")
	if err != nil {
		t.Fatal(err)
	}
	if added.Ran != 8 || added.Stored != 8 {
		t.Errorf("after adding two models: ran %d and found %d stored, want the 8 new cells run and the 8 old kept", added.Ran, added.Stored)
	}
	after := records(t, dir) // fails on any problem, such as a refused record
	if len(after) != 16 {
		t.Fatalf("%d records after adding models, want 16", len(after))
	}
	for key, b := range before {
		if string(after[key]) != string(b) {
			t.Errorf("record %s changed when models were added", key)
		}
	}

	// Removing NMF keeps GRRN's and the baselines' records valid; NMF's
	// stay on disk as records of a cell the manifest no longer lists.
	removed, err := runIn("models: [{name: GRRN}, {name: ColumnMean}, {name: Bias}]\n")
	if err != nil || removed.Ran != 0 || removed.Stored != 12 {
		t.Errorf("after removing NMF: %+v, %v; want nothing run and 12 stored", removed, err)
	}
	st, err := LoadStudy(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Records) != 12 || len(st.Problems) != 4 {
		t.Errorf("after removing NMF: %d records and problems %q; want 12 and NMF's 4 records listed", len(st.Records), st.Problems)
	}
	// Adding NMF back with other hyperparameters must not revive the old
	// NMF records: it is a model the configs do not share unchanged.
	revived, err := runIn("models: [{name: GRRN}, {name: ColumnMean}, {name: Bias}, {name: NMF, objective: i-divergence}]\n")
	if err != nil || revived.Ran != 4 {
		t.Errorf("adding NMF back with another objective: %+v, %v; want its 4 cells run anew", revived, err)
	}

	for name, models := range map[string]string{
		"a kept model's hyperparameters": "models: [{name: GRRN, a: 2}, {name: ColumnMean}, {name: Bias}, {name: NMF, objective: i-divergence}]\n",
		"a shared setting":               "models: [{name: GRRN}]\nthin: 2\n",
	} {
		if _, err := runIn(models); err == nil || !strings.Contains(err.Error(), "different config") {
			t.Errorf("changing %s: err = %v, want a refusal naming a different config", name, err)
		}
	}
}
