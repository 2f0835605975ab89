package network

import (
	"encoding/binary"
	"math"
)

// Sending a batch when only its end matters.
//
// A channel serializes its messages: each begins when it is issued or
// when the channel is free, whichever is later, and keeps the channel busy
// for TStart + bytes×TByte. On a cluster whose every channel is the only
// one of its cluster, the messages of one channel form a chain of
// dependent additions that no other channel's messages touch, so a batch
// can be sent channel by channel. And once a channel's busy time has
// passed every later message's issue time, its chain is pure
// accumulation, cur = (cur + TStart) + d, which within one binade of cur
// (where every double is a multiple of the same ulp u) rounds each
// addend to a multiple of u independently of cur: fl(cur + x) =
// cur + round(x/u)·u. The rest of the chain then costs one multiply-add per
// distinct message size instead of two dependent additions per message,
// with the very same bits — except on a tie of that rounding, where the
// result depends on cur's last bit and the chain is walked.

// chain is the messages of a batch that use one channel, in send order.
type chain struct {
	ch    int32     // the channel
	ts    float64   // its cluster's start-up time (machine.Link.StartUp)
	msgs  []int32   // indices into the batch, in send order
	kinds []int32   // kinds[j]: index in d of msgs[j]'s transfer time
	d     []float64 // the distinct transfer times of the chain's messages
	count []int64   // messages of each transfer time
}

// shortChain is the length below which a chain is simply walked.
const shortChain = 16

// maxKinds bounds the distinct transfer times of a chain that is
// accumulated; a chain of more sizes is walked.
const maxKinds = 16

// chainsOf groups b's messages by channel, or returns nil when one of
// them may use several channels (the channel is then chosen by the busy
// times, message by message, and only SendBatch's order is right).
func chainsOf(n *Net, b *Batch) []chain {
	at := make([]int32, len(n.busy)) // channel → 1 + index in chains
	var sizes, firsts []int          // per chain: messages, and its first
	for i, ch := range b.ch {
		if ch < 0 {
			return nil
		}
		if at[ch] == 0 {
			sizes, firsts = append(sizes, 0), append(firsts, i)
			at[ch] = int32(len(sizes))
		}
		sizes[at[ch]-1]++
	}
	// The chains' slices are cut from one slab each. A chain has few
	// transfer times: room for a few, and the rare chain of more grows
	// its own.
	const fewKinds = 4
	m := len(b.ch)
	msgs, kinds := make([]int32, m), make([]int32, m)
	d, count := make([]float64, len(sizes)*fewKinds), make([]int64, len(sizes)*fewKinds)
	chains := make([]chain, len(sizes))
	off := 0
	for k, size := range sizes {
		c := &chains[k]
		c.ch, c.ts = b.ch[firsts[k]], n.link[b.route[firsts[k]]].StartUp()
		c.msgs, c.kinds = msgs[off:off:off+size], kinds[off:off:off+size]
		c.d, c.count = d[k*fewKinds:k*fewKinds:(k+1)*fewKinds], count[k*fewKinds:k*fewKinds:(k+1)*fewKinds]
		off += size
	}
	for i, ch := range b.ch {
		c := &chains[at[ch]-1]
		kind := -1
		for j, d := range c.d {
			if math.Float64bits(d) == math.Float64bits(b.d[i]) {
				kind = j
				break
			}
		}
		if kind < 0 {
			kind = len(c.d)
			c.d = append(c.d, b.d[i])
			c.count = append(c.count, 0)
		}
		c.count[kind]++
		c.msgs = append(c.msgs, int32(i))
		c.kinds = append(c.kinds, int32(kind))
	}
	return chains
}

// twinGroup is short chains of one shape: the same TStart and the same
// sequence of transfer times.
type twinGroup struct {
	chains []int32     // indices into the batch's chains
	refs   []sharedRef // the shared busy times of their channels, if bound
}

