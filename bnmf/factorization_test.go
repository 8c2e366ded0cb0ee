package bnmf

import (
	"math/rand/v2"
	"testing"
)

// TestGather checks the blocked copy of the other factor against the
// definition g[kk*n+q] = other[index[lo+q]][kk], for both sides, from the
// factor and from its float32 copy, and for lines of every length modulo
// the block of four, including empty ones.
func TestGather(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var entries []Entry
	for i := range 9 {
		for j := range 13 {
			// Row i keeps about i/9 of its columns, so lengths vary.
			if rng.IntN(9) < i {
				entries = append(entries, Entry{Row: i, Col: j, Value: 1})
			}
		}
	}
	data, err := NewMatrix(9, 13, entries)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []int{1, 3, 7} {
		f := newFactorization(data, k)
		for i := range f.w {
			f.w[i] = rng.Float64()
		}
		for i := range f.zt {
			f.zt[i] = rng.Float64()
		}
		lengths := make(map[int]bool)
		for _, side := range f.newSides(nil, nil, nil) {
			for i := 0; i+1 < len(side.start); i++ {
				lo, hi := side.start[i], side.start[i+1]
				n := hi - lo
				lengths[n%4] = true
				for _, copies := range []bool{false, true} {
					side.other32 = nil
					if copies {
						side.other32 = make([]float32, len(side.other))
						for e, v := range side.other {
							side.other32[e] = float32(v) + 1 // distinct from other
						}
					}
					g := make([]float64, n*k)
					side.gather(g, lo, hi, k)
					for q := range n {
						o := int(side.index[lo+q])
						for kk := range k {
							want := side.other[o*k+kk]
							if copies {
								want = float64(side.other32[o*k+kk])
							}
							if g[kk*n+q] != want {
								t.Fatalf("K=%d %s line %d, float32 copies %v: g[%d*%d+%d] = %v, want %v", k, side.name, i, copies, kk, n, q, g[kk*n+q], want)
							}
						}
					}
				}
			}
		}
		if len(lengths) != 4 {
			t.Fatalf("K=%d: line lengths cover residues %v modulo 4, want all four", k, lengths)
		}
	}
}
