package experiments

import (
	"bytes"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/bnmf-lab/bnmf/bnmf"
	"github.com/bnmf-lab/bnmf/internal/fileerr"
)

// autoWord is the value of sweeps that asks for sweeps: auto.
const autoWord = "auto"

// sweepsAuto finds "sweeps: auto" among the top-level keys of doc, the
// parsed src of the config file file. If it is there, it returns src with
// the word auto (quoted or not) overwritten by a 0 padded with spaces to
// its length, so that every other value keeps its line and column for
// errors and the strict decoding of the integer field Sweeps accepts it,
// and true. Otherwise it returns src unchanged and false.
func sweepsAuto(file string, doc *yaml.Node, src []byte) ([]byte, bool, error) {
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return src, false, nil
	}
	top := doc.Content[0]
	var v *yaml.Node
	for i := 0; i+1 < len(top.Content); i += 2 {
		if top.Content[i].Value == "sweeps" {
			v = top.Content[i+1]
		}
	}
	if v == nil || v.Kind != yaml.ScalarNode || v.ShortTag() != "!!str" || v.Value != autoWord {
		return src, false, nil
	}
	// The value's offset: its line, then its column counted in
	// characters, as go-yaml counts them.
	off := 0
	for range v.Line - 1 {
		nl := bytes.IndexByte(src[off:], '\n')
		if nl < 0 {
			return nil, false, fileerr.New(file, v.Line, "sweeps", "cannot find the value auto in the file")
		}
		off += nl + 1
	}
	for range v.Column - 1 {
		if off >= len(src) {
			break
		}
		_, size := utf8.DecodeRune(src[off:])
		off += size
	}
	for _, text := range []string{autoWord, `"` + autoWord + `"`, "'" + autoWord + "'"} {
		if bytes.HasPrefix(src[off:], []byte(text)) {
			out := bytes.Clone(src)
			copy(out[off:], "0"+string(bytes.Repeat([]byte(" "), len(text)-1)))
			return out, true, nil
		}
	}
	return nil, false, fileerr.New(file, v.Line, "sweeps", "write auto as a plain word")
}

// validateAutoSweeps checks max_sweeps, and what sweeps: auto rules out:
// a burn-in (it is the first half of the sweeps run) and a thinning that
// keeps none of the first block's sweeps.
func (c *Config) validateAutoSweeps() error {
	if !c.AutoSweeps {
		if c.MaxSweeps != 0 {
			return c.errorf("max_sweeps", "max_sweeps goes only with sweeps: auto")
		}
		return nil
	}
	switch {
	case c.MaxSweeps == 0:
		return c.errorf("sweeps", "sweeps: auto needs max_sweeps, the most sweeps a chain may run")
	case c.MaxSweeps < bnmf.MinAutoSweeps || c.MaxSweeps > bnmf.MaxSweeps:
		return c.errorf("max_sweeps", "%d must be between %d and %d", c.MaxSweeps, bnmf.MinAutoSweeps, bnmf.MaxSweeps)
	case c.BurnIn != 0:
		return c.errorf("burn_in", "burn_in does not go with sweeps: auto, whose burn-in is the first half of the sweeps run")
	case c.Thin <= 0:
		return c.errorf("thin", "%d must be positive", c.Thin)
	}
	first := bnmf.AutoCheckpoints(c.MaxSweeps)[0]
	if kept := first - first/2; kept/c.Thin == 0 {
		return c.errorf("thin", "%d keeps none of the %d sweeps of the first block of sweeps: auto; it must be at most %d", c.Thin, kept, kept)
	}
	return nil
}

// sweepsBound is the most sweeps a chain of the study runs: Sweeps, or
// under sweeps: auto max_sweeps (or the bnmf.DefaultSweeps of NMF and the
// baselines, if more).
func (c *Config) sweepsBound() int {
	if c.AutoSweeps {
		return max(c.MaxSweeps, bnmf.DefaultSweeps)
	}
	return c.Sweeps
}