// twinsOf groups the short chains by shape, their TStart and the sequence
// of their messages' transfer times, and lists the long chains apart.
func twinsOf(chains []chain) (twins []twinGroup, long []int32) {
	shapes := map[string]int{}
	var key []byte
	for k := range chains {
		c := &chains[k]
		if len(c.msgs) >= shortChain {
			long = append(long, int32(k))
			continue
		}
		key = binary.LittleEndian.AppendUint64(key[:0], math.Float64bits(c.ts))
		for _, kind := range c.kinds {
			key = binary.LittleEndian.AppendUint64(key, math.Float64bits(c.d[kind]))
		}
		g, ok := shapes[string(key)]
		if !ok {
			g = len(twins)
			shapes[string(key)] = g
			twins = append(twins, twinGroup{})
		}
		twins[g].chains = append(twins[g].chains, int32(k))
	}
	return twins, long
}

// Clocks are the clocks of processors kept per class of processors with
// equal clocks, as the simulator keeps them: processor p's clock is
// Base + Offset[Class[p]].
type Clocks struct {
	Base   float64
	Offset []float64
	Class  []int32
}

// Of is the clock of processor p.
func (c *Clocks) Of(p int) float64 { return c.Base + c.Offset[c.Class[p]] }

// SendSpan sends the messages of b, message i issued at the clock of
// processor issuers[i], none earlier than earliest nor later than latest,
// and leaves every channel busy until exactly the time SendBatch would; it
// returns the latest end of a message (0 for an empty batch), without the
// per-message times SendBatch stores. It reads the clocks of the messages
// it walks only.
func (n *Net) SendSpan(b *Batch, issuers []int, clocks *Clocks, earliest, latest float64) float64 {
	issues := issueTimes{issuers, clocks}
	if b.chains == nil {
		return n.sendSpanOrdered(b, issues)
	}
	first, bound := float64(float32(earliest)), float64(float32(latest))
	end := 0.0
	if first == bound {
		// Every message is sent at the same time: the short chains of one
		// shape that start from one busy time end at one busy time.
		for i := range b.twins {
			end = later(end, n.sendTwins(b.chains, &b.twins[i], bound))
		}
		for _, k := range b.long {
			end = later(end, n.sendChain(&b.chains[k], issues, bound))
		}
		return end
	}
	for k := range b.chains {
		end = later(end, n.sendChain(&b.chains[k], issues, bound))
	}
	return end
}

// sendTwins sends the short chains of twin group g, every message sent
// at time t, and returns the latest end. While their channels share
// their busy times (shared.go), one chain is walked per shared time;
// otherwise the chains that start from the same busy time as one already
// walked are not walked again, and the channels then share their times.
func (n *Net) sendTwins(chains []chain, g *twinGroup, t float64) float64 {
	if n.bound(g.refs) || n.adopt(chains, g) {
		return n.sendShared(&chains[g.chains[0]], g, t)
	}
	var walked [maxShares]struct{ from, to float64 }
	nwalked := 0
	end := 0.0
	for _, k := range g.chains {
		c := &chains[k]
		cur := n.busyOf(c.ch)
		done := false
		for _, w := range walked[:nwalked] {
			if math.Float64bits(w.from) == math.Float64bits(cur) {
				cur, done = w.to, true
				break
			}
		}
		if !done {
			from := cur
			cur = c.walk(cur, t)
			if nwalked < len(walked) {
				walked[nwalked] = struct{ from, to float64 }{from, cur}
				nwalked++
			}
		}
		n.setBusy(c.ch, cur)
		end = later(end, cur)
	}
	n.bind(chains, g)
	return end
}

// walk returns the busy time of a channel busy until cur after the
// messages of c, all issued at time t.
func (c *chain) walk(cur, t float64) float64 {
	for _, kind := range c.kinds {
		cur = later(t, cur) + c.ts + c.d[kind]
	}
	return cur
}

// issueTimes are when the messages of a batch are issued: at the clocks
// of their issuers.
type issueTimes struct {
	issuers []int
	clocks  *Clocks
}

