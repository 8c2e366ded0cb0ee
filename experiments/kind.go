package experiments

import (
	"context"
	"slices"

	"github.com/bnmf-lab/bnmf/bnmf"
)

// Kinds lists the kinds of study, mirroring the paper's Section 5. It is
// the one place a kind is registered; configs, records and reports look a
// kind up by its name here. A new kind is a file that implements Kind,
// plus its line here (and its report in package report).
func Kinds() []Kind {
	return []Kind{convergenceKind{}, sparsityKind{}, noiseKind{}, modelSelectionKind{}, nestedCVKind{}, runtimeKind{}}
}

// KindByName returns the kind with the given name, or false when there is
// none.
func KindByName(name string) (Kind, bool) { return kindNamed(Kinds(), name) }

// kindNamed returns the kind of kinds with the given name, or false.
func kindNamed(kinds []Kind, name string) (Kind, bool) {
	i := slices.IndexFunc(kinds, func(k Kind) bool { return k.Name() == name })
	if i < 0 {
		return nil, false
	}
	return kinds[i], true
}

// lookupKind returns the kind c names, from c.kinds when set, else from
// Kinds.
func (c *Config) lookupKind() (Kind, bool) {
	if c.kinds == nil {
		return KindByName(c.Kind)
	}
	return kindNamed(c.kinds, c.Kind)
}

// KindNames lists the names of the kinds, in the order of Kinds.
func KindNames() []string {
	var names []string
	for _, k := range Kinds() {
		names = append(names, k.Name())
	}
	return names
}

// Axis is the setting that a kind of study varies besides the model, the
// rank and the repeat: how to read and set it on a cell, what it is
// called and which values a manifest lists. Each kind's file defines its
// axis, so a kind on a new axis touches no code outside its own files.
type Axis interface {
	// Name names the setting in words, such as "fraction" or
	// "noise ratio"; it is empty for a kind that varies nothing else.
	Name() string
	// Column names the setting's column in a study's cells.csv, such as
	// "fraction"; it is empty for none.
	Column() string
	// Value returns the cell's value on the axis (0 for none).
	Value(c Cell) float64
	// With returns c with its value on the axis set to v.
	With(c Cell, v float64) Cell
	// Grid returns the values that a study's manifest lists on the axis
	// (nil for none).
	Grid(m *Manifest) []float64
}

// NoAxis is the Axis of a kind that varies nothing besides the model, the
// rank and the repeat (a convergence study).
type NoAxis struct{}

// Name returns "".
func (NoAxis) Name() string { return "" }

// Column returns "".
func (NoAxis) Column() string { return "" }

// Value returns 0.
func (NoAxis) Value(Cell) float64 { return 0 }

// With returns c unchanged.
func (NoAxis) With(c Cell, _ float64) Cell { return c }

// Grid returns nil.
func (NoAxis) Grid(*Manifest) []float64 { return nil }

// SettingAxis is the Axis of a kind whose setting has no field of its
// own in Cell, Manifest and Config: its values are listed under the
// config's settings key (Config.Settings, which must then be non-empty
// and whose values must be finite and not 0), the manifest's
// Manifest.Settings, and each cell's Cell.Setting. Name and Column say
// what the values are. A kind on a new axis returns one from its Axis
// method and needs no edit outside its own files (and its report's).
type SettingAxis struct {
	// AxisName names the setting in words ("chains per cell") and
	// AxisColumn its cells.csv column ("chains"); neither may be empty,
	// and the column must not be one cells.csv already has.
	AxisName, AxisColumn string
}

// Name returns a.AxisName.
func (a SettingAxis) Name() string { return a.AxisName }

// Column returns a.AxisColumn.
func (a SettingAxis) Column() string { return a.AxisColumn }

// Value returns c.Setting.
func (SettingAxis) Value(c Cell) float64 { return c.Setting }

// With returns c with Setting v.
func (SettingAxis) With(c Cell, v float64) Cell {
	c.Setting = v
	return c
}

// Grid returns m.Settings.
func (SettingAxis) Grid(m *Manifest) []float64 { return m.Settings }

// ManifestAxis returns the axis of the study m describes, and whether its
// cells hold out test entries: its kind's, or for a kind this program
// does not have, the SettingAxis the manifest names (else NoAxis; no
// held-out entries).
func ManifestAxis(m *Manifest) (Axis, bool) {
	if k, ok := KindByName(m.Kind); ok {
		return k.Axis(), k.HeldOut()
	}
	if m.SettingColumn != "" {
		return SettingAxis{AxisName: m.SettingName, AxisColumn: m.SettingColumn}, false
	}
	return NoAxis{}, false
}

// Kind is a kind of study: what it varies, which settings its config
// takes, what data each cell trains and is scored on, and what its records
// and manifest carry.
type Kind interface {
	// Name is the kind's name in configs, records and manifests.
	Name() string
	// Axis is the setting the kind varies.
	Axis() Axis
	// HeldOut reports whether its cells are scored on held-out entries.
	HeldOut() bool

	// validate checks the settings of c that depend on the kind (the
	// fractions, noise ratios, holdout and coverage).
	validate(c *Config) error
	// hashed clears the settings of h that the kind does not use, so
	// that they do not change its hash.
	hashed(h *hashed)
	// grid returns the values of c on the kind's axis (nil for NoAxis).
	grid(c *Config) []float64
	// prepare checks what needs the data and returns what makes the
	// cells' data.
	prepare(ctx context.Context, p *Plan) (cellSource, error)
}

// cellSource makes the data of a prepared study's cells.
type cellSource interface {
	// cellData draws the training and test entries of a cell.
	cellData(c Cell) (cellData, error)
	// describe fills the kind's fields of the study's manifest.
	describe(m *Manifest)
}

// cellData is what one cell trains and is scored on.
type cellData struct {
	train *bnmf.Matrix
	test  []bnmf.Entry
	// Noise studies only: clean holds the noise-free values of the test
	// entries; dataVariance and cleanVariance are the population
	// variances of the noisy and of the clean training values (noisy
	// before any clipping); clipped counts the training values that were
	// negative and clipped at 0 for NMF.
	clean                       []float64
	dataVariance, cleanVariance float64
	clipped                     int
}
