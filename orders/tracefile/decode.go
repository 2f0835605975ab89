package tracefile

import "bytes"

// decoder turns order lines into Orders, interning names. For order it
// cuts the returned orders and their lists from slabs, so that a typical
// line costs no allocation of its own: a returned Order stays valid for
// as long as the caller keeps it (slabs are never reused), at the price
// of keeping its slab's neighbours alive too. For orderInto it decodes
// into the caller's Order and lists, which a caller that keeps nothing of
// an order once used (ingest) recycles: no fresh memory for its orders.
type decoder struct {
	s      scanner
	recent recentFloats // the scanner's, kept from line to line
	reuse  bool         // decoding into the caller's order (orderInto)
	orders []Order
	segs   []Segment
	reqs   []Request
	ress   []Result
	names  map[string]string

	// scratch lists, copied to the slabs once their length is known
	segTmp []Segment
	reqTmp []Request
	resTmp []Result
}

const (
	slabOrders = 256
	slabItems  = 1024
	// maxNames bounds the interned names: a trace names a few procedures
	// and blocks; a pathological one must not grow the table forever.
	maxNames = 4096
	// maxKept bounds the list memory a reused Order keeps from one line
	// to the next: a master's list of a million requests is dropped
	// rather than held for the rest of the trace.
	maxKept = 4096
)

// The fields of an order line, as bits; required are the ones without
// omitempty.
const (
	hasID = 1 << iota
	hasParent
	hasProc
	hasMadeAt
	hasArgBytes
	hasDuration
	hasSegments
	hasRequests
	hasResults
	required = hasID | hasParent | hasProc | hasMadeAt | hasArgBytes | hasDuration
)

var orderFields = []string{"id", "parent", "proc", "made_at", "arg_bytes", "duration", "segments", "requests", "results"}

func newDecoder() *decoder { return &decoder{names: make(map[string]string)} }

// order decodes one line into an order cut from the slabs.
func (d *decoder) order(line []byte) (*Order, error) {
	if len(d.orders) == 0 {
		d.orders = make([]Order, slabOrders)
	}
	o := &d.orders[0]
	d.reuse = false
	if err := d.decode(line, o); err != nil {
		return nil, err
	}
	d.orders = d.orders[1:]
	return o, nil
}

// orderInto decodes one line into o, overwriting it and reusing its
// lists' memory.
func (d *decoder) orderInto(line []byte, o *Order) error {
	*o = Order{Segments: reusable(o.Segments), Requests: reusable(o.Requests), Results: reusable(o.Results)}
	d.reuse = true
	return d.decode(line, o)
}

// reusable returns list emptied, or nil when it is too long to keep.
func reusable[T any](list []T) []T {
	if cap(list) > maxKept {
		return nil
	}
	return list[:0]
}

// decode decodes line, one order object, into o.
func (d *decoder) decode(line []byte, o *Order) error {
	d.s = scanner{b: line, recent: &d.recent}
	if err := d.orderObject(o); err != nil {
		return err
	}
	if d.s.peek() != 0 {
		return d.s.failf("found %s after the order object (expected one order per line)", d.s.found())
	}
	return nil
}

// keep returns items, the decoder's scratch, as an order's list: copied
// into the memory of the order's own list dst when the decoder reuses the
// caller's order, else cut from slab.
func keep[T any](d *decoder, dst []T, slab *[]T, items []T) []T {
	switch {
	case d.reuse:
		return append(dst[:0], items...)
	case len(items) == 0:
		return nil
	}
	return cut(slab, items)
}

// moreFields are the fields of a continuation line (docs/orders.md).
var moreFields = []string{"more", "segments", "requests", "results"}

// more decodes a continuation line of order o and appends its lists to
// o's.
func (d *decoder) more(line []byte, o *Order) error {
	d.s = scanner{b: line, recent: &d.recent}
	var id int64
	err := d.object(moreFields, 1, func(k []byte) (int, error) {
		var err error
		switch string(k) {
		case "more":
			id, err = d.s.int64()
			return 1, err
		case "segments":
			err = d.segments()
			o.Segments = append(o.Segments, d.segTmp...)
			return 2, err
		case "requests":
			err = d.requests()
			o.Requests = append(o.Requests, d.reqTmp...)
			return 4, err
		case "results":
			err = d.results()
			o.Results = append(o.Results, d.resTmp...)
			return 8, err
		}
		return 0, nil
	})
	switch {
	case err != nil:
		return err
	case d.s.peek() != 0:
		return d.s.failf("found %s after the object (expected one object per line)", d.s.found())
	case id != o.ID:
		return d.s.failf("continues order %d after order %d's line (expected \"more\":%d)", id, o.ID, o.ID)
	}
	return nil
}

