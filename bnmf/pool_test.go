package bnmf

import (
	"testing"
	"unsafe"
)

// TestWorkerStreamsOnOwnCacheLines checks that no two workers' random
// stream states, written on every draw, lie within 128 bytes of each other
// or of another worker's fields, so that the cores never share a cache
// line (or a prefetched pair of lines) through them.
func TestWorkerStreamsOnOwnCacheLines(t *testing.T) {
	const apart = 128
	p := newPool(4, 1, 8)
	defer p.close()
	type span struct{ lo, hi uintptr }
	var states, structs []span
	for _, wk := range p.workers {
		s := uintptr(unsafe.Pointer(&wk.pcg))
		states = append(states, span{s, s + unsafe.Sizeof(wk.pcg)})
		w := uintptr(unsafe.Pointer(wk))
		structs = append(structs, span{w, w + unsafe.Sizeof(*wk)})
	}
	gap := func(a, b span) uintptr {
		switch {
		case a.hi <= b.lo:
			return b.lo - a.hi
		case b.hi <= a.lo:
			return a.lo - b.hi
		}
		return 0
	}
	for i, s := range states {
		for j, w := range structs {
			if i == j {
				continue
			}
			if g := gap(s, w); g < apart {
				t.Errorf("worker %d's stream state is %d bytes from worker %d, want at least %d", i, g, j, apart)
			}
		}
	}
}
