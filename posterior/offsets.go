package posterior

import (
	"fmt"
	"io"

	"github.com/bnmf-lab/bnmf/internal/npy"
)

// writeOffsets writes the model file's offset members, if m has offsets.
func writeOffsets(member func(string, func(io.Writer) error) error, m *Model) error {
	if !m.Offsets {
		return nil
	}
	s := len(m.Mu)
	return joinErrs(
		member("mu.npy", func(w io.Writer) error { return npy.Write(w, []int{s}, m.Mu) }),
		member("b.npy", func(w io.Writer) error { return writeSamples(w, []int{s, m.Rows}, m.B, nil) }),
		member("c.npy", func(w io.Writer) error { return writeSamples(w, []int{s, m.Cols}, m.C, nil) }),
	)
}

func joinErrs(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// readOffsets reads the offsets of a model file whose model.json says it
// has them; files without offsets (all written before they existed)
// read as before.
func readOffsets(zm modelMembers, m *Model) error {
	if !m.Offsets {
		return nil
	}
	h := m.Header
	s := h.Samples
	var err error
	if m.Mu, err = readArray[float64](zm, "mu.npy", []int{s}); err != nil {
		return err
	}
	if err := allFinite("mu.npy", m.Mu, 1); err != nil {
		return fmt.Errorf("%w: %v", ErrDamaged, err)
	}
	for _, a := range []struct {
		name  string
		lines int
		out   *[][]float64
	}{{"b.npy", h.Rows, &m.B}, {"c.npy", h.Cols, &m.C}} {
		x, err := readArray[float64](zm, a.name, []int{s, a.lines})
		if err != nil {
			return err
		}
		if err := allFinite(a.name, x, a.lines); err != nil {
			return fmt.Errorf("%w: %v", ErrDamaged, err)
		}
		for i := range s {
			*a.out = append(*a.out, x[i*a.lines:(i+1)*a.lines])
		}
	}
	return nil
}

// offset returns sample s's mu + b_row + c_col, 0 without offsets.
func (m *Model) offset(s, row, col int) float64 {
	if m.B == nil {
		return 0
	}
	return m.Mu[s] + m.B[s][row] + m.C[s][col]
}
