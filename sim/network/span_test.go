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

// checkSpan draws a machine, a batch, clocks per class and a channel
// history from seed, and compares SendSpan with SendBatch.
func checkSpan(t *testing.T, seed uint64) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	m := parse(t, spanMachines[rng.IntN(len(spanMachines))])
	byBatch := New(m)
	procs := byBatch.Processors()

	// Clocks in a few classes, near one base time: a binade boundary now
	// and then, ties never excluded.
	base := []float64{0, 1e-3, 0.75, 1.999, 2, 37.5}[rng.IntN(6)]
	clocks := Clocks{Base: base, Offset: make([]float64, 1+rng.IntN(4)), Class: make([]int32, procs)}
	for c := range clocks.Offset {
		clocks.Offset[c] = float64(rng.IntN(4)) * []float64{1e-6, 3e-5, 1e-3}[rng.IntN(3)]
	}
	for p := range clocks.Class {
		clocks.Class[p] = int32(rng.IntN(len(clocks.Offset)))
	}
	earliest, latest := math.Inf(1), 0.0
	for p := range procs {
		earliest, latest = min(earliest, clocks.Of(p)), max(latest, clocks.Of(p))
	}

	var from, to []int
	var bytes []int64
	sizes := []int64{0, 8, 64, 800, 1 << 16}[:1+rng.IntN(5)]
	for range rng.IntN(300) {
		a, b := rng.IntN(procs), rng.IntN(procs)
		if a == b {
			continue
		}
		from, to = append(from, a), append(to, b)
		bytes = append(bytes, sizes[rng.IntN(len(sizes))])
	}
	// A history: some channels busy past the clocks, some not.
	for range rng.IntN(20) {
		a, b := rng.IntN(procs), rng.IntN(procs)
		byBatch.Send(a, b, int64(rng.IntN(1<<20)), base*rng.Float64())
	}
	bySpan := byBatch.Clone()

	b := byBatch.NewBatch(from, to, bytes)
	n := b.Len()
	sendAt, t0, begin, end := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	for i, p := range from {
		sendAt[i] = clocks.Of(p)
	}
	byBatch.SendBatch(b, sendAt, t0, begin, end)
	want := 0.0
	for _, e := range end {
		want = later(want, e)
	}
	got := bySpan.SendSpan(bySpan.NewBatch(from, to, bytes), from, &clocks, earliest, latest)
	if math.Float64bits(got) != math.Float64bits(want) {
		t.Fatalf("seed %d: SendSpan ends at %v, SendBatch at %v", seed, got, want)
	}
	if a, b := fmt.Sprint(bitsOf(byBatch.Snapshot())), fmt.Sprint(bitsOf(bySpan.Snapshot())); a != b {
		t.Fatalf("seed %d: channels after SendBatch %v, after SendSpan %v", seed, byBatch.Snapshot(), bySpan.Snapshot())
	}
}

func bitsOf(xs []float64) []uint64 {
	out := make([]uint64, len(xs))
	for i, x := range xs {
		out[i] = math.Float64bits(x)
	}
	return out
}
