package bnmf

import (
	"syscall"
	"unsafe"
)

// Linux madvise advice values (syscall has no names for them).
const (
	madvHugePage = 14 // MADV_HUGEPAGE, Linux 2.6.38
	madvCollapse = 25 // MADV_COLLAPSE, Linux 6.1
)

// backWithHugePages asks the kernel to back x with 2 MiB transparent huge
// pages when x is at least hugePagesMin bytes: it marks the range for huge
// pages (so pages touched later come as huge pages, under the default
// "madvise" setting of /sys/kernel/mm/transparent_hugepage/enabled) and
// collapses the pages already there into huge pages. Rows of the factors
// and residuals are reached in random order, and with 4 KiB pages nearly
// every such access misses the TLB once the arrays outgrow it: on the
// MovieLens 25M shape huge pages made a GRRN K = 50 sweep 2-4% faster
// (README, Speed).
// It is advice and changes no value; errors (an older kernel without
// MADV_COLLAPSE, THP disabled) are ignored.
func backWithHugePages(x []float64) {
	const page = 4096
	if len(x)*8 < hugePagesMin {
		return
	}
	p := unsafe.Pointer(&x[0])
	start := uintptr(p)
	end := start + uintptr(len(x))*8
	lo := (start + page - 1) &^ (page - 1)
	hi := end &^ (page - 1)
	b := unsafe.Slice((*byte)(unsafe.Add(p, lo-start)), hi-lo)
	_ = syscall.Madvise(b, madvHugePage)
	_ = syscall.Madvise(b, madvCollapse)
}
