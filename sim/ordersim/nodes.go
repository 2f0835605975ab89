package ordersim

import (
	"math/bits"
	"slices"
)

// node is a computer of the simulated cluster.
type node struct {
	cores     int
	running   int // cores running an order
	xferring  int // cores held while an order's arguments arrive
	runtime   int // cores busy with the runtime's own work for an order that left them (occupy)
	suspended int // orders started here and waiting for a result (or a core to resume)
	last      float64
	stats     NodeStats

	resume fifo  // resumable orders of this node, ahead of any new order
	local  deque // new orders placed here (LeastLoaded, Locality, WorkStealing)
	// next are the orders started ahead here (Cluster.Ahead), oldest
	// first, and releaseAt when the coordinator's release of a core an
	// order left for a wait comes; grown, how many more than
	// Cluster.Ahead per core it may hold (ahead.go, starved).
	next      deque
	releaseAt float64
	grown     int
}

func (n *node) free() int { return n.cores - n.running - n.xferring - n.runtime }

// account charges the time since the node's last change to its counters.
func (n *node) account(t float64) {
	dt := t - n.last
	if dt <= 0 {
		return
	}
	n.last = t
	n.stats.Busy += float64(n.running+n.runtime) * dt
	n.stats.Transfer += float64(n.xferring) * dt
	if free := float64(n.free()); n.suspended > 0 {
		n.stats.Waiting += free * dt
	} else {
		n.stats.Idle += free * dt
	}
}

// fifo is a queue of orders, by their numbers in the engine's arena.
type fifo struct {
	q    []int32
	head int
}

func (f *fifo) len() int { return len(f.q) - f.head }

func (f *fifo) push(l *live) { f.q = append(f.q, l.idx) }

// pushFront puts l at the head of the queue.
func (f *fifo) pushFront(l *live) {
	if f.head > 0 {
		f.head--
		f.q[f.head] = l.idx
		return
	}
	f.q = slices.Insert(f.q, 0, l.idx)
}

// oldest is the order pop would return.
func (f *fifo) oldest() int32 { return f.q[f.head] }

func (f *fifo) pop() int32 {
	l := f.q[f.head]
	f.head++
	if f.head == len(f.q) {
		f.q, f.head = f.q[:0], 0
	} else if f.head > 1024 && f.head*2 > len(f.q) {
		n := copy(f.q, f.q[f.head:])
		f.q, f.head = f.q[:n], 0
	}
	return l
}

// deque is a fifo that can also give up its newest order.
type deque struct{ fifo }

func (d *deque) popNewest() int32 {
	last := len(d.q) - 1
	l := d.q[last]
	d.q = d.q[:last]
	if d.head == len(d.q) {
		d.q, d.head = d.q[:0], 0
	}
	return l
}

// bitset is a set of node numbers, scanned from the lowest.
type bitset []uint64

func newBitset(n int) bitset { return make(bitset, (n+63)/64) }

func (b bitset) set(i int, on bool) {
	if on {
		b[i/64] |= 1 << (i % 64)
	} else {
		b[i/64] &^= 1 << (i % 64)
	}
}

// next returns the lowest member ≥ i, or -1.
func (b bitset) next(i int) int {
	w := i / 64
	if w >= len(b) {
		return -1
	}
	word := b[w] >> (i % 64)
	if word != 0 {
		return i + bits.TrailingZeros64(word)
	}
	for w++; w < len(b); w++ {
		if b[w] != 0 {
			return w*64 + bits.TrailingZeros64(b[w])
		}
	}
	return -1
}

// loads keeps the number of unfinished orders of every node and finds the
// least loaded one (the lowest number among equals) in O(log nodes): a
// segment tree whose leaves are the nodes.
type loads struct {
	size int
	load []int
	tree []int32 // tree[i]: the node of least load under i
}

func newLoads(n int) *loads {
	size := 1
	for size < n {
		size *= 2
	}
	l := &loads{size: size, load: make([]int, size), tree: make([]int32, 2*size)}
	for i := n; i < size; i++ {
		l.load[i] = int(^uint(0) >> 1) // padding never wins
	}
	for i := range size {
		l.tree[size+i] = int32(i)
	}
	for i := size - 1; i > 0; i-- {
		l.tree[i] = l.better(l.tree[2*i], l.tree[2*i+1])
	}
	return l
}

func (l *loads) better(a, b int32) int32 {
	if l.load[b] < l.load[a] {
		return b
	}
	return a
}

func (l *loads) add(node int32, d int) {
	l.load[node] += d
	for i := (l.size + int(node)) / 2; i > 0; i /= 2 {
		l.tree[i] = l.better(l.tree[2*i], l.tree[2*i+1])
	}
}

func (l *loads) least() int32 { return l.tree[1] }