func (it issueTimes) at(i int32) float64 { return it.clocks.Of(it.issuers[i]) }

// sendSpanOrdered is SendSpan by SendBatch, for a batch without chains.
func (n *Net) sendSpanOrdered(b *Batch, issues issueTimes) float64 {
	m := b.Len()
	if cap(n.scratch) < 4*m {
		n.scratch = make([]float64, 4*m)
	}
	times := n.scratch[:4*m]
	sendAt := times[3*m:]
	for i := range sendAt {
		sendAt[i] = issues.at(int32(i))
	}
	n.SendBatch(b, sendAt, times[:m], times[m:2*m], times[2*m:3*m])
	end := 0.0
	for _, e := range times[2*m : 3*m] {
		end = later(end, e)
	}
	return end
}

// sendChain sends the messages of chain c, none issued after bound (in
// single precision, as send times are), and returns the channel's new
// busy time, which is also the end of its last message: the ends of a
// chain never decrease. It walks the messages until the channel is busy
// past bound, and accumulates the rest.
func (n *Net) sendChain(c *chain, issues issueTimes, bound float64) float64 {
	if len(c.msgs) < shortChain || len(c.d) > maxKinds {
		bound = math.Inf(1) // walk the whole chain
	}
	cur := n.busyOf(c.ch)
	j := 0
	for ; j < len(c.msgs) && !(cur >= bound); j++ {
		t := float64(float32(issues.at(c.msgs[j])))
		cur = later(t, cur) + c.ts + c.d[c.kinds[j]]
	}
	if j < len(c.msgs) {
		if next, ok := accumulate(c, j, cur); ok {
			cur = next
		} else {
			for ; j < len(c.msgs); j++ {
				cur = cur + c.ts + c.d[c.kinds[j]]
			}
		}
	}
	n.setBusy(c.ch, cur)
	return cur
}

// accumulate returns cur after messages from..end of chain c, all issued
// no later than cur, as the additions cur = (cur + ts) + d would leave
// it, when they stay within cur's binade and round without a tie;
// otherwise ok is false.
func accumulate(c *chain, from int, cur float64) (float64, bool) {
	exp := math.Float64bits(cur) >> 52 // cur ≥ 0: no sign bit
	if exp <= 52 || exp > 1023+52 {
		// Tiny (or subnormal), or so large that its ulp exceeds 1 and
		// x/ulp might lose bits; also excludes the not finite.
		return 0, false
	}
	ulp := math.Float64frombits((exp - 52) << 52)
	top := math.Float64frombits((exp + 1) << 52)
	room := int64((top - cur) / ulp) // exact: both are multiples of ulp
	var perKind [maxKinds]int64      // messages of each kind from "from" on
	copy(perKind[:], c.count)
	for _, k := range c.kinds[:from] {
		perKind[k]--
	}
	units, ok := unitsOf(c.ts, ulp, int64(len(c.msgs)-from), room)
	if !ok {
		return 0, false
	}
	for k, d := range c.d {
		u, ok := unitsOf(d, ulp, perKind[k], room-units)
		if !ok {
			return 0, false
		}
		units += u
	}
	if units >= room {
		return 0, false
	}
	return cur + float64(units)*ulp, true
}

// unitsOf returns count × x rounded to a multiple of ulp, in ulps, when
// the rounding has no tie and the product is below limit.
func unitsOf(x, ulp float64, count, limit int64) (int64, bool) {
	if count == 0 {
		return 0, true
	}
	if !(x >= 0) {
		return 0, false // the chain is monotone only for non-negative times
	}
	q := x / ulp // exact: ulp is a power of two no greater than 1
	if !(q < float64(limit)) {
		return 0, false
	}
	whole := math.Floor(q)
	units := int64(whole)
	switch frac := q - whole; {
	case frac == 0.5:
		return 0, false // a tie: rounded to even, it depends on cur's last bit
	case frac > 0.5:
		units++
	}
	if units > 0 && count > (limit-1)/units {
		return 0, false
	}
	return units * count, true
}
