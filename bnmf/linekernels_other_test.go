//go:build !amd64 || noasm || gccgo || safe

package bnmf

// lineKernelSets lists the kernels the sweeps call.
func lineKernelSets() []lineKernelSet { return []lineKernelSet{dispatchedLineKernels()} }
