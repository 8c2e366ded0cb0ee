package experiments

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/bnmf-lab/bnmf/internal/atomicfile"
)

// LoadStudy reads the study in dir: its manifest and every record, from
// records/ and from records.jsonl.gz (either or both may be present). The
// records come back in the order of Manifest.Cells. Nothing found is
// silently dropped: a record that cannot be read, that belongs to another
// config (a different hash), that has a newer schema version, names a cell
// the manifest lacks, or repeats a cell with different content is listed in
// Study.Problems instead; the exception is a cell stored both failed and
// successful (a failed cell that was run again, see RunOptions.RetryFailed),
// where the successful record is used, and a cell that failed in both
// forms, where the one under records/, the later, is used. A missing or
// unreadable manifest is an error.
func LoadStudy(dir string) (*Study, error) {
	m, err := readManifest(dir)
	if err != nil {
		return nil, fmt.Errorf("loading study: %w", err)
	}
	st := &Study{Dir: dir, Manifest: m}
	if src := readConfigSource(dir); src != nil {
		if cfg, err := ParseConfig(filepath.Join(dir, ConfigFile), src); err == nil {
			st.Config = cfg
		}
	}
	order := make(map[string]int, len(m.Cells))
	for i, c := range m.Cells {
		order[c.Key()] = i
	}
	found := make(map[string]foundRecord)
	add := func(where string, r *Record, err error) {
		if err != nil {
			st.Problems = append(st.Problems, fmt.Sprintf("%s: unreadable record: %v", where, err))
			return
		}
		key := r.Cell.Key()
		switch {
		case r.Version > RecordVersion:
			st.Problems = append(st.Problems, fmt.Sprintf("%s: record version %d is newer than this program's %d", where, r.Version, RecordVersion))
			return
		case !m.Accepts(r):
			st.Problems = append(st.Problems, fmt.Sprintf("%s: record of another config (hash %.12s, the manifest's is %.12s)", where, r.ConfigHash, m.ConfigHash))
			return
		}
		if _, ok := order[key]; !ok {
			st.Problems = append(st.Problems, fmt.Sprintf("%s: cell %s is not in the manifest", where, key))
			return
		}
		if prev, ok := found[key]; ok {
			switch {
			case prev.r.Error != "" && r.Error == "":
				// A retried cell that succeeded: use it.
			case prev.r.Error != "" && r.Error != "":
				// Failed again: the later record (records/ is read
				// after the compacted file) says how.
			case prev.r.Error == "" && r.Error != "":
				return // a failure superseded by a successful record
			default:
				if !bytes.Equal(prev.canonical, canonical(r)) {
					st.Problems = append(st.Problems, fmt.Sprintf("%s: cell %s also stored in %s with other numbers; kept %s", where, key, prev.where, prev.where))
				}
				return
			}
		}
		found[key] = foundRecord{r: r, where: where, canonical: canonical(r)}
	}
	if err := readCompacted(filepath.Join(dir, CompactedRecords), add); err != nil {
		return nil, fmt.Errorf("loading study %s: %w", dir, err)
	}
	if err := readRecordFiles(filepath.Join(dir, RecordsDir), func(where string, info os.FileInfo, r *Record, err error) {
		st.recordFiles = append(st.recordFiles, recordFile{name: filepath.Base(where), info: info})
		add(where, r, err)
	}); err != nil {
		return nil, fmt.Errorf("loading study %s: %w", dir, err)
	}
	keys := make([]string, 0, len(found))
	for k := range found {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(a, b int) bool { return order[keys[a]] < order[keys[b]] })
	st.inFile = make(map[string]bool)
	for _, k := range keys {
		st.Records = append(st.Records, *found[k].r)
		if strings.HasPrefix(found[k].where, RecordsDir+string(filepath.Separator)) {
			st.inFile[k] = true
		}
	}
	return st, nil
}

type foundRecord struct {
	r         *Record
	where     string
	canonical []byte
}

// decodeRecord decodes one JSON record, refusing unknown fields so that a
// record from a newer schema or another program is noticed.
func decodeRecord(raw []byte) (*Record, error) {
	var r Record
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		var probe struct{ Version int }
		if json.Unmarshal(raw, &probe) == nil && probe.Version > RecordVersion {
			return &Record{Version: probe.Version}, nil
		}
		return nil, err
	}
	return &r, nil
}

// withoutTimes returns a copy of r with its wall times zeroed.
func withoutTimes(r *Record) Record {
	c := *r
	c.WallSeconds = 0
	c.Metrics.SecondsPerSweep = 0
	c.Trace.Seconds = nil
	if c.ChainMetrics != nil {
		c.ChainMetrics = append([]Metrics(nil), r.ChainMetrics...)
		for i := range c.ChainMetrics {
			c.ChainMetrics[i].SecondsPerSweep = 0
		}
	}
	if c.ChainTraces != nil {
		c.ChainTraces = append([]Trace(nil), r.ChainTraces...)
		for i := range c.ChainTraces {
			c.ChainTraces[i].Seconds = nil
		}
	}
	return c
}

// canonical returns r's encoding with wall times zeroed, the form in which
// two runs of the same cell agree.
func canonical(r *Record) []byte {
	c := withoutTimes(r)
	b, err := json.Marshal(&c)
	if err != nil {
		return nil // unreachable for a decoded record: JSON holds only finite numbers
	}
	return b
}

// readRecordFiles calls add for each record file in dir (a records/
// directory), in name order, with the file's information as listed before
// it was read. Temporary files are skipped; a missing directory holds no
// records.
func readRecordFiles(dir string, add func(where string, info os.FileInfo, r *Record, err error)) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || atomicfile.IsTemp(name) || !strings.HasSuffix(name, ".json") {
			continue
		}
		where := filepath.Join(RecordsDir, name)
		info, err := e.Info()
		if errors.Is(err, fs.ErrNotExist) {
			continue // removed since listed
		}
		if err != nil {
			add(where, nil, nil, err)
			continue
		}
		raw, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			add(where, info, nil, err)
			continue
		}
		r, err := decodeRecord(raw)
		if err == nil && r.Version <= RecordVersion && r.Cell.Key()+".json" != name {
			err = fmt.Errorf("the file name does not match its cell %s", r.Cell.Key())
		}
		add(where, info, r, err)
	}
	return nil
}

// readCompacted calls add for each line of a records.jsonl.gz file; a
// missing file holds no records.
func readCompacted(path string, add func(where string, r *Record, err error)) error {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close() // read-only: a close error loses nothing
	zr, err := gzip.NewReader(f)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 0, 1<<20), 1<<30)
	line := 0
	for sc.Scan() {
		line++
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		r, err := decodeRecord(sc.Bytes())
		add(fmt.Sprintf("%s:%d", CompactedRecords, line), r, err)
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s: line %d: %w", path, line+1, err)
	}
	return nil
}

// FindStudies returns the directories under root (root included) that hold
// a manifest.json, sorted. It does not descend into records/ directories.
func FindStudies(root string) ([]string, error) {
	var dirs []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		if d.Name() == RecordsDir && path != root {
			return filepath.SkipDir
		}
		if _, err := os.Stat(filepath.Join(path, ManifestFile)); err == nil {
			dirs = append(dirs, path)
		} else if !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("finding studies under %s: %w", root, err)
	}
	sort.Strings(dirs)
	return dirs, nil
}
