// Package hugepage asks the kernel to back large, fresh memory with huge
// pages, for the simulators' and analyses' big arrays.
//
// A program takes memory from the kernel one page at a time, on its first
// touch: with 4 KB pages a simulation of a million orders took 89,000
// page faults, and on a virtual machine each costs 10–20 µs, more than
// half of its CPU time. Where transparent huge pages are "madvise" (the
// default of many distributions), the Go heap gets 4 KB pages unless
// told otherwise; one fault then brings 2 MB. Where they are "always" or
// "never", the advice changes nothing.
package hugepage

import (
	"runtime"
	"unsafe"
)

// Size is the size of a huge page on the platforms this package advises.
const Size = 2 << 20

// Heap advises huge pages for the next size bytes of the Go heap, which
// the program is about to fill: it allocates that much, advises its
// memory, lets it go and collects it. The memory is never touched and
// costs nothing; the advice stays with the address range, and the
// allocator hands that range out again for whatever the program
// allocates next, small objects included, which no array of the
// program's own covers (a simulation of a million orders: 4,400 page
// faults instead of 16,000; docs/orders-sim.md, "Memory").
//
// It allocates in pieces of PieceSize. The runtime zeroes a fresh
// allocation whole, touching it, when it begins over memory used before
// (freed by a collection): one array of a GB so placed was a GB touched,
// 0.9 s, in a quarter of the runs. Only the first piece can be so placed,
// the others following it in fresh memory.
func Heap(size int) {
	if !supported {
		return
	}
	pieces := make([][]byte, 0, size/PieceSize+1)
	for n := 0; n < size; n += PieceSize {
		p := make([]byte, PieceSize)
		Slice(p)
		pieces = append(pieces, p)
	}
	runtime.KeepAlive(pieces) // the last use: the collection below frees them
	// Collect the pieces at once: until a collection frees them, the heap
	// grows elsewhere, and under GOGC=100 a command can take hundreds of
	// MB before the next one.
	runtime.GC()
}

// PieceSize is the size of the pieces Heap allocates.
const PieceSize = 16 << 20

// Slice advises huge pages for the memory of s: see Advise.
func Slice[T any](s []T) {
	if cap(s) == 0 {
		return
	}
	var zero T
	Advise(unsafe.Pointer(unsafe.SliceData(s)), uintptr(cap(s))*unsafe.Sizeof(zero))
}

// Advise advises huge pages for every 2 MB page that [p, p+size) touches,
// the neighbours' part of the first and last ones included. The kernel
// makes a huge page only of a 2 MB range none of whose pages is in use
// yet, so a neighbour's memory already touched stays as it is, and the
// heap above a fresh allocation, untouched, gets huge pages as the Go
// allocator hands it out: advising only the whole pages inside an array
// left a simulation with 21,500 faults, advising around it 3,400. The
// advice changes no content; an error (an old kernel, no huge pages)
// leaves the memory as it was.
func Advise(p unsafe.Pointer, size uintptr) {
	if size == 0 {
		return
	}
	start := uintptr(p) &^ (Size - 1)
	end := (uintptr(p) + size + Size - 1) &^ (Size - 1)
	advise(start, end-start)
}
