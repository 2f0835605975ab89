package ordertrace

import (
	"io"
	"reflect"
	"strings"
	"testing"
)

// scanAll reads every order of text by Scan into one reused Order,
// keeping a copy of each, and stops at the first error.
func scanAll(name, text string) ([]*Order, error) {
	r, err := NewReader(strings.NewReader(text), name)
	if err != nil {
		return nil, err
	}
	var (
		orders []*Order
		o      Order
	)
	for {
		if err := r.Scan(&o); err == io.EOF {
			return orders, nil
		} else if err != nil {
			return orders, err
		}
		orders = append(orders, owned(&o))
	}
}

// owned copies o into lists of its own, an empty list as nil (as Next
// gives it).
func owned(o *Order) *Order {
	c := *o
	c.Segments = append([]Segment(nil), o.Segments...)
	c.Requests = append([]Request(nil), o.Requests...)
	c.Results = append([]Result(nil), o.Results...)
	return &c
}

// mainOfMany is a main order requesting the results of n children, and
// the children.
func mainOfMany(n int) []*Order {
	main := &Order{ID: 1, Proc: "main", Duration: 1, Results: []Result{{At: 1, Bytes: 8}}}
	orders := []*Order{main}
	for i := range n {
		main.Requests = append(main.Requests, Request{Order: int64(i + 2), At: 0.5})
		orders = append(orders, &Order{ID: int64(i + 2), Parent: 1, Proc: "task", Duration: 1, Results: []Result{{At: 1, Bytes: 8}}})
	}
	return orders
}

// Scan reads the orders Next reads, continuation lines and lists longer
// than a reused order keeps included, and fails where Next fails.
func TestScanReadsWhatNextReads(t *testing.T) {
	withLineItems(t, 2)
	many, err := writeAll(t, Header{Program: "many"}, manyItems())
	if err != nil {
		t.Fatal(err)
	}
	long, err := writeAll(t, Header{Program: "long"}, mainOfMany(maxKept+1))
	if err != nil {
		t.Fatal(err)
	}
	texts := map[string]string{
		"sort":       traceText(sortTrace...),
		"continued":  many,
		"long lists": long,
		"bad parent": strings.Replace(traceText(sortTrace...), `"id":3,"parent":1`, `"id":3,"parent":7`, 1),
		"missing":    traceText(mainWaits),
	}
	for name, text := range texts {
		t.Run(name, func(t *testing.T) {
			want, wantErr := readAll(name, text)
			got, err := scanAll(name, text)
			if len(want) == 0 {
				t.Fatalf("Next read nothing (%v)", wantErr)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("Scan read %d orders unlike Next's %d", len(got), len(want))
			}
			if (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error() {
				t.Errorf("Scan's error %v, Next's %v", err, wantErr)
			}
		})
	}
}

// A reused Order keeps its lists' memory from one order to the next, but
// not a list longer than maxKept.
func TestScanReusesLists(t *testing.T) {
	r, err := NewReader(strings.NewReader(traceText(sortTrace...)), "sort.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var o Order
	if err := r.Scan(&o); err != nil {
		t.Fatal(err)
	}
	requests, results := &o.Requests[:1][0], &o.Results[:1][0]
	for range 2 {
		if err := r.Scan(&o); err != nil {
			t.Fatal(err)
		}
	}
	if o.ID != 3 || &o.Requests[0] != requests || &o.Results[0] != results {
		t.Errorf("order %d: its lists are not the memory of the first order's", o.ID)
	}
	o.Requests = make([]Request, 1, maxKept+1)
	if err := r.Scan(&o); err != nil {
		t.Fatal(err)
	}
	if o.ID != 4 || o.Requests != nil {
		t.Errorf("order %d kept a list of capacity %d (want it dropped)", o.ID, cap(o.Requests))
	}
}
