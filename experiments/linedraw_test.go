package experiments

import (
	"strings"
	"testing"

	"github.com/bnmf-lab/bnmf/bnmf"
)

// TestLineDrawConfig checks GEG's, GVG's and GVnG's z_draw and GLL's and
// GLLI's draw in a study config: set to entries, the default, the hash is
// that of a config that does not set them, so that stored studies keep
// theirs; set to rows, the hash changes and the model draws its lines as
// blocks; any other value, or the key on a model without it, is an error
// that names the model entry and the key.
func TestLineDrawConfig(t *testing.T) {
	src := func(models string) string {
		return "kind: sparsity\ndataset:\n  name: synthetic\n  synthetic: {rows: 20, cols: 30, rank: 2, density: 0.3, noise_std: 0.5, seed: 7}\n" +
			"models: [" + models + "]\nranks: [2]\nfractions: [0.8]\nrepeats: 1\nsweeps: 10\nburn_in: 5\n"
	}
	parse := func(models string) *Config {
		t.Helper()
		cfg, err := ParseConfig("draw.yaml", []byte(src(models)))
		if err != nil {
			t.Fatal(err)
		}
		return cfg
	}
	for _, tc := range []struct {
		name, model, key string // name: the model entry up to the key
		rows             bnmf.Model
	}{
		{"GEG", "{name: GEG, lambda: 0.5", "z_draw", bnmf.GEG{Lambda: 0.5, ZDraw: bnmf.DrawRows}},
		{"GLL", "{name: GLL", "draw", bnmf.GLL{Draw: bnmf.DrawRows}},
		{"GEG+b", "{name: GEG, biases: true", "z_draw", bnmf.Biased{Model: bnmf.GEG{ZDraw: bnmf.DrawRows}}},
		{"GLLI", "{name: GLLI", "draw", bnmf.GLLI{Draw: bnmf.DrawRows}},
		{"GVG", "{name: GVG, gamma: 0.5", "z_draw", bnmf.GVG{Gamma: 0.5, ZDraw: bnmf.DrawRows}},
		{"GVnG", "{name: GVnG, gamma: 1.0e-30", "z_draw", bnmf.GVnG{Gamma: 1e-30, ZDraw: bnmf.DrawRows}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			plain := parse(tc.model + "}")
			entries := parse(tc.model + ", " + tc.key + ": entries}")
			rows := parse(tc.model + ", " + tc.key + ": rows}")
			if mustHash(t, entries) != mustHash(t, plain) {
				t.Errorf("%s: entries changed the config hash", tc.key)
			}
			if mustHash(t, rows) == mustHash(t, plain) {
				t.Errorf("%s: rows kept the config hash", tc.key)
			}
			if m := mustModel(t, rows); m != tc.rows {
				t.Errorf("%s: rows configured %#v, want %#v", tc.key, m, tc.rows)
			}
			if m := mustModel(t, entries); m != mustModel(t, plain) {
				t.Errorf("%s: entries configured %#v, want the default %#v", tc.key, m, mustModel(t, plain))
			}
			_, err := ParseConfig("bad.yaml", []byte(src(tc.model+", "+tc.key+": columns}")))
			if err == nil || !strings.Contains(err.Error(), "models[0]."+tc.key) || !strings.Contains(err.Error(), `unknown `+tc.key+` "columns" for `+tc.name) {
				t.Errorf("%s: columns gave error %v, want one at models[0].%s naming the value", tc.key, err, tc.key)
			}
		})
	}
	if _, err := ParseConfig("bad.yaml", []byte(src("{name: GEE, z_draw: rows}"))); err == nil || !strings.Contains(err.Error(), "GEE has no hyperparameter z_draw (it applies to [GVG GVnG GEG])") {
		t.Errorf("z_draw on GEE gave error %v", err)
	}
}

// mustModel returns the first model of cfg.
func mustModel(t *testing.T, cfg *Config) bnmf.Model {
	t.Helper()
	m, err := cfg.Models[0].Model()
	if err != nil {
		t.Fatal(err)
	}
	return m
}
