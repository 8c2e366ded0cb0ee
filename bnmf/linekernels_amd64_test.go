//go:build !noasm && !gccgo && !safe

package bnmf

import (
	"golang.org/x/sys/cpu"
	"gonum.org/v1/gonum/floats"
)

// lineKernelSets lists the kernels the sweeps call (which choose by the
// processor) and each form they choose between that this processor runs.
func lineKernelSets() []lineKernelSet {
	sets := []lineKernelSet{dispatchedLineKernels(), {
		name: "SSE2", lineDots: lineDotsSSE2,
		lineAxpyDots: lineAxpyDotsSSE2,
		lineAxpy:     func(r []float64, alpha float64, gk []float64) { floats.AddScaled(r, alpha, gk[:len(r)]) },
		scaledSums:   scaledSumsSSE2, residualsFromGather: residualsFromGatherSSE2,
		dot: floats.Dot,
		dotsRows4: func(x, y []float64, o0, o1, o2, o3 int) (d0, d1, d2, d3 float64) {
			n := len(x)
			return floats.Dot(x, y[o0:o0+n]), floats.Dot(x, y[o1:o1+n]), floats.Dot(x, y[o2:o2+n]), floats.Dot(x, y[o3:o3+n])
		},
	}}
	if cpu.X86.HasAVX {
		sets = append(sets, lineKernelSet{
			name: "AVX", lineDots: lineDotsAVX, lineAxpyDots: lineAxpyDotsAVX,
			lineAxpy: lineAxpyAVX, scaledSums: scaledSumsAVX,
			residualsFromGather: residualsFromGatherAVX, dot: dotAVX, dotsRows4: dotsRows4AVX,
		})
	}
	return sets
}

// fingerprintPlatform reports whether this build and processor are those
// testdata/fingerprints.json was written on: amd64 with its assembly, AVX
// and FMA (Go's math.Exp uses FMA where the processor has it, and rounds
// otherwise without; the volume prior's scale calls it).
func fingerprintPlatform() bool { return cpu.X86.HasAVX && cpu.X86.HasFMA }
