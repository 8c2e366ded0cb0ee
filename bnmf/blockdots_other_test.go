//go:build !amd64 || noasm || gccgo || safe

package bnmf

// dots4Kernels lists dots4.
func dots4Kernels() []dots4Kernel { return []dots4Kernel{{"dots4", dots4}} }

// dots2x4Kernels lists dots2x4.
func dots2x4Kernels() []dots2x4Kernel { return []dots2x4Kernel{{"dots2x4", dots2x4}} }
