package bnmf

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/floats"
)

// TestLineKernelsMatchGonum checks that the fused kernels of the line
// update give, bit for bit, the numbers of the separate gonum calls they
// replace (floats.Dot twice, floats.AddScaled), for every length from 0 to
// 21 (all remainders mod 4 and 8, which the assembly treats apart) and
// values spread over many magnitudes, where any other order of summation
// rounds differently.
func TestLineKernelsMatchGonum(t *testing.T) {
	for _, ks := range lineKernelSets() {
		t.Run(ks.name, func(t *testing.T) { checkLineKernels(t, ks) })
	}
}

// lineKernelSet is one implementation of each line kernel, by name.
type lineKernelSet struct {
	name                string
	lineDots            func(g, r []float64) (gg, gr float64)
	lineAxpyDots        func(r []float64, alpha float64, gk, gn []float64) (gg, gr float64)
	lineAxpy            func(r []float64, alpha float64, gk []float64)
	scaledSums          func(num, den []float64, a, b float64, o []float64)
	residualsFromGather func(r, vals, g, x []float64)
	dot                 func(x, y []float64) float64
	dotsRows4           func(x, y []float64, o0, o1, o2, o3 int) (d0, d1, d2, d3 float64)
}

// dispatchedLineKernels is the set the sweeps call.
func dispatchedLineKernels() lineKernelSet {
	return lineKernelSet{
		name: "dispatched", lineDots: lineDots, lineAxpyDots: lineAxpyDots, lineAxpy: lineAxpy,
		scaledSums: scaledSums, residualsFromGather: residualsFromGather, dot: dot,
		dotsRows4: dotsRows4,
	}
}

// checkLineKernels checks the line kernels of ks (all but scaledSums and
// residualsFromGather, which have tests of their own) against floats.Dot
// and floats.AddScaled bit for bit, for lengths 0 to 21.
func checkLineKernels(t *testing.T, ks lineKernelSet) {
	rng := rand.New(rand.NewPCG(3, 4))
	val := func() float64 { return (rng.Float64() - 0.3) * math.Pow(10, float64(rng.IntN(12)-6)) }
	for n := 0; n <= 21; n++ {
		for trial := range 20 {
			r := make([]float64, n+3) // longer than n: only r[:n] may be read
			gk := make([]float64, n)
			gn := make([]float64, n)
			for i := range r {
				r[i] = val()
			}
			for i := range gk {
				gk[i], gn[i] = val(), val()
			}
			gg, gr := ks.lineDots(gn, r[:n])
			if wantGG, wantGR := floats.Dot(gn, gn), floats.Dot(gn, r[:n]); !sameBits(gg, wantGG) || !sameBits(gr, wantGR) {
				t.Fatalf("n=%d trial %d: lineDots = %v, %v; floats.Dot gives %v, %v", n, trial, gg, gr, wantGG, wantGR)
			}
			alpha := val()
			want := append([]float64(nil), r[:n]...)
			floats.AddScaled(want, alpha, gk)
			wantGG, wantGR := floats.Dot(gn, gn), floats.Dot(gn, want)
			tail := r[n:]
			before := append([]float64(nil), tail...)
			gg, gr = ks.lineAxpyDots(r[:n], alpha, gk, gn)
			for i := range want {
				if !sameBits(r[i], want[i]) {
					t.Fatalf("n=%d trial %d: lineAxpyDots r[%d] = %v, floats.AddScaled gives %v", n, trial, i, r[i], want[i])
				}
			}
			if !sameBits(gg, wantGG) || !sameBits(gr, wantGR) {
				t.Fatalf("n=%d trial %d: lineAxpyDots = %v, %v; floats gives %v, %v", n, trial, gg, gr, wantGG, wantGR)
			}
			ks.lineAxpy(r[:n], alpha, gk)
			floats.AddScaled(want, alpha, gk)
			for i := range want {
				if !sameBits(r[i], want[i]) {
					t.Fatalf("n=%d trial %d: lineAxpy r[%d] = %v, floats.AddScaled gives %v", n, trial, i, r[i], want[i])
				}
			}
			for i := range tail {
				if !sameBits(tail[i], before[i]) {
					t.Fatalf("n=%d trial %d: r[%d], past the line, changed", n, trial, n+i)
				}
			}
			if got, want := ks.dot(gk, r[:n]), floats.Dot(gk, r[:n]); !sameBits(got, want) {
				t.Fatalf("n=%d trial %d: dot = %v, floats.Dot gives %v", n, trial, got, want)
			}
			// Four rows of a matrix of 5 rows of n+1, in any order.
			y := make([]float64, 5*(n+1))
			for i := range y {
				y[i] = val()
			}
			offs := [4]int{3 * (n + 1), 0, 4*(n+1) + 1, 3 * (n + 1)}
			var got [4]float64
			got[0], got[1], got[2], got[3] = ks.dotsRows4(gn, y, offs[0], offs[1], offs[2], offs[3])
			for e, o := range offs {
				if want := floats.Dot(gn, y[o:o+n]); !sameBits(got[e], want) {
					t.Fatalf("n=%d trial %d: dotsRows4 row %d = %v, floats.Dot gives %v", n, trial, e, got[e], want)
				}
			}
		}
	}
}

