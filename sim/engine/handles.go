package engine

// handles holds the engine's objects of one kind by their run-time
// handles (groups, loops, arrays, ...). A trace has few of them alive at
// once, and creates and deletes some at every iteration: the first
// fewHandles are kept in a slice searched linearly, which costs less than
// a Go map's hashing, and whose deletion does not reseed a hash as a map
// emptied by a delete does; past fewHandles every entry moves to a map, so
// that a trace with many live objects keeps constant-time lookups. Nothing
// ranges over a table: the order of its entries does not matter.
type handles[K comparable, V any] struct {
	refs []K
	vals []V
	many map[K]V // nil until more than fewHandles entries were held at once
}

// fewHandles is the most entries a table searches linearly.
const fewHandles = 16

// get returns the value of ref and whether it is present.
func (t *handles[K, V]) get(ref K) (V, bool) {
	if t.many != nil {
		v, ok := t.many[ref]
		return v, ok
	}
	for i, r := range t.refs {
		if r == ref {
			return t.vals[i], true
		}
	}
	var zero V
	return zero, false
}

// has reports whether ref is present.
func (t *handles[K, V]) has(ref K) bool {
	_, ok := t.get(ref)
	return ok
}

// set makes v the value of ref.
func (t *handles[K, V]) set(ref K, v V) {
	if t.many != nil {
		t.many[ref] = v
		return
	}
	for i, r := range t.refs {
		if r == ref {
			t.vals[i] = v
			return
		}
	}
	if len(t.refs) < fewHandles {
		t.refs, t.vals = append(t.refs, ref), append(t.vals, v)
		return
	}
	t.many = make(map[K]V, 2*fewHandles)
	for i, r := range t.refs {
		t.many[r] = t.vals[i]
	}
	t.many[ref] = v
	t.refs, t.vals = nil, nil
}

// remove forgets ref, if present.
func (t *handles[K, V]) remove(ref K) {
	if t.many != nil {
		delete(t.many, ref)
		return
	}
	for i, r := range t.refs {
		if r == ref {
			last := len(t.refs) - 1
			t.refs[i], t.vals[i] = t.refs[last], t.vals[last]
			var zero V
			t.vals[last] = zero // no longer held
			t.refs, t.vals = t.refs[:last], t.vals[:last]
			return
		}
	}
}

// recent holds the last fewRecent entries put in a cache map, searched
// linearly before the map: a program repeats a few lookups at every
// iteration (a mappl_ per loop, an inssh_ per array), and comparing a key
// is cheaper than hashing it. The owner empties it when it empties the
// map, so that it answers only as the map would.
type recent[K comparable, V any] struct {
	keys [fewRecent]K
	vals [fewRecent]V
	n    int // entries held, up to fewRecent
	next int // the entry put replaces next (round robin)
}

// fewRecent is the most entries a recent list holds.
const fewRecent = 8

// get returns the value of key and whether it is held.
func (r *recent[K, V]) get(key K) (V, bool) {
	for i := range r.n {
		if r.keys[i] == key {
			return r.vals[i], true
		}
	}
	var zero V
	return zero, false
}

// put holds v as the value of key, which the list does not hold,
// replacing the oldest entry when the list is full.
func (r *recent[K, V]) put(key K, v V) {
	r.keys[r.next], r.vals[r.next] = key, v
	r.next = (r.next + 1) % fewRecent
	if r.n < fewRecent {
		r.n++
	}
}

// reset empties the list.
func (r *recent[K, V]) reset() { *r = recent[K, V]{} }
