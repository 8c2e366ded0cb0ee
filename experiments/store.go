package experiments

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/bnmf-lab/bnmf/internal/atomicfile"
	"github.com/bnmf-lab/bnmf/internal/claim"
)

// Files of a study's output directory. records/ holds one JSON file per
// cell, named by its key; CompactedRecords holds the same records as gzip
// JSON Lines, one record per line, for committing large results.
// ClaimsDir holds the claims of the cells being run (see package
// internal/claim), and runs lock LockFile for their whole life (see
// Plan.Run); it holds nothing and is never removed, so that every
// process locks the same file.
const (
	ConfigFile       = "config.yaml"
	ManifestFile     = "manifest.json"
	RecordsDir       = "records"
	CompactedRecords = "records.jsonl.gz"
	ClaimsDir        = "claims"
	LockFile         = "run.lock"
)

// LiveClaims lists the cells of the study in dir that a live process
// holds, as "KEY (host HOST, pid PID)", sorted.
func LiveClaims(dir string) ([]string, error) {
	return claim.Live(filepath.Join(dir, ClaimsDir))
}

// encodeRecord returns r as one line of JSON.
func encodeRecord(r *Record) ([]byte, error) {
	b, err := json.Marshal(r)
	if err != nil {
		return nil, fmt.Errorf("encoding record %s: %w", r.Cell.Key(), err)
	}
	return append(b, '\n'), nil
}

// writeRecord stores r in dir/records/<key>.json atomically.
func writeRecord(dir string, r *Record) error {
	b, err := encodeRecord(r)
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(filepath.Join(dir, RecordsDir, r.Cell.Key()+".json"), b)
}

// readManifest reads dir/manifest.json.
func readManifest(dir string) (Manifest, error) {
	var m Manifest
	path := filepath.Join(dir, ManifestFile)
	b, err := os.ReadFile(path)
	if err != nil {
		return m, err
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return m, fmt.Errorf("%s: %w", path, err)
	}
	if m.Version > RecordVersion {
		return m, fmt.Errorf("%s: manifest version %d is newer than this program's %d; update bnmf", path, m.Version, RecordVersion)
	}
	return m, nil
}

// initStore prepares dir to receive the records of the study described by
// c and m. A directory holding another config's results (a different
// hash) is refused unless force, which first removes the study files
// (config, manifest and records) that are there; other files are left
// alone. A config that differs from the stored one only in its list of
// models is not another config: m then names the stored hash as
// compatible, and the records of the models the two share stay valid.
// Leftover temporary files of killed writers are removed.
func initStore(dir string, c *Config, m *Manifest, force bool) error {
	old, err := readManifest(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil && !force:
		return fmt.Errorf("%w (run with --force to discard this directory's results and start over)", err)
	case err == nil && !force && old.ConfigHash == m.ConfigHash:
		m.Compatible = old.Compatible
	case err == nil && !force:
		comp, ok := compatibility(c, old, readConfigSource(dir))
		if !ok {
			return fmt.Errorf("%s holds results of a different config (hash %.12s, now %.12s): "+
				"set another output directory (output: in the config, or --out) to keep them, "+
				"or run again with --force to discard them and start over", dir, old.ConfigHash, m.ConfigHash)
		}
		m.Compatible = comp
	}
	if force && !errors.Is(err, fs.ErrNotExist) {
		live, lerr := LiveClaims(dir)
		if lerr != nil {
			return fmt.Errorf("checking %s for running processes: %w", dir, lerr)
		}
		if len(live) > 0 {
			return fmt.Errorf("%s: --force refused while another process runs this study there: it holds %d cell(s), such as %s; stop it first",
				dir, len(live), live[0])
		}
		for _, name := range []string{ManifestFile, ConfigFile, CompactedRecords, RecordsDir, ClaimsDir} {
			if err := os.RemoveAll(filepath.Join(dir, name)); err != nil {
				return fmt.Errorf("starting over in %s: %w", dir, err)
			}
		}
	}
	if err := os.MkdirAll(filepath.Join(dir, RecordsDir), 0o755); err != nil {
		return err
	}
	// Killed writers leave temporary files in the study's root (config
	// and manifest), in records/ and in claims/.
	for _, sub := range []string{".", RecordsDir, ClaimsDir} {
		if err := removeTemps(filepath.Join(dir, sub)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	if err := atomicfile.WriteFile(filepath.Join(dir, ConfigFile), c.source); err != nil {
		return err
	}
	return writeManifest(dir, m)
}

// writeManifest writes m as dir/manifest.json atomically.
func writeManifest(dir string, m *Manifest) error {
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return fmt.Errorf("encoding manifest: %w", err)
	}
	return atomicfile.WriteFile(filepath.Join(dir, ManifestFile), append(b, '\n'))
}

// staleAfter is the age past which a temporary file is taken to be the
// leftover of a killed writer rather than a write in progress by another
// shard sharing the directory (a record takes milliseconds to write). A
// file whose writer is known to be gone is removed at once (see
// atomicfile.Abandoned).
const staleAfter = 10 * time.Minute

// removeTemps removes the temporary files that killed writers left in dir:
// those whose writer, a process of this host, no longer runs, and those
// older than staleAfter, whoever wrote them. A file that a live process
// may still rename into place is kept. Claims' temporary files of earlier
// versions, which record no writer (".claim-*" and "*.claim.stale-*"),
// are removed by age.
func removeTemps(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		name := e.Name()
		legacyClaim := strings.HasPrefix(name, ".claim-") || strings.Contains(name, ".claim.stale-")
		if e.IsDir() || !atomicfile.IsTemp(name) && !legacyClaim {
			continue
		}
		info, err := e.Info()
		if errors.Is(err, fs.ErrNotExist) {
			continue // removed meanwhile
		}
		if err != nil {
			return err
		}
		if atomicfile.Abandoned(e.Name()) || time.Since(info.ModTime()) > staleAfter {
			if err := os.Remove(filepath.Join(dir, e.Name())); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
		}
	}
	return nil
}
