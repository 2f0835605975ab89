package ordergen

import (
	"bufio"
	"io"
	"iter"

	"github.com/presage-dvm/presage/orders/tracefile"
	"github.com/presage-dvm/presage/sim/ordertrace"
)

// Generate writes the trace opt describes to w: the header, then the
// orders in id order.
func Generate(w io.Writer, opt Options) error {
	opt, err := opt.check()
	if err != nil {
		return err
	}
	g := &gen{opt: opt, bw: bufio.NewWriterSize(w, 256<<10)}
	if err := g.header(); err != nil {
		return err
	}
	switch opt.Shape {
	case DivideAndConquer:
		err = g.divideAndConquer()
	case Pipeline:
		err = g.pipeline()
	case MasterWorker:
		err = g.masterWorker()
	}
	if err != nil {
		return err
	}
	return g.bw.Flush()
}

// gen writes the lines; o and buf are reused from line to line, so a line
// costs no allocation.
type gen struct {
	opt Options
	bw  *bufio.Writer
	buf []byte
	o   ordertrace.Order
}

func (g *gen) header() error {
	line, err := tracefile.AppendHeader(nil, tracefile.Header{Program: g.opt.Program, Unit: "s", Orders: g.opt.Count()})
	if err != nil {
		return err
	}
	_, err = g.bw.Write(line)
	return err
}

// reset prepares g.o for order id.
func (g *gen) reset(id, parent int64, proc string, madeAt float64) *ordertrace.Order {
	o := &g.o
	*o = ordertrace.Order{ID: id, Parent: parent, Proc: proc, MadeAt: madeAt,
		Segments: o.Segments[:0], Requests: o.Requests[:0], Results: o.Results[:0]}
	if parent != 0 {
		o.ArgBytes = g.opt.ArgBytes
	}
	return o
}

// work appends a segment of dur (block "" for unmarked code) and returns
// the moment it ends.
func work(o *ordertrace.Order, dur float64, block string) float64 {
	if dur > 0 {
		o.Segments = append(o.Segments, ordertrace.Segment{Start: o.Duration, Dur: dur, Block: block})
		o.Duration += dur
	}
	return o.Duration
}

// provide ends o with its one result.
func (g *gen) provide(o *ordertrace.Order) {
	o.Results = append(o.Results, ordertrace.Result{At: o.Duration, Bytes: g.opt.ResultBytes})
}

// write writes g.o.
func (g *gen) write() error {
	g.buf, _ = tracefile.AppendOrderLines(g.buf[:0], &g.o, tracefile.LineItems)
	g.buf = append(g.buf, '\n')
	_, err := g.bw.Write(g.buf)
	return err
}

// writeStreaming writes g.o with requests supplied one at a time: a main
// order waiting for millions of results.
func (g *gen) writeStreaming(requests iter.Seq[ordertrace.Request]) error {
	return tracefile.WriteOrder(g.bw, &g.o, requests, tracefile.LineItems)
}

// jittered returns cost drawn for order id (which tells the costs of one
// order apart).
func (g *gen) jittered(cost float64, id int64, which uint64) float64 {
	if g.opt.Jitter == 0 {
		return cost
	}
	u := float64(mix(g.opt.Seed^uint64(id)*0x9e3779b97f4a7c15^which*0xbf58476d1ce4e5b9)>>11) / (1 << 53)
	return cost * (1 + g.opt.Jitter*(2*u-1))
}

// mix is SplitMix64's finalizer: a counter-based generator, so that any
// order's draw can be recomputed from its id alone.
func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}

// Which cost of an order is drawn.
const (
	drawSplit = iota
	drawLeaf
	drawCombine
)
