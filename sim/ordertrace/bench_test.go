package ordertrace

import (
	"bytes"
	"io"
	"testing"
)

// heapTrace is a divide-and-conquer trace of n orders numbered like a
// binary heap: order i makes 2i and 2i+1 and waits for both; every order
// has a split, a marked block and a combine segment.
func heapTrace(tb testing.TB, n int) []byte {
	var buf bytes.Buffer
	w, err := NewWriter(&buf, Header{Program: "heap", Orders: int64(n)})
	if err != nil {
		tb.Fatal(err)
	}
	for i := int64(1); i <= int64(n); i++ {
		o := &Order{ID: i, Parent: i / 2, Proc: "solve", ArgBytes: 64, Duration: 3,
			Segments: []Segment{{Start: 0, Dur: 1}, {Start: 1, Dur: 1.5, Block: "leaf"}, {Start: 2.5, Dur: 0.5, Block: "combine"}},
			Results:  []Result{{At: 3, Bytes: 64}}}
		if i > 1 {
			o.MadeAt = 0.5 + float64(i%2)*0.25
		}
		for c := 2 * i; c <= 2*i+1 && c <= int64(n); c++ {
			o.Requests = append(o.Requests, Request{Order: c, At: 2.5})
		}
		if err := w.Write(o); err != nil {
			tb.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

func BenchmarkRead(b *testing.B) {
	const n = 200_000
	text := heapTrace(b, n)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		r, err := NewReader(bytes.NewReader(text), "heap.jsonl")
		if err != nil {
			b.Fatal(err)
		}
		for {
			_, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "orders/s")
}

func BenchmarkWrite(b *testing.B) {
	const n = 200_000
	orders, err := readAll("heap.jsonl", string(heapTrace(b, n)))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		w, _ := NewWriter(io.Discard, Header{})
		for _, o := range orders {
			if err := w.Write(o); err != nil {
				b.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "orders/s")
}
