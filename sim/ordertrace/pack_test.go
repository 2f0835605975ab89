package ordertrace

import (
	"errors"
	"io"
	"reflect"
	"testing"
)

// packedChunk is one chunk of a packed trace.
type packedChunk struct{ orders, segments []byte }

// packAll packs orders in chunks of size orders.
func packAll(orders []*Order, size int) ([]string, []packedChunk) {
	p := NewPacker()
	var chunks []packedChunk
	for i, o := range orders {
		if i%size == 0 {
			chunks = append(chunks, packedChunk{orders: StartChunk(nil, o.ID), segments: []byte{}})
		}
		c := &chunks[len(chunks)-1]
		c.orders, c.segments = p.Append(c.orders, c.segments, o)
	}
	return p.Names(), chunks
}

// unpackAll reads the chunks back, with their segments or without.
func unpackAll(names []string, chunks []packedChunk, withSegments bool) ([]*Order, error) {
	u := NewUnpacker(names)
	var out []*Order
	for _, c := range chunks {
		segs := c.segments
		if !withSegments {
			segs = nil
		}
		if err := u.Reset(c.orders, segs); err != nil {
			return nil, err
		}
		for {
			o, err := u.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				return nil, err
			}
			out = append(out, o)
		}
	}
	return out, nil
}

func TestPackRoundTrip(t *testing.T) {
	orders, err := readAll("sort.jsonl", traceText(sortTrace...))
	if err != nil {
		t.Fatal(err)
	}
	for _, size := range []int{1, 3, 100} {
		names, chunks := packAll(orders, size)
		back, err := unpackAll(names, chunks, true)
		if err != nil {
			t.Fatalf("chunks of %d: %v", size, err)
		}
		if !reflect.DeepEqual(back, orders) {
			t.Fatalf("chunks of %d: round trip changed the orders:\n%+v\n%+v", size, back, orders)
		}
		bare, err := unpackAll(names, chunks, false)
		if err != nil {
			t.Fatal(err)
		}
		for i, o := range bare {
			want := *orders[i]
			want.Segments = nil
			if !reflect.DeepEqual(*o, want) {
				t.Fatalf("without segments, order %d = %+v, want %+v", o.ID, *o, want)
			}
		}
	}
}

// The orders handed out stay the caller's: later ones do not overwrite
// their lists.
func TestUnpackedOrdersAreTheCallers(t *testing.T) {
	orders, _ := readAll("sort.jsonl", traceText(sortTrace...))
	names, chunks := packAll(orders, 100)
	u := NewUnpacker(names)
	if err := u.Reset(chunks[0].orders, nil); err != nil {
		t.Fatal(err)
	}
	first, _ := u.Next()
	keep := append([]Request(nil), first.Requests...)
	for {
		if _, err := u.Next(); err != nil {
			break
		}
	}
	if first.Requests = append(first.Requests, Request{}); !reflect.DeepEqual(first.Requests[:len(keep)], keep) {
		t.Fatal("a later order changed an earlier one's requests")
	}
}

func TestUnpackDamagedChunks(t *testing.T) {
	orders, _ := readAll("sort.jsonl", traceText(sortTrace...))
	names, chunks := packAll(orders, 100)
	whole := chunks[0]
	for _, tc := range []struct {
		name     string
		names    []string
		orders   []byte
		segments []byte
	}{
		{"empty chunk", names, nil, nil},
		{"cut short", names, whole.orders[:len(whole.orders)-3], nil},
		{"no names", nil, whole.orders, nil},
		{"segments cut short", names, whole.orders, whole.segments[:len(whole.segments)-1]},
		{"segments left over", names, whole.orders, append(append([]byte(nil), whole.segments...), 0)},
		{"a list longer than the bytes", names, []byte{1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0x0f}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := unpackAll(tc.names, []packedChunk{{tc.orders, tc.segments}}, tc.segments != nil)
			if err == nil {
				t.Fatal("no error")
			}
		})
	}
}

