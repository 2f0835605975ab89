//go:build !linux

package orders

// hugeHeap does nothing here: transparent huge pages are Linux's.
func hugeHeap(int) {}
