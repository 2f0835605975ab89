package network

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestAccumulate checks the binade shortcut against the additions it
// replaces, and that it takes the shortcut where it should.
func TestAccumulate(t *testing.T) {
	tests := []struct {
		name   string
		cur    float64
		ts     float64
		d      []float64 // per message
		wantOK bool
	}{
		{"within a binade", 1.25, 7e-6, repeat([]float64{4e-7, 1.2e-6}, 500), true},
		{"one size", 3.0, 7e-6, repeat([]float64{2.048e-6}, 4000), true},
		{"zero sizes", 0.7, 1e-6, repeat([]float64{0}, 100), true},
		{"crosses a power of two", 2 - 1e-4, 7e-6, repeat([]float64{1e-6}, 100), false},
		{"a tie", 1.0, 0x1p-53, repeat([]float64{0}, 20), false},
		{"tiny clock", 1e-310, 1e-6, repeat([]float64{0}, 20), false},
		{"zero clock", 0, 1e-6, repeat([]float64{0}, 20), false},
		{"addend rounds to nothing", 1 << 40, 1e-9, repeat([]float64{1e-9}, 50), true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := chainOf(tc.ts, tc.d)
			want := tc.cur
			for _, d := range tc.d {
				want = want + tc.ts + d
			}
			got, ok := accumulate(&c, 0, tc.cur)
			if ok != tc.wantOK {
				t.Fatalf("ok = %v, want %v", ok, tc.wantOK)
			}
			if ok && math.Float64bits(got) != math.Float64bits(want) {
				t.Fatalf("accumulated %v (%x), the additions give %v (%x)", got, math.Float64bits(got), want, math.Float64bits(want))
			}
		})
	}
}

func repeat(pattern []float64, n int) []float64 {
	var out []float64
	for i := range n {
		out = append(out, pattern[i%len(pattern)])
	}
	return out
}

// chainOf is a chain of messages with transfer times d on one channel.
func chainOf(ts float64, d []float64) chain {
	c := chain{ts: ts}
	for i, x := range d {
		k := slices.Index(c.d, x)
		if k < 0 {
			k = len(c.d)
			c.d = append(c.d, x)
			c.count = append(c.count, 0)
		}
		c.count[k]++
		c.msgs = append(c.msgs, int32(i))
		c.kinds = append(c.kinds, int32(k))
	}
	return c
}

// spanMachines are cluster machines whose channels are each the only one
// of their cluster (SendSpan goes channel by channel), and one with a
// cluster of two channels (SendSpan sends in order).
var spanMachines = []string{
	"cluster = c; c = {64 x p}; c.TStart = 7; c.TByte = 0.004; p = 1;",
	"cluster = mvs; mvs = {32 x n}; mvs.TStart = 7; mvs.TByte = 0.004; n = {2 x p}; n.TStart = 1; n.TByte = 0.001; p = 1;",
	"cluster = c; c = {16 x n}; c.TStart = 3; c.TByte = 0.01; n = {4 x p}; n.TStart = 0.5; n.TByte = 0.001; p = 1;",
	"cluster = c; c = {32 x p}; c.CommType = myrinet (2); c.TStart = 7; c.TByte = 0.004; p = 1;",
}

// TestSendSpanMatchesSendBatch sends random batches both ways, from the
// same channel state, and compares the channels' state and the latest end
// bit for bit.
func TestSendSpanMatchesSendBatch(t *testing.T) {
	for seed := range uint64(400) {
		checkSpan(t, seed)
	}
}

func FuzzSendSpan(f *testing.F) {
	for seed := range uint64(8) {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, seed uint64) { checkSpan(t, seed) })
}