func sameBits(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }

// TestScaledSumsMatchGonum checks that scaledSums (NMF's numerator and
// denominator in one pass) gives, bit for bit, the numbers of the two
// floats.AddScaled calls it replaces, for every length from 0 to 21 (all
// remainders mod 4 and 8), with longer den and o whose tails must be left
// alone and values over many magnitudes, in every form this processor
// runs.
func TestScaledSumsMatchGonum(t *testing.T) {
	for _, ks := range lineKernelSets() {
		t.Run(ks.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(5, 6))
			checkScaledSums(t, ks.scaledSums, func() float64 { return (rng.Float64() - 0.3) * math.Pow(10, float64(rng.IntN(12)-6)) })
		})
	}
}

// checkScaledSums checks one form of scaledSums against two
// floats.AddScaled calls, drawing the inputs from val.
func checkScaledSums(t *testing.T, scaledSums func(num, den []float64, a, b float64, o []float64), val func() float64) {
	for n := 0; n <= 21; n++ {
		for trial := range 20 {
			num, den, o := make([]float64, n), make([]float64, n+2), make([]float64, n+2)
			for i := range num {
				num[i] = val()
			}
			for i := range den {
				den[i], o[i] = val(), val()
			}
			a, b := val(), val()
			wantNum, wantDen := append([]float64(nil), num...), append([]float64(nil), den...)
			floats.AddScaled(wantNum, a, o[:n])
			floats.AddScaled(wantDen[:n], b, o[:n])
			scaledSums(num, den, a, b, o)
			for i := range num {
				if !sameBits(num[i], wantNum[i]) {
					t.Fatalf("n=%d trial %d: num[%d] = %v, floats.AddScaled gives %v", n, trial, i, num[i], wantNum[i])
				}
			}
			for i := range den {
				if !sameBits(den[i], wantDen[i]) {
					t.Fatalf("n=%d trial %d: den[%d] = %v, want %v (past n: unchanged)", n, trial, i, den[i], wantDen[i])
				}
			}
		}
	}
}

// TestResidualsFromGatherMatchesDot checks residualsFromGather against
// vals[q] - floats.Dot(row q, x), as exactResiduals computes the residuals,
// bit for bit, for every line length from 0 to 11 (quads, pairs and
// single entries) and rank from 1 to 13 (every remainder mod 4), in every
// form this processor runs.
func TestResidualsFromGatherMatchesDot(t *testing.T) {
	for _, ks := range lineKernelSets() {
		t.Run(ks.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(5, 6))
			checkResidualsFromGather(t, ks.residualsFromGather, func() float64 { return (rng.Float64() - 0.3) * math.Pow(10, float64(rng.IntN(12)-6)) })
		})
	}
}

