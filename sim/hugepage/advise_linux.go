package hugepage

import "syscall"

const (
	supported    = true
	madvHugepage = 14 // MADV_HUGEPAGE
)

// advise is madvise(MADV_HUGEPAGE) on [start, start+size), by address:
// the range is partly other objects' memory, which no slice should name.
func advise(start, size uintptr) {
	_, _, _ = syscall.Syscall(syscall.SYS_MADVISE, start, size, madvHugepage)
}