// checkSpan draws a machine, two batches, a channel history, and rounds
// of clocks per class from seed; it sends a batch per round both ways,
// now and then a lone message between rounds, and compares SendSpan with
// SendBatch after every round.
func checkSpan(t *testing.T, seed uint64) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	m := parse(t, spanMachines[rng.IntN(len(spanMachines))])
	byBatch := New(m)
	procs := byBatch.Processors()
	base := []float64{0, 1e-3, 0.75, 1.999, 2, 37.5}[rng.IntN(6)]

	type messages struct {
		from, to []int
		bytes    []int64
	}
	var lists [2]messages
	for i := range lists {
		l := &lists[i]
		l.from, l.to, l.bytes = drawMessages(rng, procs)
	}
	// A history: some channels busy past the clocks, some not.
	for range rng.IntN(20) {
		a, b := rng.IntN(procs), rng.IntN(procs)
		byBatch.Send(a, b, int64(rng.IntN(1<<20)), base*rng.Float64())
	}
	bySpan := byBatch.Clone()
	var batches, spans [2]*Batch
	for i, l := range lists {
		batches[i] = byBatch.NewBatch(l.from, l.to, l.bytes)
		spans[i] = bySpan.NewBatch(l.from, l.to, l.bytes)
	}

	for round := range 1 + rng.IntN(6) {
		k := rng.IntN(2)
		l := lists[k]
		clocks := drawClocks(rng, procs, base)
		earliest, latest := math.Inf(1), 0.0
		for p := range procs {
			earliest, latest = min(earliest, clocks.Of(p)), max(latest, clocks.Of(p))
		}
		b := batches[k]
		n := b.Len()
		sendAt, t0, begin, end := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
		for i, p := range l.from {
			sendAt[i] = clocks.Of(p)
		}
		byBatch.SendBatch(b, sendAt, t0, begin, end)
		want := 0.0
		for _, e := range end {
			want = later(want, e)
		}
		got := bySpan.SendSpan(spans[k], l.from, &clocks, earliest, latest)
		if math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("seed %d round %d: SendSpan ends at %v, SendBatch at %v", seed, round, got, want)
		}
		if a, b := fmt.Sprint(bitsOf(byBatch.Snapshot())), fmt.Sprint(bitsOf(bySpan.Snapshot())); a != b {
			t.Fatalf("seed %d round %d: channels after SendBatch %v, after SendSpan %v", seed, round, byBatch.Snapshot(), bySpan.Snapshot())
		}
		if rng.IntN(3) == 0 {
			// A lone message takes its channel out of any shared time.
			a, b := rng.IntN(procs), rng.IntN(procs)
			size, at := int64(rng.IntN(1<<12)), latest*rng.Float64()
			byBatch.Send(a, b, size, at)
			bySpan.Send(a, b, size, at)
		}
		switch rng.IntN(6) {
		case 0: // the original's save and restore, which permutes
			byBatch.Restore(byBatch.Snapshot())
			bySpan.Restore(bySpan.Snapshot())
		case 1: // a clone, which the batches made before still serve
			bySpan = bySpan.Clone()
		}
		base = latest + 1e-4*float64(rng.IntN(3))
	}
}

// drawMessages draws a batch: random pairs, or a neighbour exchange
// (every processor with the next, both ways, as shadow edges are), whose
// chains on the channels of small clusters are twins.
func drawMessages(rng *rand.Rand, procs int) (from, to []int, bytes []int64) {
	sizes := []int64{0, 8, 64, 800, 1 << 16}[:1+rng.IntN(5)]
	if rng.IntN(2) == 0 {
		size := sizes[rng.IntN(len(sizes))]
		for p := 0; p+1 < procs; p++ {
			from, to = append(from, p, p+1), append(to, p+1, p)
			bytes = append(bytes, size, size)
		}
		return from, to, bytes
	}
	for range rng.IntN(300) {
		a, b := rng.IntN(procs), rng.IntN(procs)
		if a == b {
			continue
		}
		from, to = append(from, a), append(to, b)
		bytes = append(bytes, sizes[rng.IntN(len(sizes))])
	}
	return from, to, bytes
}

// drawClocks draws clocks in a few classes near base: a binade boundary
// now and then, ties never excluded, and all equal a third of the time
// (the twin chains' case).
func drawClocks(rng *rand.Rand, procs int, base float64) Clocks {
	classes := 1
	if rng.IntN(3) != 0 {
		classes += rng.IntN(4)
	}
	clocks := Clocks{Base: base, Offset: make([]float64, classes), Class: make([]int32, procs)}
	for c := range clocks.Offset {
		clocks.Offset[c] = float64(rng.IntN(4)) * []float64{1e-6, 3e-5, 1e-3}[rng.IntN(3)]
	}
	for p := range clocks.Class {
		clocks.Class[p] = int32(rng.IntN(classes))
	}
	return clocks
}

func bitsOf(xs []float64) []uint64 {
	out := make([]uint64, len(xs))
	for i, x := range xs {
		out[i] = math.Float64bits(x)
	}
	return out
}
