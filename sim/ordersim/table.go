package ordersim

const pageBits = 12

// table finds the live orders by id, giving their numbers in the
// engine's arena (0 for none). Ids are dense and orders leave
// roughly in the order they came, so it is an array of pages of ids, a
// page freed when its last order leaves: cheaper than a map by half.
type table struct {
	pages []*page
	n     int
}

type page struct {
	slots [1 << pageBits]int32
	n     int
}

func (t *table) get(id int64) int32 {
	p := int(id >> pageBits)
	if p >= len(t.pages) || t.pages[p] == nil {
		return 0
	}
	return t.pages[p].slots[id&(1<<pageBits-1)]
}

func (t *table) put(l *live) {
	p := int(l.id >> pageBits)
	for p >= len(t.pages) {
		t.pages = append(t.pages, nil)
	}
	pg := t.pages[p]
	if pg == nil {
		pg = new(page)
		t.pages[p] = pg
	}
	pg.slots[l.id&(1<<pageBits-1)] = l.idx
	pg.n++
	t.n++
}

func (t *table) del(id int64) {
	p := int(id >> pageBits)
	pg := t.pages[p]
	pg.slots[id&(1<<pageBits-1)] = 0
	pg.n--
	t.n--
	if pg.n == 0 {
		t.pages[p] = nil
	}
}

// each calls f for every order in the table, by id.
func (t *table) each(f func(int32)) {
	for _, pg := range t.pages {
		if pg == nil {
			continue
		}
		for _, l := range pg.slots {
			if l != 0 {
				f(l)
			}
		}
	}
}
