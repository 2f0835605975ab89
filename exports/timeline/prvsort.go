package timeline

import (
	"bufio"
	"container/heap"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"slices"
)

// Paraver wants its records in time order; the engine reports them in
// simulation order. record is one .prv record with its sort key; records
// are sorted in memory in runs of runLen, spilled to a temporary file when
// there is more than one run, and merged when the trace is written, so
// memory stays bounded whatever the length of the run.

// record is a state (kind 1) or a communication (kind 3).
type record struct {
	Time int64 // state begin or message send: the sort key
	End  int64 // state end or message arrival
	Size int64 // message bytes
	Proc int32 // state's processor or message's sender
	Peer int32 // message's receiver
	Kind uint8
	Val  uint8 // state or operation class
}

const recordBytes = 8*3 + 4*2 + 2

// less orders records by time, then states before communications, then
// processor, so that the order does not depend on the order of arrival.
func less(a, b record) int {
	switch {
	case a.Time != b.Time:
		return cmp64(a.Time, b.Time)
	case a.Kind != b.Kind:
		return int(a.Kind) - int(b.Kind)
	case a.Proc != b.Proc:
		return int(a.Proc - b.Proc)
	case a.Peer != b.Peer:
		return int(a.Peer - b.Peer)
	}
	return cmp64(a.End, b.End)
}

func cmp64(a, b int64) int {
	if a < b {
		return -1
	}
	if a > b {
		return 1
	}
	return 0
}

func (r *record) put(b []byte) {
	binary.LittleEndian.PutUint64(b[0:], uint64(r.Time))
	binary.LittleEndian.PutUint64(b[8:], uint64(r.End))
	binary.LittleEndian.PutUint64(b[16:], uint64(r.Size))
	binary.LittleEndian.PutUint32(b[24:], uint32(r.Proc))
	binary.LittleEndian.PutUint32(b[28:], uint32(r.Peer))
	b[32], b[33] = r.Kind, r.Val
}

func (r *record) get(b []byte) {
	r.Time = int64(binary.LittleEndian.Uint64(b[0:]))
	r.End = int64(binary.LittleEndian.Uint64(b[8:]))
	r.Size = int64(binary.LittleEndian.Uint64(b[16:]))
	r.Proc = int32(binary.LittleEndian.Uint32(b[24:]))
	r.Peer = int32(binary.LittleEndian.Uint32(b[28:]))
	r.Kind, r.Val = b[32], b[33]
}

// sorter sorts records with bounded memory.
type sorter struct {
	runLen int
	buf    []record
	spill  *os.File
	runs   []int64 // record counts of the spilled runs, in file order
	dir    string
}

func (s *sorter) add(r record) error {
	s.buf = append(s.buf, r)
	if len(s.buf) >= s.runLen {
		return s.spillRun()
	}
	return nil
}

// spillRun sorts the buffered records and appends them to the spill file.
func (s *sorter) spillRun() error {
	if s.spill == nil {
		f, err := os.CreateTemp(s.dir, "presage-timeline-*.runs")
		if err != nil {
			return err
		}
		s.spill = f
	}
	slices.SortFunc(s.buf, less)
	w := bufio.NewWriterSize(s.spill, 1<<16)
	var b [recordBytes]byte
	for i := range s.buf {
		s.buf[i].put(b[:])
		w.Write(b[:])
	}
	if err := w.Flush(); err != nil {
		return err
	}
	s.runs = append(s.runs, int64(len(s.buf)))
	s.buf = s.buf[:0]
	return nil
}

// each yields every record in order, then removes the spill file.
func (s *sorter) each(yield func(record) error) (err error) {
	slices.SortFunc(s.buf, less)
	if s.spill == nil {
		for _, r := range s.buf {
			if err := yield(r); err != nil {
				return err
			}
		}
		return nil
	}
	defer func() { err = errors.Join(err, s.spill.Close(), os.Remove(s.spill.Name())) }()
	h := &mergeHeap{}
	off := int64(0)
	for _, n := range s.runs {
		rd := &runReader{r: bufio.NewReaderSize(io.NewSectionReader(s.spill, off*recordBytes, n*recordBytes), 1<<15)}
		off += n
		if ok, err := rd.next(); err != nil {
			return err
		} else if ok {
			heap.Push(h, rd)
		}
	}
	mem := &runReader{mem: s.buf}
	if ok, _ := mem.next(); ok {
		heap.Push(h, mem)
	}
	for h.Len() > 0 {
		rd := (*h)[0]
		if err := yield(rd.cur); err != nil {
			return err
		}
		ok, err := rd.next()
		if err != nil {
			return err
		}
		if ok {
			heap.Fix(h, 0)
		} else {
			heap.Pop(h)
		}
	}
	return nil
}

// runReader reads one sorted run, from the spill file or from memory.
type runReader struct {
	r   *bufio.Reader
	mem []record
	cur record
}

func (rd *runReader) next() (bool, error) {
	if rd.r == nil {
		if len(rd.mem) == 0 {
			return false, nil
		}
		rd.cur, rd.mem = rd.mem[0], rd.mem[1:]
		return true, nil
	}
	var b [recordBytes]byte
	if _, err := io.ReadFull(rd.r, b[:]); err == io.EOF {
		return false, nil
	} else if err != nil {
		return false, err
	}
	rd.cur.get(b[:])
	return true, nil
}

type mergeHeap []*runReader

func (h mergeHeap) Len() int           { return len(h) }
func (h mergeHeap) Less(i, j int) bool { return less(h[i].cur, h[j].cur) < 0 }
func (h mergeHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *mergeHeap) Push(x any)        { *h = append(*h, x.(*runReader)) }
func (h *mergeHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
