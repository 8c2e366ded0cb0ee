package experiments

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
)

// Cells expands c into its cells in canonical order: repeats outermost,
// then fractions (sparsity) or noise ratios (noise), then ranks, then
// models in the order the config lists them. Running cells in this order
// finishes whole repeats first, so a study stopped early still has every
// model at every grid point for its first repeats.
//
// It panics with an "experiments: ..." message if c's kind is unknown; a
// config that Validate accepted has a known kind.
func (c *Config) Cells() []Cell {
	kind := c.kind()
	axis := kind.Axis()
	grid := kind.grid(c)
	if len(grid) == 0 {
		grid = []float64{0} // one cell per model, rank and repeat
	}
	cells := make([]Cell, 0, c.Repeats*len(grid)*len(c.Ranks)*len(c.Models))
	for r := range c.Repeats {
		for _, g := range grid {
			for _, k := range c.Ranks {
				for _, m := range c.Models {
					cell := Cell{Model: m.Key(), Rank: k, Repeat: r}
					cells = append(cells, axis.With(cell, g))
				}
			}
		}
	}
	return cells
}

// kind returns the Kind that c names. It panics with an "experiments: ..."
// message if there is none, a programmer error once Validate has passed.
func (c *Config) kind() Kind {
	k, ok := c.lookupKind()
	if !ok {
		panic(fmt.Sprintf("experiments: unknown study kind %q", c.Kind))
	}
	return k
}

// Key returns the cell's name in a result store, such as
// "GRRN-k20-f0.97-r3" (sparsity), "GEE-k50-n0.5-r0" (noise) or
// "NMF-k10-r9" (convergence), "GEE-k6-i2-r0" (inner fold 2 of outer fold
// 0 of a nested cross-validation). Floats are written in their shortest
// round-tripping form. Keys are unique within a study and safe as file
// names.
func (c Cell) Key() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s-k%d", c.Model, c.Rank)
	if c.Fraction != 0 {
		b.WriteString("-f" + formatFloat(c.Fraction))
	}
	if c.NoiseRatio != 0 {
		b.WriteString("-n" + formatFloat(c.NoiseRatio))
	}
	if c.Fold != 0 {
		fmt.Fprintf(&b, "-i%d", c.Fold)
	}
	if c.Setting != 0 {
		b.WriteString("-s" + formatFloat(c.Setting))
	}
	fmt.Fprintf(&b, "-r%d", c.Repeat)
	return b.String()
}

// String returns the cell's key.
func (c Cell) String() string { return c.Key() }

func formatFloat(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// Seed derivation. Every seed is read from the SHA-256 digest of a
// canonical string that names what the seed is for and everything it may
// depend on, so that a cell's numbers depend only on its own identity:
// adding a model, a rank or a repeat to a config leaves every other cell's
// seeds, splits and noise unchanged. Floats are written in their shortest
// round-tripping decimal form; " fold=<j>" is written only for a cell
// with an inner fold (Cell.Fold), and " setting=<v>" only for a cell with
// a value on a SettingAxis (Cell.Setting), so every other cell keeps its
// seed.
//
//	chain: "bnmf/chain/v1 base=<base> model=<name> rank=<K> fraction=<f> noise=<r> repeat=<i>[ fold=<j>][ setting=<v>]"
//	split: "bnmf/split/v1 base=<base> fraction=<f> repeat=<i>"
//	noise: "bnmf/noise/v1 base=<base> ratio=<r> repeat=<i>"
//
// The split and the noise deliberately leave out the model and rank, so
// every model at a given fraction (or ratio) and repeat sees the same
// training and test entries: the comparison between models is paired.

// CellSeed returns the seed of cell c (its bnmf.Settings.Seed): the
// first eight bytes, big-endian, of the SHA-256 digest of the canonical
// string above. Chain i of the cell is seeded with
// bnmf.ChainSeed(CellSeed(base, c), i), which is the cell seed itself
// for chain 0.
func CellSeed(base uint64, c Cell) uint64 {
	s := fmt.Sprintf("bnmf/chain/v1 base=%d model=%s rank=%d fraction=%s noise=%s repeat=%d",
		base, c.Model, c.Rank, formatFloat(c.Fraction), formatFloat(c.NoiseRatio), c.Repeat)
	if c.Fold != 0 {
		s += fmt.Sprintf(" fold=%d", c.Fold)
	}
	if c.Setting != 0 {
		s += " setting=" + formatFloat(c.Setting)
	}
	d := digest(s)
	return binary.BigEndian.Uint64(d[:8])
}

// SplitSource returns the random source of the train/test split at fraction
// unobserved f in the given repeat: a ChaCha8 stream keyed by the SHA-256
// digest of the canonical split string above.
func SplitSource(base uint64, f float64, repeat int) rand.Source {
	return rand.NewChaCha8(digest(fmt.Sprintf("bnmf/split/v1 base=%d fraction=%s repeat=%d",
		base, formatFloat(f), repeat)))
}

// NoiseSource returns the random source of the noise added at noise ratio r
// in the given repeat: a ChaCha8 stream keyed by the SHA-256 digest of the
// canonical noise string above.
func NoiseSource(base uint64, r float64, repeat int) rand.Source {
	return rand.NewChaCha8(digest(fmt.Sprintf("bnmf/noise/v1 base=%d ratio=%s repeat=%d",
		base, formatFloat(r), repeat)))
}

func digest(s string) [32]byte { return sha256.Sum256([]byte(s)) }
