package orders

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/presage-dvm/presage/orders/tracefile"
)

// spill keeps the orders record mode has recorded until they are
// renumbered: in memory up to memOrders orders, beyond that as lines in a
// temporary file, with in memory only what renumbering needs: each
// order's start in the as-soon-as-possible schedule and its line's place
// in the file, 24 bytes an order (a tree of a million orders peaked at
// 621 MB in memory, 124 MB spilled). Small traces never pay for the
// file's encoding and decoding, which triples record mode's cost per
// order.
type spill struct {
	mem  []*tracefile.Order // by recording number, until the file is made
	f    *os.File
	w    *bufio.Writer
	size int64 // bytes written
	keys []spilled
	buf  []byte
	err  error // the first failure of the file, reported at the end
}

// memOrders is how many orders are kept in memory before the spill file
// is made: tens of megabytes.
const memOrders = 1 << 16

// spilled is where an order's line is, and when it starts as soon as
// possible.
type spilled struct {
	asap float64
	off  int64
	n    int32
}

// spillFile makes the file and writes the orders kept in memory to it.
func (s *spill) spillFile() {
	f, err := os.CreateTemp("", "presage-record-*.jsonl")
	if err != nil {
		s.err = err
		return
	}
	s.f, s.w = f, bufio.NewWriterSize(f, 1<<16)
	mem := s.mem
	s.mem = nil
	for _, o := range mem {
		if o != nil {
			s.write(o)
		}
	}
}

// count is the number of orders made so far.
func (s *spill) count() int64 { return int64(len(s.keys)) }

// made files a new order, numbered count().
func (s *spill) made(asap float64) {
	s.keys = append(s.keys, spilled{asap: asap})
	if s.f == nil && s.err == nil {
		s.mem = append(s.mem, nil)
	}
}

// ended keeps o, which has ended.
func (s *spill) ended(o *tracefile.Order) {
	switch {
	case s.err != nil:
	case s.f != nil:
		s.write(o)
	case len(s.mem) > memOrders:
		s.mem[o.ID-1] = o
		s.spillFile()
	default:
		s.mem[o.ID-1] = o
	}
}

// write writes o's line to the file.
func (s *spill) write(o *tracefile.Order) {
	s.buf = tracefile.AppendOrder(s.buf[:0], o)
	k := &s.keys[o.ID-1]
	k.off, k.n = s.size, int32(len(s.buf))
	if _, err := s.w.Write(s.buf); err != nil && s.err == nil {
		s.err = err
	}
	s.size += int64(len(s.buf))
}

// close removes the file, if any.
func (s *spill) close() error {
	if s.f == nil {
		return nil
	}
	return cmp.Or(s.f.Close(), os.Remove(s.f.Name()))
}

// renumber returns, by recording number, the number of each order in the
// order an as-soon-as-possible run makes them (unlimited computers, free
// transfers), ties kept in the order of the recording, and the recording
// numbers in that order.
//
// A sequential recording numbers depth first: a parent's second child
// comes after the whole subtree of its first. A simulator reads orders as
// they are made, and a parallel run makes the second child long before the
// first one's subtree, so in recording order it would have to read ahead
// and hold that subtree. In as-soon-as-possible order it reads about as
// far as the run has got. Both are creation orders: a child is made no
// earlier than its parent, and an order's children in the order it makes
// them.
func (s *spill) renumber() (newID []int64, order []int32) {
	order = make([]int32, len(s.keys))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortStableFunc(order, func(a, b int32) int { return cmp.Compare(s.keys[a].asap, s.keys[b].asap) })
	newID = make([]int64, len(s.keys)+1) // by recording number; newID[0] = 0 for main's parent
	for i, k := range order {
		newID[k+1] = int64(i + 1)
	}
	return newID, order
}

// writeTo writes the kept orders' lines to w renumbered, each with its
// continuation lines (tracefile.AppendOrderLines).
func (s *spill) writeTo(w io.Writer) error {
	if s.f != nil {
		s.err = cmp.Or(s.err, s.w.Flush())
	}
	if s.err != nil {
		return fmt.Errorf("orders: record mode's spill file: %w", s.err)
	}
	newID, order := s.renumber()
	dec := tracefile.NewDecoder()
	var line []byte
	for _, k := range order {
		o, err := s.order(k, dec)
		if err != nil {
			return err
		}
		o.ID, o.Parent = newID[o.ID], newID[o.Parent]
		for j := range o.Requests {
			o.Requests[j].Order = newID[o.Requests[j].Order]
		}
		line, _ = tracefile.AppendOrderLines(line[:0], o, tracefile.LineItems)
		if _, err := w.Write(append(line, '\n')); err != nil {
			return err
		}
	}
	return nil
}

// order returns the order of recording number k+1, from memory or from
// the file.
func (s *spill) order(k int32, dec *tracefile.Decoder) (*tracefile.Order, error) {
	if s.f == nil {
		return s.mem[k], nil
	}
	key := s.keys[k]
	line := slices.Grow(s.buf[:0], int(key.n))[:key.n]
	if _, err := s.f.ReadAt(line, key.off); err != nil {
		return nil, fmt.Errorf("orders: record mode's spill file: %w", err)
	}
	s.buf = line
	o, err := dec.Decode(line)
	if err != nil {
		return nil, fmt.Errorf("orders: record mode's spill file, order %d: %w", k+1, err)
	}
	return o, nil
}
