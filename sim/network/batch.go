package network

// Batch is a fixed sequence of messages of a cluster network, routed once:
// the engine sends the same exchanges (a shadow group, a reduction) again
// and again. A Batch belongs to the Net that made it.
type Batch struct {
	route []int32   // lowest common cluster of every message
	ch    []int32   // its only channel, or -1 when the cluster has several
	d     []float64 // the message's transfer time on its cluster's link (machine.Link.Transfer)
	bytes []int64
	// chains are the messages grouped by channel, for SendSpan; nil when
	// some message's cluster has several channels. twins groups the short
	// ones by shape; long lists the others.
	chains []chain
	twins  []twinGroup
	long   []int32
}

// Len is the number of messages.
func (b *Batch) Len() int { return len(b.route) }

// NewBatch routes messages of bytes[i] bytes from[i] → to[i] (all
// different pairs of a cluster network).
func (n *Net) NewBatch(from, to []int, bytes []int64) *Batch {
	b := &Batch{
		route: make([]int32, len(from)), ch: make([]int32, len(from)),
		d:     make([]float64, len(from)),
		bytes: bytes,
	}
	for i := range from {
		r := n.common(from[i], to[i])
		b.route[i] = r
		b.d[i] = n.link[r].Transfer(bytes[i])
		b.ch[i] = -1
		if n.chN[r] == 1 {
			b.ch[i] = n.chOff[r]
		}
	}
	b.chains = chainsOf(n, b)
	b.twins, b.long = twinsOf(b.chains)
	return b
}

// SendBatch sends the messages of b in order, message i issued at
// sendAt[i], exactly as that many Send calls would, and stores each
// message's send time, begin and end. The busy time of a single channel
// stays in a register while consecutive messages use it.
func (n *Net) SendBatch(b *Batch, sendAt, t0, begin, end []float64) {
	cur, curCh := 0.0, int32(-1)
	for i, ch := range b.ch {
		t := float64(float32(sendAt[i]))
		var bg, e float64
		if ch >= 0 {
			if ch != curCh {
				if curCh >= 0 {
					n.setBusy(curCh, cur)
				}
				cur, curCh = n.busyOf(ch), ch
			}
			bg = later(t, cur)
			e = bg + n.link[b.route[i]].StartUp() + b.d[i]
			cur = e
		} else {
			if curCh >= 0 {
				n.setBusy(curCh, cur)
				curCh = -1
			}
			_, bg, e = n.sendVia(b.route[i], b.bytes[i], sendAt[i])
		}
		t0[i], begin[i], end[i] = t, bg, e
	}
	if curCh >= 0 {
		n.setBusy(curCh, cur)
	}
}

// later is max(a, b) for times, which are never NaN nor −0: a plain
// comparison, shorter on the chain of busy times than the builtin max.
func later(a, b float64) float64 {
	if a > b {
		return a
	}
	return b
}
