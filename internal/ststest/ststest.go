// Package ststest builds small synthetic statistics files in the layout
// Lib-DVM writes, for the tests of the sts reader and of the packages that
// ingest sts files. Real files hold a 134 MB buffer per processor; these
// hold a few kilobytes, so tests can corrupt them byte by byte.
package ststest

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"fmt"
	"math"
)

// Interval describes one interval record; Parent is the index of the
// parent in Spec.Intervals (-1 for the root, which must come first).
type Interval struct {
	Parent int
	Type   int // 20..23
	Line   int64
	Expr   int64 // 2000000000 for none
	QProc  int64
	Enter  float64
	File   string
	// Cells sets matrix cells: [row, column] -> (count, product, lost).
	Cells map[[2]int][3]float64
}

// Event is one synchronisation-time record, in event order.
type Event struct {
	Item     int
	Interval int // 1-based
	Group    uint64
	Time     float64
}

// Proc is one processor's buffer.
type Proc struct {
	Name      string
	TestTime  float64
	Intervals []Interval
	Events    []Event
}

// Spec describes a whole file.
type Spec struct {
	Order      binary.ByteOrder // nil = little endian
	SizeLong   int              // 0 = 8
	SizePtr    int              // 0 = 8
	SizeShort  int              // 0 = 2 (anything else makes a corrupt file)
	SizeDouble int              // 0 = 8 (anything else makes a corrupt file)
	BufSize    int              // 0 = 64 KiB
	Grid       []int64
	Procs      []Proc
}

// Layout constants of the buffers built here (those of the real files).
const (
	Groups        = 28
	dvmhHeader    = 664
	dvmhConstPart = 11272
	threads       = 1
	pbuffer       = 0x7f0000001000
)

// Simple returns a spec of n processors running a program with a Main
// interval and one parallel loop with a reduction on every processor.
func Simple(n int) Spec {
	s := Spec{Grid: []int64{int64(n)}}
	for p := 0; p < n; p++ {
		main := Interval{Parent: -1, Type: 21, Line: 8, Expr: 2000000000, QProc: int64(n), Enter: 1 / float64(n), File: "jac.fdv",
			Cells: map[[2]int][3]float64{{0, 0}: {0, 0.010 + 0.001*float64(p), 0.002}, {13, 13}: {1, 0.0005, 0}}}
		loop := Interval{Parent: 0, Type: 22, Line: 10, Expr: 2000000000, QProc: int64(n), Enter: 10 / float64(n), File: "jac.fdv",
			Cells: map[[2]int][3]float64{{0, 0}: {0, 0.004, 0.001}, {0, 3}: {5, 0.0001, 0}, {3, 1}: {5, 0.0002, 0.003 * float64(p+1)}}}
		base := 1000.0
		var ev []Event
		for k := 0; k < 5; k++ {
			t := base + float64(k) + 0.001*float64(p)
			ev = append(ev, Event{26, 2, 0xabc0, t - 0.0005}, Event{7, 2, 0xabc0, t}, Event{27, 2, 0xabc0, t + 0.002 - 0.0005*float64(p)})
		}
		s.Procs = append(s.Procs, Proc{Name: "node", TestTime: 0.15 + 0.01*float64(p), Intervals: []Interval{main, loop}, Events: ev})
	}
	return s
}

// writer appends the writer's values with the spec's sizes and order.
type writer struct {
	b          bytes.Buffer
	order      binary.ByteOrder
	ss, sl, sv int
}

func (w *writer) uint(v uint64, n int) {
	var b [16]byte
	if w.order == binary.LittleEndian {
		binary.LittleEndian.PutUint64(b[:8], v)
		w.b.Write(b[:n])
		return
	}
	binary.BigEndian.PutUint64(b[8:], v)
	w.b.Write(b[16-n:])
}
func (w *writer) short(v int)      { w.uint(uint64(int64(v)), w.ss) }
func (w *writer) long(v int64)     { w.uint(uint64(v), w.sl) }
func (w *writer) ptr(v uint64)     { w.uint(v, w.sv) }
func (w *writer) double(v float64) { w.uint(math.Float64bits(v), 8) }

// Buffer returns the uncompressed buffer of processor p.
func (s Spec) Buffer(p int) []byte {
	w := &writer{order: s.Order, ss: def(s.SizeShort, 2), sl: def(s.SizeLong, 8), sv: def(s.SizePtr, 8)}
	if w.order == nil {
		w.order = binary.LittleEndian
	}
	sd := def(s.SizeDouble, 8)
	size := def(s.BufSize, 64<<10)
	pr := s.Procs[p]
	vers := "5.0\x00test\x00" + pr.Name + "\x00"
	recs, starts := s.records(w, pr)
	tail := writer{order: w.order, ss: w.ss, sl: w.sl, sv: w.sv}
	for k := len(pr.Events) - 1; k >= 0; k-- {
		e := pr.Events[k]
		tail.short(e.Item)
		tail.long(int64(e.Interval))
		tail.ptr(e.Group)
		tail.double(e.Time)
	}
	for _, v := range []int{1, w.ss, w.sl, w.sv, sd} {
		w.uint(uint64(v), 2)
	}
	maxLev := 0
	for _, iv := range pr.Intervals {
		maxLev = max(maxLev, level(pr.Intervals, iv))
	}
	w.short(len(s.Grid))
	w.short(maxLev)
	w.short(0)
	w.short(len(vers))
	for _, v := range []int64{int64(len(s.Procs)), 3, 0, int64(len(pr.Intervals)), int64(size), int64(len(recs)), int64(tail.b.Len())} {
		w.long(v)
	}
	w.ptr(pbuffer)
	w.double(pr.TestTime)
	for _, d := range s.Grid {
		w.long(d)
	}
	w.b.WriteString(vers)
	at := w.b.Len()
	w.long(dvmhHeader)
	w.long(dvmhConstPart)
	w.long(threads)
	w.b.Write(make([]byte, dvmhHeader-(w.b.Len()-at)))
	if w.b.Len() != starts {
		panic(fmt.Sprintf("ststest: records start at %d, expected %d", w.b.Len(), starts))
	}
	w.b.Write(recs)
	if w.b.Len()+tail.b.Len() > size {
		panic("ststest: buffer too small")
	}
	w.b.Write(make([]byte, size-w.b.Len()-tail.b.Len()))
	w.b.Write(tail.b.Bytes())
	return w.b.Bytes()
}

