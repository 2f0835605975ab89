package engine

import (
	"github.com/presage-dvm/presage/sim/internal/layout"
	"github.com/presage-dvm/presage/sim/internal/section"
	"github.com/presage-dvm/presage/sim/machine"
)

// chargeIOCopy charges the extended model's I/O statement terms for an
// arrcpy_ between a distributed array and a buffer inside an I/O
// statement (biof_ … eiof_): the machine's I/O copy time per byte of the
// array section (machine.Machine.IOByte), and its fresh page time for the
// pages the transfer buffers of the section's parts grow by
// (machine.Machine.FreshPage, freshPagesTime). The statement moves the
// section through the I/O processor, and a real run spends that time
// beyond what its one-process trace records (docs/compare.md, "The
// extended model"). Processor 0, the I/O processor, spends it as I/O
// time; every other processor of the current VM waits for it, as I/O
// communication, the statement being collective (the statistics of
// two-process runs show the wait as the other process's communication).
// Charging the wait keeps the clocks together: the I/O filter (add) drops
// every other charge to them within the statement, and a skew there would
// grow the original's cost of the statement's next copies. So the
// execution time of every interval the statement is in grows by exactly
// the time. Copies outside an I/O statement, or between two arrays, are
// not I/O and are not charged.
func (e *Engine) chargeIOCopy(from, to copySide) {
	if (e.ioByte == 0 && e.freshPage == 0) || !e.cur.io {
		return
	}
	a, b, ok := ioSection(from, to)
	if !ok {
		return
	}
	d := e.ioByte*float64(b.Size()*a.TS) + e.freshPagesTime(a, b)
	if d == 0 {
		return
	}
	c0 := e.isolate(0)
	if e.coversRoot(e.vm) {
		for _, c := range e.allClasses() {
			k := KIOComm
			if c == c0 {
				k = KIOTime
			}
			e.chargeClass(e.cur, k, c, d)
		}
		return
	}
	e.add(KIOTime, 0, d)
	for _, p := range e.vm.Map {
		if p != 0 {
			e.add(KIOComm, p, d)
		}
	}
}

// ioSection is the distributed array of a copy between an array and a
// buffer, and the section of it copied; ok is false for any other copy.
func ioSection(from, to copySide) (a *layout.Array, b section.Block, ok bool) {
	var s copySide
	switch {
	case from.arr != nil && to.arr == nil:
		s = from
	case to.arr != nil && from.arr == nil:
		s = to
	default:
		return nil, nil, false
	}
	b, ok = s.readSection()
	return s.arr.Array, b, ok
}

// freshPagesTime is the fresh page time of an I/O statement's copy of
// section b of array a: each processor but the I/O processor packs the
// part of b it holds and the I/O processor does not into a buffer, and
// the I/O processor receives each part into one; a process's buffers
// reuse the memory of its earlier ones (the allocator keeps what a buffer
// it freed took), so only the pages a buffer needs beyond the largest the
// process has had are fresh (bufPages). The senders pack at once; the I/O
// processor receives after them, so the time is that of the most fresh
// pages a sender takes plus those the I/O processor takes. Measured on
// jac and sor (docs/compare.md, "Where the time goes", item 5): a
// two-process run on 1x2, whose processes send whole chunks of 1 MB,
// takes 250–320 page faults more than on 2x1, whose send half chunks, at
// both sizes.
func (e *Engine) freshPagesTime(a *layout.Array, b section.Block) float64 {
	if e.freshPage == 0 {
		return 0
	}
	vm := a.VM()
	if vm == nil {
		return 0 // every processor holds the whole array, the I/O processor too
	}
	io := section.Block(nil)
	for k, p := range vm.Map {
		if p == 0 {
			if io, _ = a.Loc(k); io != nil {
				io = io.Intersect(b)
			}
		}
	}
	if e.bufPages == nil {
		e.bufPages = make([]int64, e.L)
	}
	var sent, largest int64
	for k, p := range vm.Map {
		loc, err := a.Loc(k)
		if p == 0 || err != nil || loc == nil {
			continue
		}
		part := loc.Intersect(b)
		if part == nil {
			continue
		}
		n := part.Size()
		if io != nil {
			n -= part.IntersectSize(io)
		}
		pages := (n*a.TS + machine.PageBytes - 1) / machine.PageBytes
		sent = max(sent, e.growBuffer(p, pages))
		largest = max(largest, pages)
	}
	return e.freshPage * float64(sent+e.growBuffer(0, largest))
}

// growBuffer grows processor p's largest transfer buffer to pages and
// returns the pages it grew by: the fresh ones.
func (e *Engine) growBuffer(p int, pages int64) int64 {
	grown := max(pages-e.bufPages[p], 0)
	e.bufPages[p] += grown
	return grown
}
