package engine

import "slices"

// transfers is a CommCost matrix T[p1][p2] (bytes from absolute processor p1
// to p2), kept sparse and sent in row-major order.
type transfers struct {
	L      int
	m      map[int64]int64
	sorted []xfer
}

type xfer struct {
	from, to int
	bytes    int64
}

func newTransfers(L int) *transfers { return &transfers{L: L, m: map[int64]int64{}} }

// clone returns an independent copy of t.
func (t *transfers) clone() *transfers {
	c := &transfers{L: t.L, m: make(map[int64]int64, len(t.m))}
	for k, v := range t.m {
		c.m[k] = v
	}
	return c
}

// add records n more bytes from p1 to p2.
func (t *transfers) add(p1, p2 int, n int64) {
	if n == 0 {
		return
	}
	t.m[int64(p1)*int64(t.L)+int64(p2)] += n
	t.sorted = nil
}

// list returns the non-zero entries with p1 ≠ p2 in row-major order.
func (t *transfers) list() []xfer {
	if t.sorted != nil || len(t.m) == 0 {
		return t.sorted
	}
	keys := make([]int64, 0, len(t.m))
	for k, v := range t.m {
		if v != 0 {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	out := make([]xfer, 0, len(keys))
	for _, k := range keys {
		p1, p2 := int(k/int64(t.L)), int(k%int64(t.L))
		if p1 != p2 {
			out = append(out, xfer{p1, p2, t.m[k]})
		}
	}
	t.sorted = out
	return out
}

// flagRec is the copy-flag record of aarrcp_/crtrbl_: per-processor time
// stamps relative to the processors' clocks.
type flagRec struct {
	stamp     []float64
	timeStart float64
	timeEnd   float64
}

// getCost sends every transfer of t in row-major order and returns the time
// from the first send to the last arrival (MODEL.md §3); 0 when nothing is
// sent.
func (e *Engine) getCost(t *transfers, f *flagRec) float64 {
	var minStart, maxEnd float64
	first := true
	for _, x := range t.list() {
		if x.from >= e.L || x.to >= e.L {
			continue
		}
		cf := e.clock(x.from)
		t0, begin, end := e.net.Send(x.from, x.to, x.bytes, cf)
		if first {
			minStart, maxEnd, first = t0, end, false
		} else {
			if begin < minStart {
				minStart = t0
			}
			maxEnd = max(maxEnd, end)
		}
		if f != nil {
			f.stamp[x.from] = max(f.stamp[x.from], end-cf)
			f.stamp[x.to] = max(f.stamp[x.to], end-e.clock(x.to))
		}
	}
	if first {
		return 0
	}
	if f != nil {
		f.timeStart = minStart
	}
	return maxEnd - minStart
}