// checkResidualsFromGather checks one form of residualsFromGather against
// vals[q] - floats.Dot(row q, x), drawing the inputs from val.
func checkResidualsFromGather(t *testing.T, residualsFromGather func(r, vals, g, x []float64), val func() float64) {
	for n := 0; n <= 11; n++ {
		for k := 1; k <= 13; k++ {
			rows := make([][]float64, n)
			g := make([]float64, n*k)
			vals := make([]float64, n)
			x := make([]float64, k)
			for q := range rows {
				rows[q] = make([]float64, k)
				for kk := range rows[q] {
					rows[q][kk] = val()
					g[kk*n+q] = rows[q][kk]
				}
				vals[q] = val()
			}
			for kk := range x {
				x[kk] = val()
			}
			r := make([]float64, n+1)
			r[n] = 42 // past the line: must stay
			residualsFromGather(r[:n], vals, g, x)
			for q := range rows {
				if want := vals[q] - floats.Dot(rows[q], x); !sameBits(r[q], want) {
					t.Fatalf("n=%d k=%d: r[%d] = %v, vals - floats.Dot gives %v", n, k, q, r[q], want)
				}
			}
			if r[n] != 42 {
				t.Fatalf("n=%d k=%d: r[%d], past the line, changed to %v", n, k, n, r[n])
			}
		}
	}
}

// TestGatherRows64MatchesGatherRows checks the assembly gather against
// gatherRows for every line length from 0 to 11 and ranks 1 to 6, and that
// it writes nothing past n*K.
func TestGatherRows64MatchesGatherRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	const rows = 9
	for k := 1; k <= 6; k++ {
		other := make([]float64, rows*k)
		for i := range other {
			other[i] = rng.NormFloat64()
		}
		for n := 0; n <= 11; n++ {
			idx := make([]int32, n)
			for q := range idx {
				idx[q] = int32(rng.IntN(rows))
			}
			want := make([]float64, n*k+2)
			got := make([]float64, n*k+2)
			want[n*k], want[n*k+1] = 7, 7
			got[n*k], got[n*k+1] = 7, 7
			gatherRows(want, idx, other, k)
			gatherRows64(got, idx, other, k)
			for i := range want {
				if !sameBits(got[i], want[i]) {
					t.Fatalf("k=%d n=%d: g[%d] = %v, gatherRows gives %v", k, n, i, got[i], want[i])
				}
			}
		}
	}
}

// TestKernelWrappersCheckLengths checks that the kernels' wrappers panic
// when an input is shorter than the call needs, even where its capacity
// is not (the assembly reads whatever memory it is given).
func TestKernelWrappersCheckLengths(t *testing.T) {
	short := make([]float64, 10, 100)
	long := make([]float64, 20)
	for _, tc := range []struct {
		name string
		call func()
	}{
		{"lineDots", func() { lineDots(long[:12], short) }},
		{"lineAxpyDots", func() { lineAxpyDots(long[:12], 1, short, long) }},
		{"lineAxpy", func() { lineAxpy(long[:12], 1, short) }},
		{"dot", func() { dot(long[:12], short) }},
		{"dotsRows4", func() { dotsRows4(long[:4], short, 0, 2, 4, 8) }},
		{"residualsFromGather", func() { residualsFromGather(long[:3], long, short, long[:4]) }},
		{"scaledSums", func() { scaledSums(long[:12], long, 1, 1, short) }},
		{"dots4", func() { dots4(long[:4], short, 3) }},
		{"dots2x4", func() { dots2x4(short[:5], long, 4, 4) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Errorf("%s with a short input did not panic", tc.name)
				}
			}()
			tc.call()
		})
	}
}
