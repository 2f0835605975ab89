package engine

import "github.com/presage-dvm/presage/sim/internal/layout"

// chargeIOCopy charges the machine's I/O copy time (machine.Machine.IOByte,
// the extended model) for an arrcpy_ between a distributed array and a
// buffer inside an I/O statement (biof_ … eiof_): the statement moves the
// array section through the I/O processor, and a real run spends that
// time per byte of the section beyond what its one-process trace records
// (docs/compare.md, "The extended model"). Processor 0, the I/O
// processor, spends it as I/O time; every other processor of the current
// VM waits for it, as I/O communication, the statement being collective
// (the statistics of two-process runs show the wait as the other
// process's communication). Charging the wait keeps the clocks together:
// the I/O filter (add) drops every other charge to them within the
// statement, and a skew there would grow the original's cost of the
// statement's next copies. So the execution time of every interval the
// statement is in grows by exactly the time. Copies outside an I/O
// statement, or between two arrays, are not I/O and are not charged.
func (e *Engine) chargeIOCopy(from, to copySide) {
	if e.ioByte == 0 || !e.cur.io {
		return
	}
	d := e.ioCopyTime(from, to)
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

// ioCopyTime is the I/O copy time of a copy between a distributed array
// and a buffer: the machine's time per byte of the array section copied;
// 0 for any other copy.
func (e *Engine) ioCopyTime(from, to copySide) float64 {
	var a *layout.Array
	var s copySide
	switch {
	case from.arr != nil && to.arr == nil:
		a, s = from.arr.Array, from
	case to.arr != nil && from.arr == nil:
		a, s = to.arr.Array, to
	default:
		return 0
	}
	b, ok := s.readSection()
	if !ok {
		return 0
	}
	return e.ioByte * float64(b.Size()*a.TS)
}
