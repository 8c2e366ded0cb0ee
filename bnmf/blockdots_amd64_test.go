//go:build !noasm && !gccgo && !safe

package bnmf

import "golang.org/x/sys/cpu"

// dots4Kernels lists dots4 and the kernels it chooses between that this
// processor runs.
func dots4Kernels() []dots4Kernel {
	ks := []dots4Kernel{{"dots4", dots4}, {"SSE2", dots4SSE2}}
	if cpu.X86.HasAVX {
		ks = append(ks, dots4Kernel{"AVX", func(x, y []float64, stride int) (d0, d1, d2, d3 float64) {
			return dotsRows4AVX(x, y, 0, stride, 2*stride, 3*stride)
		}})
	}
	return ks
}

// dots2x4Kernels lists dots2x4 and, where this processor runs it, its AVX
// kernel.
func dots2x4Kernels() []dots2x4Kernel {
	ks := []dots2x4Kernel{{"dots2x4", dots2x4}}
	if cpu.X86.HasAVX {
		ks = append(ks, dots2x4Kernel{"AVX", dots2x4AVX})
	}
	return ks
}