func def(v, d int) int {
	if v == 0 {
		return d
	}
	return v
}

func level(ivs []Interval, iv Interval) int {
	n := 0
	for iv.Parent >= 0 {
		iv = ivs[iv.Parent]
		n++
	}
	return n
}

// headerLen is the buffer offset of the first interval record.
func headerLen(w *writer, rank, lvers int) int {
	return 10 + 4*w.ss + 7*w.sl + w.sv + 8 + rank*w.sl + lvers + dvmhHeader
}

// records encodes the interval records; it returns them and the buffer
// offset they start at.
func (s Spec) records(w *writer, pr Proc) ([]byte, int) {
	start := headerLen(w, len(s.Grid), len("5.0\x00test\x00"+pr.Name+"\x00"))
	ivs := pr.Intervals
	fixed := 2*w.ss + 7*w.sl + 4*w.sv + 7*8 + 3*Groups*Groups*8
	offs := make([]int, len(ivs))
	o := start
	for k, iv := range ivs {
		offs[k] = o
		o += fixed + dvmhConstPart + 16*threads + len(iv.File) + 1
	}
	addr := func(k int) uint64 {
		if k < 0 {
			return 0
		}
		return pbuffer + uint64(offs[k])
	}
	r := &writer{order: w.order, ss: w.ss, sl: w.sl, sv: w.sv}
	for k, iv := range ivs {
		next, down := -1, -1
		for j := k + 1; j < len(ivs); j++ {
			if ivs[j].Parent == iv.Parent && next < 0 && iv.Parent >= 0 {
				next = j
			}
			if ivs[j].Parent == k && down < 0 {
				down = j
			}
		}
		r.short(level(ivs, iv))
		r.short(iv.Type)
		for _, v := range []int64{iv.Line, iv.Line + 5, iv.Expr, iv.QProc, int64(k + 1), 0, 0} {
			r.long(v)
		}
		r.ptr(addr(iv.Parent))
		r.ptr(addr(next))
		r.ptr(addr(down))
		r.ptr(0)
		r.double(iv.Enter)
		for range 6 {
			r.double(0)
		}
		for i := range Groups {
			for j := range Groups {
				c := iv.Cells[[2]int{i, j}]
				r.double(c[0])
				r.double(c[1])
				r.double(c[2])
			}
		}
		r.long(0) // GPU mask
		for range 8 * 22 {
			r.short(0)
			r.short(0)
			r.long(0)
			for _, v := range []float64{-1, -1, math.MaxFloat32, 0, 0, 0} {
				r.double(v)
			}
		}
		r.b.Write(make([]byte, dvmhConstPart-w.sl-8*22*(2*w.ss+w.sl+48)))
		r.double(0) // thread user time
		r.double(0) // thread system time
		r.b.WriteString(iv.File)
		r.b.WriteByte(0)
	}
	return r.b.Bytes(), start
}

// GzPlus returns the file in the .gz+ layout.
func (s Spec) GzPlus() []byte {
	var out bytes.Buffer
	fmt.Fprintf(&out, "%d\x00%d\x00", def(s.BufSize, 64<<10), len(s.Procs))
	for p := range s.Procs {
		out.Write(Compress(s.Buffer(p)))
	}
	return out.Bytes()
}

// Compress returns a processor block of the .gz+ layout: the compressed
// size as ASCII with a NUL, then the zlib stream.
func Compress(buf []byte) []byte {
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	zw.Write(buf)
	zw.Close()
	return append([]byte(fmt.Sprintf("%.10d\x00", z.Len())), z.Bytes()...)
}

// Plain returns the file in the plain layout (buffers back to back).
func (s Spec) Plain() []byte {
	var out bytes.Buffer
	for p := range s.Procs {
		out.Write(s.Buffer(p))
	}
	return out.Bytes()
}

// RecordsOffset is the buffer offset of processor p's first interval record.
func (s Spec) RecordsOffset(p int) int {
	w := &writer{ss: def(s.SizeShort, 2), sl: def(s.SizeLong, 8), sv: def(s.SizePtr, 8)}
	return headerLen(w, len(s.Grid), len("5.0\x00test\x00"+s.Procs[p].Name+"\x00"))
}