func TestCountsRoundTrip(t *testing.T) {
	orders, _ := readAll("sort.jsonl", traceText(sortTrace...))
	var c Counts
	for _, o := range orders {
		if err := c.Add(o); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.Finish(); err != nil {
		t.Fatal(err)
	}
	// main makes 2 and 3, 3 makes 4; main requests 2 and 3, 3 requests 4.
	wantKids, wantReqs := []uint32{2, 0, 1, 0}, []uint32{0, 1, 1, 1}
	b, err := c.AppendBinary(nil)
	if err != nil {
		t.Fatal(err)
	}
	var back Counts
	if err := back.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	for _, cc := range []*Counts{&c, &back} {
		for i := range wantKids {
			id := int64(i + 1)
			if cc.Kids(id) != wantKids[i] || cc.Requests(id) != wantReqs[i] {
				t.Fatalf("order %d: %d kids, %d requests; want %d, %d", id, cc.Kids(id), cc.Requests(id), wantKids[i], wantReqs[i])
			}
		}
	}
	if back.Orders() != 4 {
		t.Fatalf("%d orders", back.Orders())
	}
	if err := back.UnmarshalBinary(b[:len(b)-1]); err == nil {
		t.Fatal("truncated counts accepted")
	}
}

// Counts above a byte's range go to the map and come back.
func TestCountsLarge(t *testing.T) {
	var c Counts
	main := &Order{ID: 1}
	for i := int64(2); i <= 1001; i++ {
		main.Requests = append(main.Requests, Request{Order: i})
	}
	if err := c.Add(main); err != nil {
		t.Fatal(err)
	}
	for i := int64(2); i <= 1001; i++ {
		if err := c.Add(&Order{ID: i, Parent: 1, Requests: []Request{{Order: 1}}}); err != nil {
			t.Fatal(err)
		}
	}
	b, _ := c.AppendBinary(nil)
	var back Counts
	if err := back.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	if back.Kids(1) != 1000 || back.Requests(1) != 1000 || back.Requests(500) != 1 {
		t.Fatalf("kids %d, requests %d and %d", back.Kids(1), back.Requests(1), back.Requests(500))
	}
}

// TestCountsFarAhead: requests far ahead are counted in the table as far
// as the requests read pay for it (a master's list of its tasks), further
// in the map (a wild id), and both come out the same.
func TestCountsFarAhead(t *testing.T) {
	var c Counts
	main := &Order{ID: 1}
	for i := int64(1); i <= 100; i++ {
		main.Requests = append(main.Requests, Request{Order: 1 + nearby + perRequest*i})
	}
	wild := int64(1) << 50
	main.Requests = append(main.Requests, Request{Order: wild})
	if err := c.Add(main); err != nil {
		t.Fatal(err)
	}
	if len(c.future) != 1 || c.future[wild] != 1 {
		t.Errorf("the map holds %v, want only the wild id", c.future)
	}
	if n := int64(len(c.reqs.small)); n > 2+nearby+perRequest*101 {
		t.Errorf("the table holds %d orders, more than the requests pay for", n)
	}
	if got := c.Requests(1 + nearby + perRequest*100); got != 1 {
		t.Errorf("the last order requested is counted %d times, want 1", got)
	}
	if err := c.Finish(); err == nil {
		t.Error("a trace with requests for orders never read accepted")
	}
}

func TestCountsRefuse(t *testing.T) {
	for _, tc := range []struct {
		name   string
		orders []*Order
	}{
		{"no order", nil},
		{"a gap", []*Order{{ID: 1}, {ID: 3, Parent: 1}}},
		{"a later parent", []*Order{{ID: 1}, {ID: 2, Parent: 2}}},
		{"a request for an order never read", []*Order{{ID: 1, Requests: []Request{{Order: 5}}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var c Counts
			var err error
			for _, o := range tc.orders {
				if err = c.Add(o); err != nil {
					break
				}
			}
			if err == nil {
				err = c.Finish()
			}
			if err == nil {
				t.Fatal("accepted")
			}
		})
	}
}

// FuzzUnpacker feeds arbitrary bytes as a packed chunk: errors, never a
// panic nor an allocation beyond the bytes' size.
func FuzzUnpacker(f *testing.F) {
	orders, _ := readAll("sort.jsonl", traceText(sortTrace...))
	_, chunks := packAll(orders, 100)
	f.Add(chunks[0].orders, chunks[0].segments)
	f.Fuzz(func(t *testing.T, data, segs []byte) {
		u := NewUnpacker([]string{"main", "sort", "helper", "merge"})
		if err := u.Reset(data, segs); err != nil {
			return
		}
		for {
			if _, err := u.Next(); err != nil {
				if err != io.EOF && errors.Is(err, io.EOF) {
					t.Fatalf("wrapped EOF: %v", err)
				}
				return
			}
		}
	})
}
