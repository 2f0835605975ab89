package ordertrace

import (
	"bytes"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/presage-dvm/presage/orders/tracefile"
)

// testLineItems, when not 0, is the items per line of the Writers of
// writeAll (withLineItems).
var testLineItems int

// withLineItems lowers the items per line of writeAll's Writers for the
// test.
func withLineItems(t *testing.T, n int) {
	old := testLineItems
	testLineItems = n
	t.Cleanup(func() { testLineItems = old })
}

// manyItems is a main order with 5 segments, 5 requests and 3 results,
// and its 5 children.
func manyItems() []*Order {
	main := &Order{ID: 1, Proc: "main", Duration: 5}
	orders := []*Order{main}
	for i := range 5 {
		at := float64(i)
		main.Segments = append(main.Segments, Segment{Start: at, Dur: 1, Block: "b"})
		main.Requests = append(main.Requests, Request{Order: int64(i + 2), At: at + 0.5})
		orders = append(orders, &Order{ID: int64(i + 2), Parent: 1, Proc: "task", MadeAt: at, Duration: 1, Results: []Result{{At: 1, Bytes: 8}}})
	}
	main.Results = []Result{{At: 1, Bytes: 1}, {At: 2, Bytes: 2}, {At: 5, Bytes: 3}}
	return orders
}

// An order whose lists are longer than a line holds goes on in
// continuation lines, and reads back whole; the lines after it are
// numbered in errors as in the file.
func TestContinuationLines(t *testing.T) {
	withLineItems(t, 2)
	orders := manyItems()
	text, err := writeAll(t, Header{Program: "many"}, orders)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	if len(lines) != 1+3+5 {
		t.Fatalf("%d lines, want a header, 3 for main and 5 children:\n%s", len(lines), text)
	}
	if want := `{"more":1,"segments":[{"start":4,"dur":1,"block":"b"}],"requests":[{"order":6,"at":4.5}]}`; lines[3] != want {
		t.Fatalf("last continuation line\n%s\nwant\n%s", lines[3], want)
	}
	back, err := readAll("many.jsonl", text)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, orders) {
		t.Fatalf("read back\n%+v\nwant\n%+v", back[0], orders[0])
	}
	for _, tc := range []struct{ old, new, want string }{
		{`"id":3,"parent":1`, `"id":3,"parent":7`, "many.jsonl:6: order 3: parent 7 unknown"},
		// Requests waiting for a later order are placed on their order's
		// first line, before and after the continuation lines.
		{`{"order":6,"at":4.5}`, `{"order":6,"result":1,"at":4.5}`, "many.jsonl:2: order 1: requests result 1 of order 6, which provides 1"},
		{`"id":4,"parent":1,"proc":"task","made_at":2,"arg_bytes":0,"duration":1,`, `"id":4,"parent":1,"proc":"task","made_at":2,"arg_bytes":0,"duration":1,"requests":[{"order":9,"at":0.5}],`,
			"many.jsonl:7: order 4: requests order 9, which is not in the trace"},
	} {
		bad := strings.Replace(text, tc.old, tc.new, 1)
		if bad == text {
			t.Fatalf("no %s in the trace", tc.old)
		}
		if _, err := readAll("many.jsonl", bad); err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("error %v\nwant %s…", err, tc.want)
		}
	}
}

// WriteOrder streams requests into continuation lines.
func TestWriteOrderContinues(t *testing.T) {
	withLineItems(t, 2)
	for _, n := range []int{0, 1, 2, 3, 4, 5} {
		orders := manyItems()
		main := orders[0]
		main.Segments = main.Segments[:1]
		main.Segments[0].Dur = 5
		main.Results = main.Results[:2]
		main.Requests = main.Requests[:n]
		if n == 0 {
			main.Requests = nil
		}
		orders = orders[:1+n]
		head, _ := tracefile.AppendHeader(nil, Header{Program: "many"})
		buf := bytes.NewBuffer(head)
		if err := tracefile.WriteOrder(buf, main, slices.Values(main.Requests), testLineItems); err != nil {
			t.Fatal(err)
		}
		for _, o := range orders[1:] {
			buf.Write(append(tracefile.AppendOrder(nil, o), '\n'))
		}
		if lines, want := strings.Count(buf.String(), "\n"), 1+max(1, (n+1)/2)+n; lines != want {
			t.Fatalf("%d requests: %d lines, want %d:\n%s", n, lines, want, buf)
		}
		back, err := readAll("many.jsonl", buf.String())
		if err != nil {
			t.Fatalf("%d requests: %v\n%s", n, err, buf)
		}
		if !reflect.DeepEqual(back, orders) {
			t.Fatalf("%d requests: read back %+v", n, back[0])
		}
	}
}

func TestContinuationErrors(t *testing.T) {
	main := `{"id":1,"parent":0,"proc":"m","made_at":0,"arg_bytes":0,"duration":1,"results":[{"at":1,"bytes":0}]}`
	for _, tc := range []struct{ name, text, want string }{
		{"another order's", traceText(main, `{"more":2,"results":[{"at":1,"bytes":0}]}`),
			`t.jsonl:3: column 42: continues order 2 after order 1's line (expected "more":1)`},
		{"unknown field", traceText(main, `{"more":1,"proc":"x"}`), `t.jsonl:3: column 11: unknown field "proc"`},
		{"in a version 1 file", strings.Replace(traceText(main, `{"more":1}`), `"version":2`, `"version":1`, 1),
			`t.jsonl:3: column 2: unknown field "more"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := readAll("t.jsonl", tc.text)
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Fatalf("error %v\nwant %s…", err, tc.want)
			}
		})
	}
}
