package ordertrace

import (
	"encoding/binary"
	"errors"
	"fmt"
	"github.com/presage-dvm/presage/orders/tracefile"
	"io"
	"math"
	"slices"
)

// The packed form is how the store keeps a trace (docs/orders.md, "The
// stored form"): what the simulator needs, binary, with ids implicit and
// names interned, so that reading an order back is a few varints and
// copies rather than a JSON parse. A chunk of consecutive orders packs
// into two byte strings: the orders (read by every simulation) and their
// segments (read only when asked: no simulation needs them, but the store
// keeps the whole trace).
//
// orders:   uvarint first id, then per order:
//
//	uvarint id−parent, uvarint proc (name index), f64 made_at, f64 duration,
//	varint arg_bytes, uvarint #requests, per request (varint order−id,
//	uvarint result, f64 at), uvarint #results, per result (f64 at, varint bytes)
//
// segments: per order, uvarint #segments, per segment (f64 start, f64 dur,
// uvarint block name index)
//
// f64 is a float64's IEEE bits, little-endian: every time comes back bit
// for bit.

// Packer packs orders into chunks, interning the procedure and block
// names of the whole trace in one list (Names).
type Packer struct {
	index map[string]uint64
	names []string
}

// NewPacker returns a packer with no name yet.
func NewPacker() *Packer { return &Packer{index: map[string]uint64{}} }

// Names returns the names the packed orders refer to, by index.
func (p *Packer) Names() []string { return p.names }

func (p *Packer) name(s string) uint64 {
	i, ok := p.index[s]
	if !ok {
		i = uint64(len(p.names))
		p.index[s] = i
		p.names = append(p.names, s)
	}
	return i
}

// StartChunk returns the start of a chunk whose first order is id.
func StartChunk(orders []byte, id int64) []byte {
	return binary.AppendUvarint(orders, uint64(id))
}

// Append packs o, the next order of the chunk, onto orders and segments.
func (p *Packer) Append(orders, segments []byte, o *Order) ([]byte, []byte) {
	b := binary.AppendUvarint(orders, uint64(o.ID-o.Parent))
	b = binary.AppendUvarint(b, p.name(o.Proc))
	b = appendF64(b, o.MadeAt)
	b = appendF64(b, o.Duration)
	b = binary.AppendVarint(b, o.ArgBytes)
	b = binary.AppendUvarint(b, uint64(len(o.Requests)))
	// Room for the requests at once, rather than by doublings of fresh
	// memory: a master's list of its millions of tasks is 100 MB packed.
	b = slices.Grow(b, packedRequest*len(o.Requests))
	for _, q := range o.Requests {
		b = binary.AppendVarint(b, q.Order-o.ID)
		b = binary.AppendUvarint(b, uint64(q.Result))
		b = appendF64(b, q.At)
	}
	b = binary.AppendUvarint(b, uint64(len(o.Results)))
	for _, r := range o.Results {
		b = appendF64(b, r.At)
		b = binary.AppendVarint(b, r.Bytes)
	}
	s := binary.AppendUvarint(segments, uint64(len(o.Segments)))
	for _, g := range o.Segments {
		s = appendF64(s, g.Start)
		s = appendF64(s, g.Dur)
		s = binary.AppendUvarint(s, p.name(g.Block))
	}
	return b, s
}

// packedRequest is about the bytes of a packed request: a varint
// distance, a result index and a time.
const packedRequest = 4 + 1 + 8

func appendF64(b []byte, f float64) []byte {
	return binary.LittleEndian.AppendUint64(b, math.Float64bits(f))
}

// Unpacker reads packed chunks back. Like a Reader, Next cuts orders
// from slabs, so that an order it returns stays the caller's; Scan
// reuses the caller's.
type Unpacker struct {
	names    []string
	orders   packed
	segments packed
	withSegs bool
	id       int64

	slab struct {
		orders   []Order
		requests []Request
	}
}

// NewUnpacker returns an unpacker of chunks whose names are names.
func NewUnpacker(names []string) *Unpacker { return &Unpacker{names: names} }

