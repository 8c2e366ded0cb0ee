//go:build !amd64 || noasm || gccgo || safe

package bnmf

// dots4Kernels lists dots4.
func dots4Kernels() []dots4Kernel { return []dots4Kernel{{"dots4", dots4}} }
