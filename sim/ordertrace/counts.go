package ordertrace

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// Counts are, for every order of a trace, the number of children it makes
// and the number of requests that name it. The format says neither, and a
// lazy reader needs both: the first to stop reading when an order has
// made its last child (rather than reading to the end of the trace to be
// sure), the second to drop an order once its last request is served.
// They cost two bytes an order (the rare larger counts in a map).
type Counts struct {
	orders   int64
	requests int64 // requests counted so far
	kids     tally
	reqs     tally
	future   map[int64]uint32 // requests naming orders far ahead, not added yet
}

// Add counts o, which must be the trace's next order (ids count up from 1).
func (c *Counts) Add(o *Order) error {
	if o.ID != c.orders+1 {
		return fmt.Errorf("order %d where order %d was expected (ids count up from 1 in creation order)", o.ID, c.orders+1)
	}
	if o.ID > 1 && (o.Parent < 1 || o.Parent >= o.ID) {
		return fmt.Errorf("order %d has parent %d (expected an earlier order)", o.ID, o.Parent)
	}
	c.orders++
	c.kids.grow(o.ID)
	c.reqs.grow(o.ID)
	if n, ok := c.future[o.ID]; ok {
		c.reqs.add(o.ID, n)
		delete(c.future, o.ID)
	}
	if o.ID > 1 {
		c.kids.add(o.Parent, 1)
	}
	for _, r := range o.Requests {
		c.requests++
		switch {
		case r.Order < 1:
			return fmt.Errorf("order %d requests order %d (expected an id ≥ 1)", o.ID, r.Order)
		case r.Order <= o.ID+nearby+perRequest*c.requests:
			c.reqs.grow(r.Order)
			c.reqs.add(r.Order, 1)
		default:
			if c.future == nil {
				c.future = map[int64]uint32{}
			}
			c.future[r.Order]++
		}
	}
	return nil
}

// A request may name an order up to nearby after the order being read,
// and perRequest more for every request counted so far, to be counted at
// once, in the table (a byte an order); requests further ahead wait in a
// map, so that a wild id costs no memory. The table so grows by at most
// perRequest bytes a request read. A master's requests of its millions
// of tasks, on its first line, name orders as far ahead as they are
// many: in the map, they took a sixth of a 10M-order ingest.
const (
	nearby     = 1 << 22
	perRequest = 8
)

// Finish checks what only the end of the trace decides: that it has an
// order and that every order requested is in it.
func (c *Counts) Finish() error {
	for id := range c.future {
		return fmt.Errorf("a request names order %d, which is not in the trace (it has %d)", id, c.orders)
	}
	for id := c.orders + 1; id < int64(len(c.reqs.small)); id++ {
		if c.reqs.small[id] != 0 {
			return fmt.Errorf("a request names order %d, which is not in the trace (it has %d)", id, c.orders)
		}
	}
	if c.orders == 0 {
		return errors.New("the trace has no order (expected the main order, id 1)")
	}
	return nil
}

// Orders returns the number of orders counted.
func (c *Counts) Orders() int64 { return c.orders }

// Kids returns the number of children order id makes.
func (c *Counts) Kids(id int64) uint32 { return c.kids.get(id) }

// Requests returns the number of requests that name order id.
func (c *Counts) Requests(id int64) uint32 { return c.reqs.get(id) }

// AppendBinary appends the counts of a finished trace: the number of
// orders, then each order's children and requests, as uvarints.
func (c *Counts) AppendBinary(b []byte) ([]byte, error) {
	if len(c.future) > 0 {
		return b, errors.New("ordertrace: counts of an unfinished trace")
	}
	b = binary.AppendUvarint(b, uint64(c.orders))
	for id := int64(1); id <= c.orders; id++ {
		b = binary.AppendUvarint(b, uint64(c.kids.get(id)))
		b = binary.AppendUvarint(b, uint64(c.reqs.get(id)))
	}
	return b, nil
}

// UnmarshalBinary reads counts written by AppendBinary.
func (c *Counts) UnmarshalBinary(data []byte) error {
	*c = Counts{}
	n, data, err := uvarint(data)
	if err != nil || n > uint64(len(data)) { // two bytes an order at least
		return errors.New("ordertrace: counts: bad number of orders")
	}
	c.orders = int64(n)
	c.kids.small = make([]uint8, n+1)
	c.reqs.small = make([]uint8, n+1)
	for id := int64(1); id <= c.orders; id++ {
		var k, r uint64
		if k, data, err = uvarint(data); err == nil {
			r, data, err = uvarint(data)
		}
		if err != nil || k > 1<<32-1 || r > 1<<32-1 {
			return fmt.Errorf("ordertrace: counts: order %d unreadable", id)
		}
		c.kids.add(id, uint32(k))
		c.reqs.add(id, uint32(r))
	}
	if len(data) != 0 {
		return errors.New("ordertrace: counts: bytes after the last order")
	}
	return nil
}

// tally is a small count per order id: one byte each, the rare larger
// counts in a map.
type tally struct {
	small []uint8
	big   map[int64]uint32
}

func (t *tally) grow(id int64) {
	if n := id + 1 - int64(len(t.small)); n > 0 {
		t.small = append(t.small, make([]uint8, n)...)
	}
}

func (t *tally) add(id int64, n uint32) {
	if n == 0 {
		return
	}
	v := t.get(id) + n
	if v < 255 {
		t.small[id] = uint8(v)
		return
	}
	t.small[id] = 255
	if t.big == nil {
		t.big = map[int64]uint32{}
	}
	t.big[id] = v
}

func (t *tally) get(id int64) uint32 {
	if id >= int64(len(t.small)) {
		return 0
	}
	if v := t.small[id]; v < 255 {
		return uint32(v)
	}
	return t.big[id]
}

// uvarint reads a uvarint from the front of b.
func uvarint(b []byte) (uint64, []byte, error) {
	v, n := binary.Uvarint(b)
	if n <= 0 {
		return 0, b, errors.New("bad uvarint")
	}
	return v, b[n:], nil
}