// Reset starts reading a chunk: its orders and, when segments is not nil,
// their segments (else the orders come without).
func (u *Unpacker) Reset(orders, segments []byte) error {
	u.orders, u.segments = packed{b: orders}, packed{b: segments}
	u.withSegs = segments != nil
	u.id = int64(u.orders.uvarint())
	if u.orders.err != nil || u.id < 1 {
		return errors.New("ordertrace: packed chunk without a first id")
	}
	return nil
}

// Next returns the chunk's next order, io.EOF after its last.
func (u *Unpacker) Next() (*Order, error) {
	o := u.order()
	if err := u.Scan(o); err != nil {
		return nil, err
	}
	return o, nil
}

// Scan decodes the chunk's next order into o, as a Scanner does (its
// lists reuse o's); io.EOF after the last.
func (u *Unpacker) Scan(o *Order) error {
	if len(u.orders.b) == 0 {
		if u.withSegs && len(u.segments.b) != 0 {
			return errors.New("ordertrace: packed chunk: segments after the last order")
		}
		return io.EOF
	}
	r := &u.orders
	o.ID = u.id
	o.Parent = u.id - int64(r.uvarint())
	o.Proc = u.name(r)
	o.MadeAt = r.f64()
	o.Duration = r.f64()
	o.ArgBytes = r.varint()
	n := r.count(1 + 1 + 8)
	if cap(o.Requests) < n {
		o.Requests = tracefile.Take(&u.slab.requests, n) // for Next, a fresh Order's
	}
	o.Requests = o.Requests[:n]
	for i := range o.Requests {
		o.Requests[i] = Request{Order: u.id + r.varint(), Result: int(r.uvarint()), At: r.f64()}
	}
	o.Results = o.Results[:0]
	for n := r.count(8 + 1); n > 0; n-- {
		o.Results = append(o.Results, Result{At: r.f64(), Bytes: r.varint()})
	}
	o.Segments = o.Segments[:0]
	if u.withSegs {
		s := &u.segments
		for n := s.count(8 + 8 + 1); n > 0; n-- {
			o.Segments = append(o.Segments, Segment{Start: s.f64(), Dur: s.f64(), Block: u.name(s)})
		}
		if s.err != nil {
			return fmt.Errorf("ordertrace: packed order %d: segments: %w", u.id, s.err)
		}
	}
	if r.err != nil {
		return fmt.Errorf("ordertrace: packed order %d: %w", u.id, r.err)
	}
	u.id++
	return nil
}

func (u *Unpacker) name(r *packed) string {
	i := r.uvarint()
	if i >= uint64(len(u.names)) {
		r.fail(errors.New("name index out of range"))
		return ""
	}
	return u.names[i]
}

// order returns a fresh, zero Order from the slab.
func (u *Unpacker) order() *Order {
	if len(u.slab.orders) == 0 {
		u.slab.orders = make([]Order, slabItems/4)
	}
	o := &u.slab.orders[0]
	u.slab.orders = u.slab.orders[1:]
	return o
}

// slabItems is the size of the slabs an Unpacker cuts orders' lists
// from, as tracefile's decoder does.
const slabItems = 1024

// packed reads the fields of packed bytes; the first defect sticks in err
// and every later read returns zero.
type packed struct {
	b   []byte
	err error
}

func (p *packed) fail(err error) {
	if p.err == nil {
		p.err = err
	}
	p.b = nil
}

func (p *packed) uvarint() uint64 {
	v, n := binary.Uvarint(p.b)
	if n <= 0 {
		p.fail(errors.New("truncated or bad uvarint"))
		return 0
	}
	p.b = p.b[n:]
	return v
}

func (p *packed) varint() int64 {
	v, n := binary.Varint(p.b)
	if n <= 0 {
		p.fail(errors.New("truncated or bad varint"))
		return 0
	}
	p.b = p.b[n:]
	return v
}

func (p *packed) f64() float64 {
	if len(p.b) < 8 {
		p.fail(errors.New("truncated float"))
		return 0
	}
	v := math.Float64frombits(binary.LittleEndian.Uint64(p.b))
	p.b = p.b[8:]
	return v
}

// count reads a list's length, refusing one that the bytes left cannot
// hold at least bytes apiece (so that damaged bytes cannot make it
// allocate beyond their size).
func (p *packed) count(least int) int {
	n := p.uvarint()
	if n > uint64(len(p.b)/least) {
		p.fail(errors.New("list longer than the bytes left"))
		return 0
	}
	return int(n)
}
