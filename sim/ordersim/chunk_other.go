//go:build !linux

package ordersim

import "unsafe"

// hugePages does nothing where the system has no madvise.
func hugePages(unsafe.Pointer, uintptr) {}
