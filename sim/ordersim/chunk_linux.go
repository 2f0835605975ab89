package ordersim

import (
	"syscall"
	"unsafe"
)

const hugePage = 2 << 20

// hugePages advises the kernel to back the whole 2 MB pages of [p,
// p+size) with huge pages: where transparent huge pages are "madvise"
// (the default of many distributions) the Go heap otherwise gets 4 KB
// pages. The advice changes no content; an error (an old kernel, THP
// off) leaves the memory as it was.
func hugePages(p unsafe.Pointer, size uintptr) {
	skip := (hugePage - uintptr(p)%hugePage) % hugePage
	if size < skip+hugePage {
		return
	}
	whole := (size - skip) &^ (hugePage - 1)
	_ = syscall.Madvise(unsafe.Slice((*byte)(unsafe.Add(p, skip)), whole), 14) // MADV_HUGEPAGE
}
