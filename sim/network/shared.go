package network

import "math"

// Channels that share one busy time.
//
// A shadow exchange sends the same few messages over every node of a
// large machine, all issued at one time, so every node's channel ends up
// busy until the same time. Rather than writing that time into thousands
// of channels at every exchange, the channels of a group of twin chains
// (twinsOf) that end at one time share it: the Net keeps the time once in
// a shared time, the channels' home. A message sent on one channel alone
// detaches it: the channel keeps a time of its own and is listed as
// detached by its home. The next send of the same twin chains walks one
// chain per home, then one per detached channel, which is attached again
// when it ends at its home's time (a reduction's message to processor 0
// detaches one channel at every iteration). Its cost no longer grows
// with the number of channels.

// sharedTime is the busy time of the channels attached to it.
type sharedTime struct {
	busy     float64
	attached int32   // channels whose time this is
	detached int32   // channels of this home with a time of their own
	left     []int32 // the detached channels, and stale entries of channels moved since
	serial   uint64  // tells a reused slot from the time a group bound to
}

// size is the number of channels of the home.
func (s *sharedTime) size() int32 { return s.attached + s.detached }

// sharedRef is a twin group's binding to a home: it holds while the home
// is still the one bound to and has the same channels. The channels of
// a bound group are exactly those of its homes.
type sharedRef struct {
	net    *Net
	id     int32
	serial uint64
	size   int32
}

// A channel's state in Net.share: attached to home s (s ≥ 0), detached
// from home s (detachedFrom(s)), or homeless.
const homeless = -1

func detachedFrom(s int32) int32 { return -2 - s }

// maxShares bounds the distinct busy times of a twin group that are kept
// shared; a group of more is walked chain by chain.
const maxShares = 4

// minShared is the number of twin chains below which sharing their time
// saves nothing worth its bookkeeping.
const minShared = 4

// busyOf is the time channel ch is busy until.
func (n *Net) busyOf(ch int32) float64 {
	if n.share != nil {
		if s := n.share[ch]; s >= 0 {
			return n.shared[s].busy
		}
	}
	return n.busy[ch]
}

// setBusy gives channel ch a busy time of its own.
func (n *Net) setBusy(ch int32, t float64) {
	if n.share != nil {
		if s := n.share[ch]; s >= 0 {
			n.share[ch] = detachedFrom(s)
			h := &n.shared[s]
			h.attached--
			h.detached++
			h.left = append(h.left, ch)
		}
	}
	n.busy[ch] = t
}

// newShared returns a new home of no channel yet.
func (n *Net) newShared(busy float64) int32 {
	if n.share == nil {
		n.share = make([]int32, len(n.busy))
		for i := range n.share {
			n.share[i] = homeless
		}
	}
	n.serial++
	t := sharedTime{busy: busy, serial: n.serial}
	if k := len(n.free); k > 0 {
		s := n.free[k-1]
		n.free = n.free[:k-1]
		n.shared[s] = t
		return s
	}
	n.shared = append(n.shared, t)
	return int32(len(n.shared) - 1)
}

// unhome takes channel ch, which has a time of its own, out of its
// home, if any, and frees the home it leaves empty.
func (n *Net) unhome(ch int32) {
	v := n.share[ch]
	if v == homeless {
		return
	}
	s := detachedFrom(v) // v is detached: sendTwins has set ch's time
	n.share[ch] = homeless
	h := &n.shared[s]
	h.detached--
	if h.size() == 0 {
		n.free = append(n.free, s)
	}
}

// dropShares gives every channel its own busy time again.
func (n *Net) dropShares() {
	if n.share == nil {
		return
	}
	for ch, s := range n.share {
		if s >= 0 {
			n.busy[ch] = n.shared[s].busy
		}
	}
	n.share, n.shared, n.free = nil, nil, nil
}

