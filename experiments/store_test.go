package experiments

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// fakeStudy writes a store holding a manifest of four cells and records
// for the given repeats of model "GRRN" at rank 2, and returns its
// directory.
func fakeStudy(t *testing.T, hash string, repeats ...int) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "study")
	m := Manifest{Version: RecordVersion, Study: "fake", Kind: KindConvergence, ConfigHash: hash, Models: []string{"GRRN"}, Ranks: []int{2}, Repeats: 4}
	for r := range 4 {
		m.Cells = append(m.Cells, Cell{Model: "GRRN", Rank: 2, Repeat: r})
	}
	if err := initStore(dir, &Config{source: []byte("kind: convergence\n")}, &m, false); err != nil {
		t.Fatal(err)
	}
	for _, r := range repeats {
		rec := fakeRecord(hash, r)
		if err := writeRecord(dir, &rec); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func fakeRecord(hash string, repeat int) Record {
	return Record{
		Version: RecordVersion, Study: "fake", Kind: KindConvergence, ConfigHash: hash,
		Cell:    Cell{Model: "GRRN", Rank: 2, Repeat: repeat},
		Seed:    uint64(repeat) + 1,
		Metrics: Metrics{TrainMSE: 0.5 + float64(repeat)},
		Trace:   Trace{TrainMSE: []float64{1, 0.5}, Sigma2: []float64{1, 1}, Seconds: []float64{0.1, 0.2}},
	}
}

func repeatsOf(st *Study) []int {
	var out []int
	for _, r := range st.Records {
		out = append(out, r.Cell.Repeat)
	}
	return out
}

func TestLoadStudyOrderAndProblems(t *testing.T) {
	dir := fakeStudy(t, "aaa", 3, 0, 2)
	write := func(name, content string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, RecordsDir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	foreign, err := json.Marshal(fakeRecord("bbb", 1))
	if err != nil {
		t.Fatal(err)
	}
	write("GRRN-k2-r1.json", string(foreign))
	write("GRRN-k9-r0.json", `{"version": 1, "config_hash": "aaa", "cell": {"model": "GRRN", "rank": 9, "repeat": 0}}`)
	write("broken.json", `{"version": 1, "config_ha`)
	write(".GRRN-k2-r1.json.tmp-123", `{"version": 1, "con`) // a killed writer's leftover: ignored
	write("notes.txt", "not a record")

	st, err := LoadStudy(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := repeatsOf(st), []int{0, 2, 3}; !reflect.DeepEqual(got, want) {
		t.Errorf("records of repeats %v, want %v in manifest order", got, want)
	}
	wantProblems := []string{
		"records/GRRN-k2-r1.json: record of another config",
		"records/GRRN-k9-r0.json: cell GRRN-k9-r0 is not in the manifest",
		"records/broken.json: unreadable record",
	}
	if len(st.Problems) != len(wantProblems) {
		t.Fatalf("problems %q, want %d", st.Problems, len(wantProblems))
	}
	for i, w := range wantProblems {
		if !strings.HasPrefix(st.Problems[i], w) {
			t.Errorf("problem %d is %q, want it to start %q", i, st.Problems[i], w)
		}
	}
}

func TestLoadStudyWithoutManifest(t *testing.T) {
	if _, err := LoadStudy(t.TempDir()); err == nil {
		t.Error("loaded a directory without a manifest")
	}
}

func TestCompact(t *testing.T) {
	dir := fakeStudy(t, "aaa", 0, 1, 3)
	before, err := LoadStudy(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := Compact(dir); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, RecordsDir)); !os.IsNotExist(err) {
		t.Errorf("records/ still there after compaction (stat error %v)", err)
	}
	after, err := LoadStudy(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(after.Records, before.Records) || len(after.Problems) > 0 {
		t.Errorf("compacted study has records %v and problems %v; want %v and none", repeatsOf(after), after.Problems, repeatsOf(before))
	}

	// A resumed run writes new records beside the compacted file; both
	// are read.
	rec := fakeRecord("aaa", 2)
	if err := os.MkdirAll(filepath.Join(dir, RecordsDir), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := writeRecord(dir, &rec); err != nil {
		t.Fatal(err)
	}
	both, err := LoadStudy(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := repeatsOf(both), []int{0, 1, 2, 3}; !reflect.DeepEqual(got, want) {
		t.Errorf("records of repeats %v, want %v", got, want)
	}
}

// TestCompactKeepsRecordsWrittenMeanwhile checks that compaction removes
// only the record files it read: a record that a running chain stores
// between the read and the removal is kept, and read with the rest.
func TestCompactKeepsRecordsWrittenMeanwhile(t *testing.T) {
	dir := fakeStudy(t, "aaa", 0)
	failed := fakeRecord("aaa", 1)
	failed.Error = "diverged"
	if err := writeRecord(dir, &failed); err != nil {
		t.Fatal(err)
	}
	st, err := LoadStudy(dir)
	if err != nil {
		t.Fatal(err)
	}
	// Meanwhile a run stores a new cell and a retry replaces the failure.
	late, retried := fakeRecord("aaa", 2), fakeRecord("aaa", 1)
	for _, r := range []*Record{&late, &retried} {
		if err := writeRecord(dir, r); err != nil {
			t.Fatal(err)
		}
	}
	if err := writeRecords(dir, st.Records, true, st.recordFiles, nil); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(filepath.Join(dir, RecordsDir))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if want := []string{"GRRN-k2-r1.json", "GRRN-k2-r2.json"}; !reflect.DeepEqual(names, want) {
		t.Errorf("records/ holds %v, want the retried and the late record %v", names, want)
	}
	after, err := LoadStudy(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := repeatsOf(after), []int{0, 1, 2}; !reflect.DeepEqual(got, want) || len(after.Problems) > 0 {
		t.Errorf("records of repeats %v and problems %v, want %v and none", got, after.Problems, want)
	}
	if after.Records[1].Error != "" {
		t.Errorf("repeat 1 reads as failed (%q); the retry's success was lost", after.Records[1].Error)
	}
}

// TestLoadStudyPrefersSuccess checks that a cell stored both failed and
// successful, in either form, is read as the successful record without a
// problem, and that of two failures the one under records/ is used.
func TestLoadStudyPrefersSuccess(t *testing.T) {
	failed := func(msg string) Record {
		r := fakeRecord("aaa", 1)
		r.Error = msg
		r.Metrics = Metrics{}
		return r
	}
	tests := []struct {
		name                string
		compacted, separate Record
		wantError           string
	}{
		{"retried and succeeded", failed("diverged"), fakeRecord("aaa", 1), ""},
		{"stale failure beside a success", fakeRecord("aaa", 1), failed("diverged"), ""},
		{"failed twice", failed("first"), failed("second"), "second"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := fakeStudy(t, "aaa", 0)
			if err := writeRecords(dir, []Record{fakeRecord("aaa", 0), tt.compacted}, true, nil, nil); err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(filepath.Join(dir, RecordsDir), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := writeRecord(dir, &tt.separate); err != nil {
				t.Fatal(err)
			}
			st, err := LoadStudy(dir)
			if err != nil {
				t.Fatal(err)
			}
			if len(st.Problems) > 0 || len(st.Records) != 2 {
				t.Fatalf("%d records and problems %v, want 2 and none", len(st.Records), st.Problems)
			}
			if got := st.Records[1].Error; got != tt.wantError {
				t.Errorf("record of repeat 1 has error %q, want %q", got, tt.wantError)
			}
		})
	}
}

// TestMergeRefusesToDropProblems checks that merging into a store whose
// compacted file holds an unreadable line is refused without compaction
// (which would delete the file) and leaves the file in place.
func TestMergeRefusesToDropProblems(t *testing.T) {
	out := fakeStudy(t, "aaa", 0)
	st, err := LoadStudy(out)
	if err != nil {
		t.Fatal(err)
	}
	if err := writeRecords(out, st.Records, true, st.recordFiles, nil); err != nil {
		t.Fatal(err)
	}
	gz := filepath.Join(out, CompactedRecords)
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	for _, line := range []string{`{"version": 1, "config_ha`} {
		if _, err := zw.Write([]byte(line + "\n")); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(gz, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	shard := fakeStudy(t, "aaa", 1)
	for _, compact := range []bool{false, true} {
		if _, err := Merge(out, []string{shard}, MergeOptions{Compact: compact}); err == nil || !strings.Contains(err.Error(), "problem") {
			t.Errorf("compact %v: merge into a store with an unreadable record gave %v, want a refusal", compact, err)
		}
		if _, err := os.Stat(gz); err != nil {
			t.Errorf("compact %v: the compacted file is gone: %v", compact, err)
		}
	}
}

func TestMerge(t *testing.T) {
	a := fakeStudy(t, "aaa", 0, 2)
	b := fakeStudy(t, "aaa", 1, 2)
	failed := fakeRecord("aaa", 3)
	failed.Error = "bnmf: non-finite value"
	if err := writeRecord(b, &failed); err != nil {
		t.Fatal(err)
	}
	for _, compact := range []bool{false, true} {
		out := filepath.Join(t.TempDir(), "merged")
		st, err := Merge(out, []string{a, b}, MergeOptions{Compact: compact})
		if err != nil {
			t.Fatal(err)
		}
		loaded, err := LoadStudy(out)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := repeatsOf(loaded), []int{0, 1, 2, 3}; !reflect.DeepEqual(got, want) {
			t.Errorf("compact %v: merged records of repeats %v, want %v", compact, got, want)
		}
		if !reflect.DeepEqual(loaded.Records, st.Records) {
			t.Errorf("compact %v: the returned study differs from the stored one", compact)
		}
		if _, err := os.Stat(filepath.Join(out, ConfigFile)); err != nil {
			t.Errorf("compact %v: no config copy: %v", compact, err)
		}
	}

	other := fakeStudy(t, "bbb", 1)
	_, err := Merge(filepath.Join(t.TempDir(), "merged"), []string{a, other}, MergeOptions{})
	if err == nil || !strings.Contains(err.Error(), "only shards of one config can be merged") {
		t.Errorf("merging different configs gave %v, want a refusal", err)
	}
}

func TestFindStudies(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"b/study", "a", "c/nothing"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range []string{"a", "b/study"} {
		if err := os.WriteFile(filepath.Join(root, d, ManifestFile), []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := FindStudies(root)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Join(root, "a"), filepath.Join(root, "b/study")}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("FindStudies = %v, want %v", got, want)
	}
}
