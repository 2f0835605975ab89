package engine

import (
	"cmp"
	"slices"

	"github.com/presage-dvm/presage/sim/network"
)

// transfers is a CommCost matrix T[p1][p2] (bytes from absolute processor p1
// to p2), kept sparse and sent in row-major order.
type transfers struct {
	L      int
	added  []transfer    // since the last merge, in no order
	merged []transfer    // the rest, summed, without zeros nor p1 = p2, in row-major order
	plan   *sendPlan     // of the cluster network, made on first use
	msgs   []network.Msg // of a bus or mesh, made on first use
}

// transfer is n bytes from p1 to p2, keyed p1×L + p2.
type transfer struct{ key, n int64 }

func (t *transfers) from(x transfer) int { return int(x.key / int64(t.L)) }
func (t *transfers) to(x transfer) int   { return int(x.key % int64(t.L)) }

func newTransfers(L int) *transfers { return &transfers{L: L} }

// clone returns an independent copy of t.
func (t *transfers) clone() *transfers {
	return &transfers{L: t.L, added: slices.Clone(t.added), merged: slices.Clone(t.merged)}
}

// empty reports whether nothing was ever added.
func (t *transfers) empty() bool { return len(t.added) == 0 && len(t.merged) == 0 }

// add records n more bytes from p1 to p2.
func (t *transfers) add(p1, p2 int, n int64) {
	if n == 0 {
		return
	}
	t.added = append(t.added, transfer{int64(p1)*int64(t.L) + int64(p2), n})
	t.plan, t.msgs = nil, nil
}

// grow makes room for n more transfers.
func (t *transfers) grow(n int) { t.added = slices.Grow(t.added, n) }

// sorted returns the non-zero transfers with p1 ≠ p2 in row-major order.
func (t *transfers) sorted() []transfer {
	if len(t.added) == 0 {
		return t.merged
	}
	all := append(t.added, t.merged...)
	sortTransfers(all, int64(t.L))
	out := all[:0] // merged in place: never longer than what was read
	for i := 0; i < len(all); {
		k, sum := all[i].key, int64(0)
		for ; i < len(all) && all[i].key == k; i++ {
			sum += all[i].n
		}
		if x := (transfer{k, sum}); sum != 0 && t.from(x) != t.to(x) {
			out = append(out, x)
		}
	}
	t.merged, t.added = out, nil
	return out
}

// list returns the sorted transfers as messages, made once.
func (t *transfers) list() []network.Msg {
	if t.msgs != nil || len(t.added)+len(t.merged) == 0 {
		return t.msgs
	}
	ts := t.sorted()
	t.msgs = make([]network.Msg, len(ts))
	for i, x := range ts {
		t.msgs[i] = network.Msg{From: t.from(x), To: t.to(x), Bytes: x.n}
	}
	return t.msgs
}

// sortTransfers sorts ts by key. Transfers are mostly added sender by
// sender (a shadow edge's messages, processor after processor), so when
// the senders already come in order only each sender's few are sorted.
func sortTransfers(ts []transfer, L int64) {
	byKey := func(a, b transfer) int { return cmp.Compare(a.key, b.key) }
	for i := 1; i < len(ts); i++ {
		if ts[i].key/L < ts[i-1].key/L {
			slices.SortFunc(ts, byKey)
			return
		}
	}
	for i := 0; i < len(ts); {
		j := i + 1
		for j < len(ts) && ts[j].key/L == ts[i].key/L {
			j++
		}
		if row := ts[i:j]; len(row) > 12 {
			slices.SortFunc(row, byKey)
		} else {
			insertionSort(row)
		}
		i = j
	}
}

// insertionSort sorts a few transfers by key.
func insertionSort(ts []transfer) {
	for i := 1; i < len(ts); i++ {
		for j := i; j > 0 && ts[j].key < ts[j-1].key; j-- {
			ts[j], ts[j-1] = ts[j-1], ts[j]
		}
	}
}

// flagRec is the copy-flag record of aarrcp_/crtrbl_: per-processor time
// stamps relative to the processors' clocks.
type flagRec struct {
	stamp     []float64
	timeStart float64
	timeEnd   float64
}

// getCost sends every transfer of t in row-major order and returns the time
// from the first send to the last arrival (docs/model.md §3); 0 when nothing is
// sent.
func (e *Engine) getCost(t *transfers, f *flagRec) float64 {
	if e.net.Kind() != network.Cluster {
		return e.formulaCost(t, f)
	}
	pl := e.plan(t)
	n := pl.batch.Len()
	if n == 0 {
		return 0
	}
	if f == nil && !e.recordsMessages() && !e.inOrder {
		if cost, ok := e.exchangeSpan(pl); ok {
			return cost
		}
	}
	s := e.sends(n)
	for i, p := range pl.from {
		s.at[i] = e.clock(p)
	}
	e.net.SendBatch(pl.batch, s.at, s.t0, s.begin, s.end)
	e.recordBatch(e.opOfCall(), pl.from, pl.to, pl.bytes, s.at, s.end)
	minStart, maxEnd := s.span()
	if f != nil {
		for i, p := range pl.from {
			q := pl.to[i]
			f.stamp[p] = max(f.stamp[p], s.end[i]-s.at[i])
			f.stamp[q] = max(f.stamp[q], s.end[i]-e.clock(q))
		}
		f.timeStart = minStart
	}
	return maxEnd - minStart
}

