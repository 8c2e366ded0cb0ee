package experiments

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
)

// Cell identity across config edits. A cell's numbers depend only on its
// own identity (its model and that model's hyperparameters, rank, grid
// value and repeat) and on the study's shared settings (dataset, seed,
// sweeps and the rest), never on which other models the study lists: seeds,
// splits and noise are derived without them (see CellSeed). So a config
// edited only by adding or removing models keeps the records of the models
// it shares with the config before, provided their hyperparameters are
// unchanged: when such an edit is run
// into the same directory, the new manifest lists the old config hash in
// Compatible with the models whose records it keeps, and those records are
// used as they are. Any other edit (a shared setting, or a kept model's
// hyperparameters) is a different config, refused as before.

// Accepts reports whether r was made under m's config: its config hash is
// m's, or one that m lists as compatible for r's model.
func (m *Manifest) Accepts(r *Record) bool {
	return r.ConfigHash == m.ConfigHash || slices.Contains(m.Compatible[r.ConfigHash], r.Cell.Model)
}

// compatibility returns the Compatible map of a study whose config is now
// c and whose directory holds the results of the config old (its manifest)
// and oldSrc (its config.yaml), or false when the two configs differ in
// more than their lists of models. Earlier compatible hashes carry over
// for the models that stayed unchanged.
func compatibility(c *Config, old Manifest, oldSrc []byte) (map[string][]string, bool) {
	oldCfg, err := ParseConfig(ConfigFile, oldSrc)
	if err != nil {
		return nil, false
	}
	oldCfg.dataSHA256 = c.dataSHA256
	if h, err := oldCfg.Hash(); err != nil || h != old.ConfigHash {
		// Not the config that made the manifest, or its data file changed.
		return nil, false
	}
	base := func(x *Config) (string, bool) {
		y := *x
		y.Models = nil
		h, err := y.Hash()
		return h, err == nil
	}
	hOld, ok1 := base(oldCfg)
	hNew, ok2 := base(c)
	if !ok1 || !ok2 || hOld != hNew {
		return nil, false
	}
	var kept []string // models in both configs, which must be unchanged
	for i := range c.Models {
		j := slices.IndexFunc(oldCfg.Models, func(m ModelConfig) bool { return m.Key() == c.Models[i].Key() })
		if j < 0 {
			continue
		}
		a, errA := c.Models[i].hashJSON()
		b, errB := oldCfg.Models[j].hashJSON()
		if errA != nil || errB != nil || !bytes.Equal(a, b) {
			return nil, false // a model's hyperparameters changed
		}
		kept = append(kept, c.Models[i].Key())
	}
	out := make(map[string][]string)
	carry := func(hash string, models []string) {
		var ms []string
		for _, m := range models {
			if slices.Contains(kept, m) {
				ms = append(ms, m)
			}
		}
		if len(ms) > 0 {
			out[hash] = ms
		}
	}
	for hash, models := range old.Compatible {
		carry(hash, models)
	}
	carry(old.ConfigHash, old.Models)
	if len(out) == 0 {
		return nil, true
	}
	return out, true
}

// readConfigSource returns the bytes of dir's config.yaml, or nil.
func readConfigSource(dir string) []byte {
	b, err := os.ReadFile(filepath.Join(dir, ConfigFile))
	if err != nil {
		return nil
	}
	return b
}