// bound reports whether every home a twin group was bound to holds.
func (n *Net) bound(refs []sharedRef) bool {
	if len(refs) == 0 {
		return false
	}
	for _, r := range refs {
		if r.net != n || int(r.id) >= len(n.shared) {
			return false
		}
		if h := &n.shared[r.id]; h.serial != r.serial || h.size() != r.size {
			return false
		}
	}
	return true
}

// homeOf is the home of channel ch, or homeless.
func (n *Net) homeOf(ch int32) int32 {
	switch v := n.share[ch]; {
	case v >= 0:
		return v
	case v == homeless:
		return homeless
	default:
		return detachedFrom(v)
	}
}

// adopt binds twin group g to the homes its channels already have, when
// they are exactly all the channels of at most maxShares homes (another
// batch's twins over the same channels made them).
func (n *Net) adopt(chains []chain, g *twinGroup) bool {
	g.refs = g.refs[:0]
	if n.share == nil {
		return false
	}
	var ids [maxShares]int32
	var count [maxShares]int32
	homes := 0
next:
	for _, k := range g.chains {
		s := n.homeOf(chains[k].ch)
		if s == homeless {
			return false
		}
		for i := range homes {
			if ids[i] == s {
				count[i]++
				continue next
			}
		}
		if homes == maxShares {
			return false
		}
		ids[homes], count[homes] = s, 1
		homes++
	}
	for i, s := range ids[:homes] {
		if n.shared[s].size() != count[i] {
			return false
		}
	}
	for i, s := range ids[:homes] {
		g.refs = append(g.refs, sharedRef{net: n, id: s, serial: n.shared[s].serial, size: count[i]})
	}
	return true
}

// sendShared sends twin group g, bound to its homes, every message
// issued at time t, and returns the latest end: one walk of the chain per
// home, then one per detached channel, attached again when it ends at its
// home's time.
func (n *Net) sendShared(c *chain, g *twinGroup, t float64) float64 {
	end := 0.0
	for _, r := range g.refs {
		h := &n.shared[r.id]
		h.busy = c.walk(h.busy, t)
		end = later(end, h.busy)
		if h.detached == 0 {
			h.left = h.left[:0]
			continue
		}
		// Filtered in place: only channels attached to h append to its
		// list, and the loop attaches without detaching.
		kept := h.left[:0]
		for _, ch := range h.left {
			if n.share[ch] != detachedFrom(r.id) {
				continue // a stale entry: the channel has moved home
			}
			cur := c.walk(n.busy[ch], t)
			end = later(end, cur)
			if math.Float64bits(cur) == math.Float64bits(h.busy) {
				n.share[ch] = r.id
				h.attached++
				h.detached--
				continue
			}
			n.busy[ch] = cur
			kept = append(kept, ch)
		}
		h.left = kept
	}
	return end
}

// bind gives the channels of twin group g, which all have times of their
// own, homes by busy time (at most maxShares distinct ones), and binds g
// to them.
func (n *Net) bind(chains []chain, g *twinGroup) {
	g.refs = g.refs[:0]
	if len(g.chains) < minShared {
		return
	}
	var times [maxShares]float64
	distinct := 0
next:
	for _, k := range g.chains {
		t := n.busy[chains[k].ch]
		for _, u := range times[:distinct] {
			if math.Float64bits(t) == math.Float64bits(u) {
				continue next
			}
		}
		if distinct == maxShares {
			return
		}
		times[distinct] = t
		distinct++
	}
	for _, t := range times[:distinct] {
		s := n.newShared(t)
		g.refs = append(g.refs, sharedRef{net: n, id: s, serial: n.shared[s].serial})
	}
	for _, k := range g.chains {
		ch := chains[k].ch
		n.unhome(ch)
		for i := range g.refs {
			r := &g.refs[i]
			if math.Float64bits(n.busy[ch]) == math.Float64bits(times[i]) {
				n.share[ch] = r.id
				n.shared[r.id].attached++
				r.size++
				break
			}
		}
	}
}
