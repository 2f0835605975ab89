package ordertrace

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/presage-dvm/presage/orders/tracefile"
)

// TestPackedTraceSources reads a trace held in memory through two
// sources at once, each with a reused Order, and expects every order in
// each, without segments.
func TestPackedTraceSources(t *testing.T) {
	orders, err := readAll("sort.jsonl", traceText(sortTrace...))
	if err != nil {
		t.Fatal(err)
	}
	names, chunks := packAll(orders, 3)
	tr := &PackedTrace{Name: "sort", Header: Header{Orders: int64(len(orders))}, Names: names}
	for _, c := range chunks {
		tr.Chunks = append(tr.Chunks, c.orders)
	}
	a, b := tr.Open(), tr.Open()
	var oa, ob Order
	for i, want := range orders {
		for _, s := range []struct {
			src *ChunkSource
			o   *Order
		}{{a, &oa}, {b, &ob}} {
			if err := s.src.Scan(s.o); err != nil {
				t.Fatalf("order %d: %v", i+1, err)
			}
			w := *want
			w.Segments = nil
			if got, want := string(tracefile.AppendOrder(nil, s.o)), string(tracefile.AppendOrder(nil, &w)); got != want {
				t.Fatalf("order %d = %s, want %s", i+1, got, want)
			}
		}
	}
	if err := a.Scan(&oa); err != io.EOF {
		t.Errorf("after the last order: %v, want io.EOF", err)
	}
	if a.Header().Orders != int64(len(orders)) {
		t.Errorf("header %+v, want the trace's", a.Header())
	}
}

// TestChunkSourceErrors: a damaged chunk and a failed fetch are reported
// with the trace and the chunk, and stay reported.
func TestChunkSourceErrors(t *testing.T) {
	orders, _ := readAll("sort.jsonl", traceText(sortTrace...))
	names, chunks := packAll(orders, 3)
	damaged := chunks[1].orders[:len(chunks[1].orders)-2]
	fetchFailed := errors.New("disk on fire")
	for _, tc := range []struct {
		name   string
		second func() ([]byte, []byte, error)
		want   string
	}{
		{"damaged", func() ([]byte, []byte, error) { return damaged, nil, nil }, "order trace sort, chunk 1: "},
		{"fetch", func() ([]byte, []byte, error) { return nil, nil, fetchFailed }, "order trace sort, chunk 1: disk on fire"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			i := 0
			src := NewChunkSource("sort", Header{}, names, func() ([]byte, []byte, error) {
				i++
				if i == 1 {
					return chunks[0].orders, nil, nil
				}
				return tc.second()
			})
			var err error
			for n := 0; err == nil && n < len(orders); n++ {
				_, err = src.Next()
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
			if _, again := src.Next(); again != err {
				t.Errorf("next call: %v, want the same error", again)
			}
		})
	}
}
