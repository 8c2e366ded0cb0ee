//go:build !amd64 || noasm || gccgo || safe

package bnmf

// lineKernelSets lists the kernels the sweeps call.
func lineKernelSets() []lineKernelSet { return []lineKernelSet{dispatchedLineKernels()} }

// fingerprintPlatform reports whether this build is the one
// testdata/fingerprints.json was written on; it is not.
func fingerprintPlatform() bool { return false }