// continues reports whether b, the start of a line, is a continuation
// line: an object whose first key is "more".
func continues(b []byte) bool {
	s := scanner{b: b}
	if s.peek() != '{' {
		return false
	}
	s.i++
	return s.peek() == '"' && bytes.HasPrefix(s.b[s.i:], []byte(`"more"`))
}

func (d *decoder) orderObject(o *Order) error {
	return d.object(orderFields, required, func(k []byte) (int, error) { return d.orderField(k, o) })
}

// orderField decodes the value of field k and returns the field's bit, 0
// for an unknown field.
func (d *decoder) orderField(k []byte, o *Order) (bit int, err error) {
	s := &d.s
	switch string(k) {
	case "id":
		o.ID, err = s.int64()
		return hasID, err
	case "parent":
		o.Parent, err = s.int64()
		return hasParent, err
	case "proc":
		o.Proc, err = d.name()
		return hasProc, err
	case "made_at":
		o.MadeAt, err = s.float64()
		return hasMadeAt, err
	case "arg_bytes":
		o.ArgBytes, err = s.int64()
		return hasArgBytes, err
	case "duration":
		o.Duration, err = s.float64()
		return hasDuration, err
	case "segments":
		err = d.segments()
		o.Segments = keep(d, o.Segments, &d.segs, d.segTmp)
		return hasSegments, err
	case "requests":
		err = d.requests()
		o.Requests = keep(d, o.Requests, &d.reqs, d.reqTmp)
		return hasRequests, err
	case "results":
		err = d.results()
		o.Results = keep(d, o.Results, &d.ress, d.resTmp)
		return hasResults, err
	}
	return 0, nil
}

// name reads a string and interns it.
func (d *decoder) name() (string, error) {
	b, err := d.s.stringBytes()
	if err != nil {
		return "", err
	}
	if n, ok := d.names[string(b)]; ok {
		return n, nil
	}
	n := string(b)
	if len(d.names) < maxNames {
		d.names[n] = n
	}
	return n, nil
}

// list decodes a JSON array (or null) of objects, calling elem for each.
func (d *decoder) list(elem func() error) error {
	s := &d.s
	if s.null() {
		return nil
	}
	if err := s.expect('[', "'[' starting a list"); err != nil {
		return err
	}
	for first := true; ; first = false {
		more, err := s.more(']', first)
		if err != nil || !more {
			return err
		}
		if err := elem(); err != nil {
			return err
		}
	}
}

// object decodes a JSON object whose fields field decodes (returning the
// field's bit, 0 for an unknown field) and checks that the fields in need
// are there.
func (d *decoder) object(names []string, need int, field func(k []byte) (int, error)) error {
	s := &d.s
	if err := s.expect('{', "'{' starting an object"); err != nil {
		return err
	}
	seen := 0
	for first := true; ; first = false {
		more, err := s.more('}', first)
		if err != nil {
			return err
		}
		if !more {
			if seen&need != need {
				s.i-- // at the closing brace
				return s.failf("missing field %q", missing(seen, need, names))
			}
			return nil
		}
		at := s.i
		k, err := s.key()
		if err != nil {
			return err
		}
		bit, err := field(k)
		if err != nil {
			return err
		}
		if bit == 0 {
			s.i = at
			return s.failf("unknown field %q (expected one of %s)", k, joinNames(names))
		}
		if seen&bit != 0 {
			s.i = at
			return s.failf("field %q repeated", k)
		}
		seen |= bit
	}
}

var (
	segmentFields = []string{"start", "dur", "block"}
	requestFields = []string{"order", "result", "at"}
	resultFields  = []string{"at", "bytes"}
)