// exchangeSpan is getCost when neither copy flags nor a recorder need the
// times of each message, and no message is issued before the first one:
// then no message begins before the first is issued, so the start is the
// first message's send time, and the network sends the batch channel by
// channel. ok is false when a message is issued before the first.
func (e *Engine) exchangeSpan(pl *sendPlan) (cost float64, ok bool) {
	earliest, latest := e.clockRange(pl.from, &pl.senders)
	first := float64(float32(e.clock(pl.from[0])))
	if float64(float32(earliest)) < first {
		return 0, false
	}
	return e.sendSpan(pl.batch, pl.from, earliest, latest) - first, true
}

// sendPlan is the routed message sequence of a transfer matrix: its
// messages between processors of the root VM in row-major order.
type sendPlan struct {
	from, to []int
	bytes    []int64
	batch    *network.Batch
	senders  senderClasses
}

// plan returns t's send plan, made once.
func (e *Engine) plan(t *transfers) *sendPlan {
	if t.plan != nil {
		return t.plan
	}
	ts := t.sorted()
	pl := &sendPlan{from: make([]int, 0, len(ts)), to: make([]int, 0, len(ts)), bytes: make([]int64, 0, len(ts))}
	for _, x := range ts {
		if from, to := t.from(x), t.to(x); from < e.L && to < e.L {
			pl.from = append(pl.from, from)
			pl.to = append(pl.to, to)
			pl.bytes = append(pl.bytes, x.n)
		}
	}
	pl.batch = e.net.NewBatch(pl.from, pl.to, pl.bytes)
	t.plan = pl
	return pl
}

// sendTimes are scratch arrays of a batch send: when each message is
// issued and its send time, begin and end.
type sendTimes struct {
	at, t0, begin, end []float64
}

// span returns the start and the end of a batch sent: the latest end,
// and as start the first message's send time, replaced by the send time
// of any later message that begins before the start so far, as the
// original does (docs/model.md §3).
func (s *sendTimes) span() (start, end float64) {
	start, end = s.t0[0], s.end[0]
	for i := 1; i < len(s.t0); i++ {
		if s.begin[i] < start {
			start = s.t0[i]
		}
		end = later(end, s.end[i])
	}
	return start, end
}

// sends returns the engine's scratch arrays sized n.
func (e *Engine) sends(n int) *sendTimes {
	s := &e.scratch
	if cap(s.at) < n {
		c := max(n, 2*cap(s.at))
		s.at, s.t0 = make([]float64, c), make([]float64, c)
		s.begin, s.end = make([]float64, c), make([]float64, c)
	}
	s.at, s.t0, s.begin, s.end = s.at[:n], s.t0[:n], s.begin[:n], s.end[:n]
	return s
}

// formulaCost is GetCost on a bus or mesh: the exchange starts when its
// earliest sender does (its clock rounded as the cluster model rounds send
// times) and lasts the network's Exchange time; every participant is done
// when the whole exchange is (copy-flag stamps). The bus stays busy until
// then.
func (e *Engine) formulaCost(t *transfers, f *flagRec) float64 {
	msgs := t.list()
	start, any := 0.0, false
	for _, x := range msgs {
		if x.From >= e.L || x.To >= e.L {
			continue
		}
		t0 := float64(float32(e.clock(x.From)))
		if !any || t0 < start {
			start, any = t0, true
		}
	}
	if !any {
		return 0
	}
	cost := e.net.Exchange(inRange(msgs, e.L))
	end := start + cost
	e.net.Occupy(end)
	if e.recordsMessages() {
		// The formula times the exchange, not its messages: each is shown
		// from its sender's clock to the end of the exchange.
		for _, x := range msgs {
			if x.From < e.L && x.To < e.L {
				e.recordMessage(e.opOfCall(), x.From, x.To, x.Bytes, e.clock(x.From), end)
			}
		}
	}
	if f != nil {
		f.timeStart = start
		for _, x := range msgs {
			if x.From < e.L && x.To < e.L {
				f.stamp[x.From] = max(f.stamp[x.From], end-e.clock(x.From))
				f.stamp[x.To] = max(f.stamp[x.To], end-e.clock(x.To))
			}
		}
	}
	return cost
}

// inRange drops the messages of processors outside the root VM (msgs is
// returned as is when there are none).
func inRange(msgs []network.Msg, L int) []network.Msg {
	for i, x := range msgs {
		if x.From >= L || x.To >= L {
			out := append([]network.Msg(nil), msgs[:i]...)
			for _, y := range msgs[i+1:] {
				if y.From < L && y.To < L {
					out = append(out, y)
				}
			}
			return out
		}
	}
	return msgs
}
