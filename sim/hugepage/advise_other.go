//go:build !linux

package hugepage

const supported = false

// advise does nothing where the system has no madvise.
func advise(start, size uintptr) {}