// segments decodes a list of segments into d.segTmp.
func (d *decoder) segments() error {
	d.segTmp = d.segTmp[:0]
	err := d.list(func() error {
		var g Segment
		err := d.object(segmentFields, 1|2, func(k []byte) (bit int, err error) {
			switch string(k) {
			case "start":
				g.Start, err = d.s.float64()
				return 1, err
			case "dur":
				g.Dur, err = d.s.float64()
				return 2, err
			case "block":
				g.Block, err = d.name()
				return 4, err
			}
			return 0, nil
		})
		d.segTmp = append(d.segTmp, g)
		return err
	})
	return err
}

// requests decodes a list of requests into d.reqTmp.
func (d *decoder) requests() error {
	d.reqTmp = d.reqTmp[:0]
	err := d.list(func() error {
		var q Request
		err := d.object(requestFields, 1|4, func(k []byte) (bit int, err error) {
			switch string(k) {
			case "order":
				q.Order, err = d.s.int64()
				return 1, err
			case "result":
				var n int64
				n, err = d.s.int64()
				q.Result = int(n)
				if err == nil && int64(q.Result) != n {
					err = d.s.failf("result index out of range")
				}
				return 2, err
			case "at":
				q.At, err = d.s.float64()
				return 4, err
			}
			return 0, nil
		})
		d.reqTmp = append(d.reqTmp, q)
		return err
	})
	return err
}

// results decodes a list of results into d.resTmp.
func (d *decoder) results() error {
	d.resTmp = d.resTmp[:0]
	err := d.list(func() error {
		var r Result
		err := d.object(resultFields, 1|2, func(k []byte) (bit int, err error) {
			switch string(k) {
			case "at":
				r.At, err = d.s.float64()
				return 1, err
			case "bytes":
				r.Bytes, err = d.s.int64()
				return 2, err
			}
			return 0, nil
		})
		d.resTmp = append(d.resTmp, r)
		return err
	})
	return err
}

// cut copies items into a fresh piece of *slab (capacity-limited, so that
// an append by the caller cannot overwrite a neighbour).
func cut[T any](slab *[]T, items []T) []T {
	out := Take(slab, len(items))
	copy(out, items)
	return out
}

// Take returns a piece of n items of *slab, capacity-limited (an append
// by the caller cannot overwrite a neighbour), cutting a new slab when
// *slab is short: the decoder's lists and sim/ordertrace's Unpacker share
// it.
func Take[T any](slab *[]T, n int) []T {
	if n > len(*slab) {
		size := slabItems
		if n > slabItems/4 {
			size = n // a long list gets its own array
		}
		*slab = make([]T, size)
	}
	out := (*slab)[:n:n]
	*slab = (*slab)[n:]
	return out
}

// missing names the first required field not seen.
func missing(seen, need int, names []string) string {
	for i, n := range names {
		if need&(1<<i) != 0 && seen&(1<<i) == 0 {
			return n
		}
	}
	return ""
}

func joinNames(names []string) string {
	out := ""
	for i, n := range names {
		if i > 0 {
			out += ", "
		}
		out += n
	}
	return out
}

// Decoder decodes order lines, the inverse of AppendOrderLines: the one
// decoder of the format, for sim/ordertrace's Reader and for the runtime,
// whose record mode keeps orders as lines of its own until it knows their
// final numbers. It interns names. It checks each line's syntax and its
// fields' types, not the order's meaning (sim/ordertrace's Reader does).
type Decoder struct{ d *decoder }

// NewDecoder returns a decoder of order lines.
func NewDecoder() *Decoder { return &Decoder{d: newDecoder()} }

// Decode decodes an order's first line (without its newline) into a
// fresh Order, cut with its lists from slabs: a typical line costs no
// allocation of its own, and the Order stays valid for as long as the
// caller keeps it (slabs are never reused), at the price of keeping its
// slab's neighbours alive too.
func (d *Decoder) Decode(line []byte) (*Order, error) { return d.d.order(line) }

// DecodeInto decodes an order's first line into o, overwriting it and
// reusing its lists' memory: for a caller that keeps nothing of an order
// once used.
func (d *Decoder) DecodeInto(line []byte, o *Order) error { return d.d.orderInto(line, o) }

// More decodes a continuation line of o (Continues) and appends its
// lists to o's.
func (d *Decoder) More(line []byte, o *Order) error { return d.d.more(line, o) }

// Continues reports whether b, the start of a line, is a continuation
// line: an object whose first key is "more".
func Continues(b []byte) bool { return continues(b) }
