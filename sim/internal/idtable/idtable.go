// Package idtable maps the ids of an order trace to small values, for
// the readers and simulators that follow orders by id.
//
// The ids of a trace are dense (1, 2, 3, … in creation order) and an id
// is usually held for a while and then let go roughly in the order it
// came, so a Table is an array of pages of ids, each page made when it
// gets its first value and freed when it loses its last: a look-up is two
// indexings, where a Go map hashes and probes (the maps of ids cost a
// quarter of ingest's time). An id too far from the others to be paged
// cheaply (a wild id in a bad trace) goes to a map, so that it costs no
// more memory than one entry. The last page emptied is kept for the next
// one needed.
package idtable

// pageBits sizes a page: 4,096 ids.
const pageBits = 12

// maxPages bounds the array of pages (ids below 2^32); ids beyond it are
// kept in a map.
const maxPages = 1 << 20

// Table maps ids ≥ 0 to values of V other than V's zero value, which
// stands for "none". Its zero value is an empty table ready to use.
type Table[V comparable] struct {
	pages []*page[V]
	spare *page[V] // the last page emptied, all zero, for the next page made
	far   map[int64]V
	n     int
}

type page[V comparable] struct {
	slots [1 << pageBits]V
	n     int // slots holding a value
}

// Get returns the value of id, the zero value when it has none.
func (t *Table[V]) Get(id int64) V {
	p := id >> pageBits
	if id < 0 || p >= maxPages {
		return t.far[id]
	}
	if p >= int64(len(t.pages)) || t.pages[p] == nil {
		var zero V
		return zero
	}
	return t.pages[p].slots[id&(1<<pageBits-1)]
}

// Set gives id the value v; the zero value deletes id.
func (t *Table[V]) Set(id int64, v V) {
	var zero V
	p := id >> pageBits
	if id < 0 || p >= maxPages {
		t.setFar(id, v)
		return
	}
	if p >= int64(len(t.pages)) {
		if v == zero {
			return
		}
		t.pages = append(t.pages, make([]*page[V], p+1-int64(len(t.pages)))...)
	}
	pg := t.pages[p]
	if pg == nil {
		if v == zero {
			return
		}
		pg, t.spare = t.spare, nil
		if pg == nil {
			pg = new(page[V])
		}
		t.pages[p] = pg
	}
	slot := &pg.slots[id&(1<<pageBits-1)]
	switch {
	case *slot == zero && v != zero:
		pg.n++
		t.n++
	case *slot != zero && v == zero:
		pg.n--
		t.n--
	}
	*slot = v
	if pg.n == 0 {
		// An id set and deleted at once (a wait on the next order, a
		// request for the next line) would otherwise make and clear a
		// page each time.
		t.pages[p], t.spare = nil, pg
	}
}

func (t *Table[V]) setFar(id int64, v V) {
	var zero V
	_, had := t.far[id]
	switch {
	case v == zero && had:
		delete(t.far, id)
		t.n--
	case v != zero:
		if t.far == nil {
			t.far = make(map[int64]V)
		}
		if !had {
			t.n++
		}
		t.far[id] = v
	}
}

// Delete removes id's value.
func (t *Table[V]) Delete(id int64) {
	var zero V
	t.Set(id, zero)
}

// Len returns the number of ids with a value.
func (t *Table[V]) Len() int { return t.n }

// Each calls f with every id and its value: the paged ids in increasing
// order, then the others in no particular order.
func (t *Table[V]) Each(f func(id int64, v V)) {
	var zero V
	for p, pg := range t.pages {
		if pg == nil {
			continue
		}
		for i, v := range pg.slots {
			if v != zero {
				f(int64(p)<<pageBits|int64(i), v)
			}
		}
	}
	for id, v := range t.far {
		f(id, v)
	}
}
