package experiments

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/bnmf-lab/bnmf/bnmf"
)

// multiplierKind is a kind on an axis that no kind of the program has:
// each cell trains on every observed entry times its multiplier. It is
// the whole of a kind on a new axis in package experiments: nothing
// outside this type had to change for it (a SettingAxis), as
// TestKindOnNewAxis checks.
type multiplierKind struct{}

func (multiplierKind) Name() string { return "multiplier" }
func (multiplierKind) Axis() Axis {
	return SettingAxis{AxisName: "value multiplier", AxisColumn: "multiplier"}
}
func (multiplierKind) HeldOut() bool { return false }

func (multiplierKind) validate(c *Config) error {
	if len(c.Fractions) > 0 || len(c.NoiseRatios) > 0 {
		return c.errorf("fractions", "a multiplier study has no split")
	}
	return nil
}

func (multiplierKind) hashed(h *hashed)         { h.NoiseHoldout, h.Coverage = 0, "" }
func (multiplierKind) grid(c *Config) []float64 { return c.Settings }

func (multiplierKind) prepare(_ context.Context, p *Plan) (cellSource, error) {
	return multiplierCells{p.data.Entries, p.data.Rows, p.data.Cols}, nil
}

type multiplierCells struct {
	entries    []bnmf.Entry
	rows, cols int
}

func (s multiplierCells) cellData(c Cell) (cellData, error) {
	scaled := slices.Clone(s.entries)
	for i := range scaled {
		scaled[i].Value *= c.Setting
	}
	m, err := bnmf.NewMatrix(s.rows, s.cols, scaled)
	return cellData{train: m}, err
}

func (multiplierCells) describe(*Manifest) {}

// multiplierConfig returns the config of a multiplier study on the
// synthetic matrix of studyPlan, with the given settings.
func multiplierConfig(t *testing.T, settings []float64) *Config {
	t.Helper()
	cfg, err := ParseConfig("study.yaml", []byte(`kind: convergence
dataset:
  name: synthetic
  synthetic: {rows: 40, cols: 60, rank: 3, density: 0.3, seed: 11}
models: [{name: GRRN}]
ranks: [3]
repeats: 2
sweeps: 30
burn_in: 10
`))
	if err != nil {
		t.Fatal(err)
	}
	cfg.kinds = append(Kinds(), multiplierKind{})
	cfg.Kind, cfg.Settings = "multiplier", settings
	return cfg
}

// TestKindOnNewAxis runs a study of a kind on a new axis (multiplierKind,
// a SettingAxis) through the runner: its cells, keys, seeds, records and
// manifest carry the axis with no field or switch added for it, and the
// settings key is checked for every kind.
func TestKindOnNewAxis(t *testing.T) {
	cfg := multiplierConfig(t, []float64{2, 0.5})
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	p, err := Prepare(cfg, PrepareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	m := p.Manifest
	if !slices.Equal(m.Settings, []float64{2, 0.5}) || m.SettingName != "value multiplier" || m.SettingColumn != "multiplier" {
		t.Errorf("manifest settings %v, name %q, column %q", m.Settings, m.SettingName, m.SettingColumn)
	}
	if a, _ := ManifestAxis(&Manifest{Kind: "from a newer program", SettingName: "value multiplier", SettingColumn: "multiplier"}); a != (SettingAxis{"value multiplier", "multiplier"}) {
		t.Errorf("ManifestAxis of an unknown kind with a setting axis = %#v", a)
	}
	recs := runRecords(t, p)
	var keys []string
	for k := range recs {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	want := []string{"GRRN-k3-s0.5-r0", "GRRN-k3-s0.5-r1", "GRRN-k3-s2-r0", "GRRN-k3-s2-r1"}
	if !slices.Equal(keys, want) {
		t.Fatalf("cells %v, want %v", keys, want)
	}
	for _, k := range keys {
		r := recs[k]
		if r.Seed != CellSeed(cfg.Seed, r.Cell) {
			t.Errorf("%s: seed %d, want CellSeed %d", k, r.Seed, CellSeed(cfg.Seed, r.Cell))
		}
		plain := r.Cell
		plain.Setting = 0
		if r.Seed == CellSeed(cfg.Seed, plain) {
			t.Errorf("%s: the setting does not enter the seed", k)
		}
	}
	// The same chain seeds on data 4 times as large: the train MSE of the
	// final sample differs (the chains are not a rescaling of each other,
	// the priors being fixed), and both are finite and positive.
	for _, rep := range []string{"r0", "r1"} {
		lo, hi := recs["GRRN-k3-s0.5-"+rep].Metrics.TrainMSE, recs["GRRN-k3-s2-"+rep].Metrics.TrainMSE
		if !(lo > 0 && hi > lo) {
			t.Errorf("%s: train MSE %v at multiplier 0.5 and %v at 2; want 0 < first < second", rep, lo, hi)
		}
	}

	for _, c := range []struct {
		name string
		cfg  func() *Config
		want string
	}{
		{"no settings", func() *Config { return multiplierConfig(t, nil) }, "settings"},
		{"zero", func() *Config { return multiplierConfig(t, []float64{1, 0}) }, "settings[1]"},
		{"twice", func() *Config { return multiplierConfig(t, []float64{3, 3}) }, "settings[1]"},
		{"settings on another kind", func() *Config {
			c := multiplierConfig(t, []float64{2})
			c.Kind = KindConvergence
			return c
		}, "does not take settings"},
	} {
		err := c.cfg().Validate()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Validate() = %v, want an error naming %q", c.name, err, c.want)
		}
	}
}
