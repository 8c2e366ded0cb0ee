package experiments

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/bnmf-lab/bnmf/internal/atomicfile"
)

// MergeOptions controls Merge.
type MergeOptions struct {
	// Compact writes the merged records as one records.jsonl.gz instead
	// of one file per cell under records/.
	Compact bool
}

// Merge combines the result stores in dirs (typically the shards of one
// study, run on different machines) into the store at out, which may be
// one of dirs or hold records already; its records are merged too. Every
// store must hold the same config (the same hash): results of different
// configs are refused, never mixed. When a cell is stored more than once,
// a successful record is preferred over a failed one, and otherwise the
// first found (in the order of dirs, out last) is kept.
//
// The output ends up in one form, records/ or (with opts.Compact)
// records.jsonl.gz; the other is removed only after the new one is safely
// written, and of records/ only the files that were read: a record that a
// run still writing into out stores meanwhile is kept. Merge refuses when
// it would drop something it could not read: with opts.Compact, when any
// input has problems; without it, when out has. It returns the merged
// study; its Problems list everything the inputs held but the merge did
// not use.
func Merge(out string, dirs []string, opts MergeOptions) (*Study, error) {
	if len(dirs) == 0 {
		return nil, errors.New("merge: no input directories")
	}
	inputs := append([]string(nil), dirs...)
	if _, err := os.Stat(filepath.Join(out, ManifestFile)); err == nil && !containsDir(inputs, out) {
		inputs = append(inputs, out)
	}
	var (
		merged  *Study
		config  []byte
		records = make(map[string]Record)
		from    = make(map[string]string) // the input each record came from
		outRead []recordFile              // the record files read from out's records/
		outFile map[string]bool           // the keys of out's records read from records/
	)
	for _, dir := range inputs {
		st, err := LoadStudy(dir)
		if err != nil {
			return nil, fmt.Errorf("merge: %w", err)
		}
		if filepath.Clean(dir) == filepath.Clean(out) {
			outRead, outFile = st.recordFiles, st.inFile
			if !opts.Compact && len(st.Problems) > 0 {
				return nil, fmt.Errorf("merge: the output %s has %d problem(s), first %s, which rewriting it would drop; resolve them first",
					out, len(st.Problems), st.Problems[0])
			}
		}
		if merged == nil {
			merged = &Study{Dir: out, Manifest: st.Manifest}
		} else if st.Manifest.ConfigHash != merged.Manifest.ConfigHash {
			return nil, fmt.Errorf("merge: %s holds results of config %.12s but %s of config %.12s; "+
				"only shards of one config can be merged", dir, st.Manifest.ConfigHash, inputs[0], merged.Manifest.ConfigHash)
		}
		for _, p := range st.Problems {
			merged.Problems = append(merged.Problems, filepath.Join(dir, p))
		}
		if config == nil {
			if b, err := os.ReadFile(filepath.Join(dir, ConfigFile)); err == nil {
				config = b
			} else if !errors.Is(err, fs.ErrNotExist) {
				return nil, fmt.Errorf("merge: %w", err)
			}
		}
		for _, r := range st.Records {
			key := r.Cell.Key()
			if prev, ok := records[key]; !ok || (prev.Error != "" && r.Error == "") {
				records[key] = r
				from[key] = dir
			}
		}
	}
	if opts.Compact && len(merged.Problems) > 0 {
		return nil, fmt.Errorf("merge: the inputs have %d problem(s), first %s; "+
			"resolve them, or merge without compacting", len(merged.Problems), merged.Problems[0])
	}
	for _, c := range merged.Manifest.Cells {
		if r, ok := records[c.Key()]; ok {
			merged.Records = append(merged.Records, r)
		}
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, fmt.Errorf("merge: %w", err)
	}
	if config != nil {
		if err := atomicfile.WriteFile(filepath.Join(out, ConfigFile), config); err != nil {
			return nil, fmt.Errorf("merge: %w", err)
		}
	}
	if err := writeManifest(out, &merged.Manifest); err != nil {
		return nil, fmt.Errorf("merge: %w", err)
	}
	// Out's own record files stay as they are: rewriting one from the
	// copy read could undo a retry that replaced it meanwhile.
	keep := make(map[string]bool)
	for key, dir := range from {
		if filepath.Clean(dir) == filepath.Clean(out) && outFile[key] {
			keep[key] = true
		}
	}
	if err := writeRecords(out, merged.Records, opts.Compact, outRead, keep); err != nil {
		return nil, fmt.Errorf("merge: %w", err)
	}
	return merged, nil
}

// Compact rewrites the records of the study in dir as one gzip-compressed
// JSON Lines file, records.jsonl.gz, and then removes the files of
// records/ it read (records/ itself once empty). It refuses a study with
// problems, which compaction would otherwise drop.
func Compact(dir string) error {
	st, err := LoadStudy(dir)
	if err != nil {
		return fmt.Errorf("compact: %w", err)
	}
	if len(st.Problems) > 0 {
		return fmt.Errorf("compact: %s has %d problem(s), first %s; resolve them first", dir, len(st.Problems), st.Problems[0])
	}
	return writeRecords(dir, st.Records, true, st.recordFiles, nil)
}

// writeRecords stores records in dir as records/ or, if compact, as
// records.jsonl.gz. Once they are safe it removes the other form: the
// compacted file, or those files of records/ in read that are still the
// files that were read (not replaced since), and then records/ if nothing
// else is in it. Without compact, the records whose keys are in keep are
// already in records/ and are not written again.
func writeRecords(dir string, records []Record, compact bool, read []recordFile, keep map[string]bool) error {
	if !compact {
		if err := os.MkdirAll(filepath.Join(dir, RecordsDir), 0o755); err != nil {
			return err
		}
		for i := range records {
			if keep[records[i].Cell.Key()] {
				continue
			}
			if err := writeRecord(dir, &records[i]); err != nil {
				return err
			}
		}
		return os.RemoveAll(filepath.Join(dir, CompactedRecords))
	}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	for i := range records {
		b, err := encodeRecord(&records[i])
		if err != nil {
			return err
		}
		if _, err := zw.Write(b); err != nil {
			return err
		}
	}
	if err := zw.Close(); err != nil {
		return err
	}
	if err := atomicfile.WriteFile(filepath.Join(dir, CompactedRecords), buf.Bytes()); err != nil {
		return err
	}
	recordsDir := filepath.Join(dir, RecordsDir)
	for _, f := range read {
		path := filepath.Join(recordsDir, f.name)
		now, err := os.Lstat(path)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return err
		}
		if f.info == nil || !os.SameFile(f.info, now) {
			continue // replaced since it was read (an atomic write is a new file): keep it
		}
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	// A record written since it was read, or a temporary file of a
	// running chain, keeps records/ in place; one that a killed writer
	// left does not.
	if err := removeTemps(recordsDir); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	entries, err := os.ReadDir(recordsDir)
	if err != nil || len(entries) > 0 {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return err
	}
	return os.Remove(recordsDir)
}

// containsDir reports whether dirs names dir, compared as cleaned paths.
func containsDir(dirs []string, dir string) bool {
	for _, d := range dirs {
		if filepath.Clean(d) == filepath.Clean(dir) {
			return true
		}
	}
	return false
}
