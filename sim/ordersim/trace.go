package ordersim

import (
	"errors"
	"fmt"
	"io"

	"github.com/presage-dvm/presage/sim/ordertrace"
)

// Prepared is an order trace ready to simulate, as many times as needed.
//
// The format does not say how many children an order makes nor how many
// requests name it, and a lazy reader must know both: the first to stop
// reading when an order has made its last child (rather than reading to
// the end of the trace to be sure), the second to drop an order once its
// last request is served. Prepare reads the trace once to count them, in
// two bytes per order; every simulation then reads it again, lazily.
type Prepared struct {
	open   func() (ordertrace.Source, error)
	orders int64
	kids   tally // children of each order
	reqs   tally // requests naming each order
}

// Prepare counts the children and the requests of every order of the
// trace open returns. open must return the same trace every time.
func Prepare(open func() (ordertrace.Source, error)) (*Prepared, error) {
	src, err := open()
	if err != nil {
		return nil, err
	}
	t := &Prepared{open: open}
	future := map[int64]uint32{} // requests naming orders not read yet
	for {
		o, err := src.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if o.ID != t.orders+1 {
			return nil, fmt.Errorf("ordersim: order %d where order %d was expected (ids count up from 1 in creation order)", o.ID, t.orders+1)
		}
		t.orders++
		t.kids.grow(o.ID)
		t.reqs.grow(o.ID)
		if n, ok := future[o.ID]; ok {
			t.reqs.add(o.ID, n)
			delete(future, o.ID)
		}
		if o.ID > 1 && (o.Parent < 1 || o.Parent >= o.ID) {
			return nil, fmt.Errorf("ordersim: order %d has parent %d (expected an earlier order)", o.ID, o.Parent)
		}
		if o.ID > 1 {
			t.kids.add(o.Parent, 1)
		}
		for _, r := range o.Requests {
			switch {
			case r.Order < 1:
				return nil, fmt.Errorf("ordersim: order %d requests order %d (expected an id ≥ 1)", o.ID, r.Order)
			case r.Order <= o.ID:
				t.reqs.add(r.Order, 1)
			default:
				future[r.Order]++
			}
		}
	}
	for id := range future {
		return nil, fmt.Errorf("ordersim: a request names order %d, which is not in the trace (it has %d)", id, t.orders)
	}
	if t.orders == 0 {
		return nil, errors.New("ordersim: the trace has no order (expected the main order, id 1)")
	}
	return t, nil
}

// Simulate prepares the trace open returns and plays it on cl.
func Simulate(open func() (ordertrace.Source, error), cl Cluster, opt Options) (*Result, error) {
	t, err := Prepare(open)
	if err != nil {
		return nil, err
	}
	return t.Simulate(cl, opt)
}

// Simulate plays the trace on cl and returns the prediction. The trace is
// read lazily: an order when its parent is about to make it, or when an
// order's next child is needed. The simulation copies what it needs of
// each order read and keeps of the order itself only its Requests, until
// they are played; it does not modify the orders.
func (t *Prepared) Simulate(cl Cluster, opt Options) (*Result, error) {
	if err := cl.Validate(); err != nil {
		return nil, err
	}
	if err := opt.validate(); err != nil {
		return nil, err
	}
	src, err := t.open()
	if err != nil {
		return nil, err
	}
	e := newEngine(t, src, cl, opt)
	if err := e.run(); err != nil {
		return nil, err
	}
	return e.result(), nil
}

// tally is a small count per order id: one byte each, the rare larger
// counts in a map.
type tally struct {
	small []uint8
	big   map[int64]uint32
}

func (t *tally) grow(id int64) {
	for int64(len(t.small)) <= id {
		t.small = append(t.small, 0)
	}
}

func (t *tally) add(id int64, n uint32) {
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
