package ordertrace

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/presage-dvm/presage/orders/tracefile"
)

// sortOrders decodes sortTrace with encoding/json, independently of the
// package's own decoder.
func sortOrders(t testing.TB) []*Order {
	var out []*Order
	for _, line := range sortTrace {
		o := new(Order)
		if err := json.Unmarshal([]byte(line), o); err != nil {
			t.Fatal(err)
		}
		out = append(out, o)
	}
	return out
}

func writeAll(t testing.TB, h Header, orders []*Order) (string, error) {
	var buf bytes.Buffer
	w, err := NewWriter(&buf, h)
	if err != nil {
		t.Fatal(err)
	}
	if testLineItems > 0 {
		w.perLine = testLineItems
	}
	for _, o := range orders {
		if err := w.Write(o); err != nil {
			return buf.String(), err
		}
	}
	err = w.Close()
	return buf.String(), err
}

func TestWriteRoundTrip(t *testing.T) {
	orders := sortOrders(t)
	orders[1].Proc = `odd "name" <é>` // needs escaping
	orders[2].Duration, orders[2].Results[0].At = 2.5e-7, 1e-7
	orders[2].Requests[0].At = 2e-7
	orders[3].MadeAt = 1e-7
	text, err := writeAll(t, Header{Program: "sort", Orders: 4}, orders)
	if err != nil {
		t.Fatal(err)
	}
	// The line of each order is what encoding/json writes.
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	for i, o := range orders {
		want, _ := json.Marshal(o)
		var got, wantV any
		json.Unmarshal([]byte(lines[i+1]), &got)
		json.Unmarshal(want, &wantV)
		if !reflect.DeepEqual(got, wantV) {
			t.Errorf("line %d:\n got %s\nwant %s", i+2, lines[i+1], want)
		}
	}
	back, err := readAll("w.jsonl", text)
	if err != nil {
		t.Fatal(err)
	}
	for i := range orders {
		if !reflect.DeepEqual(back[i], orders[i]) {
			t.Errorf("order %d read back as %+v, want %+v", i+1, back[i], orders[i])
		}
	}
}

func TestWriterHeader(t *testing.T) {
	text, err := writeAll(t, Header{Format: "other", Version: 7, Program: "p"}, sortOrders(t))
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewReader(strings.NewReader(text), "w.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if h := r.Header(); h.Format != Format || h.Version != Version || h.Unit != "s" || h.Program != "p" {
		t.Errorf("header %+v: want the writer's format and version and unit s", h)
	}
	if _, err := NewWriter(&bytes.Buffer{}, Header{Unit: "min"}); err == nil {
		t.Error("unit min accepted")
	}
}

func TestWriterRejects(t *testing.T) {
	tests := []struct {
		name   string
		orders int64 // announced by the header
		damage func([]*Order) []*Order
		want   string
	}{
		{"ids out of order", 0, func(o []*Order) []*Order { return append(o[:1:1], o[2:]...) },
			"order trace:3: order 3: id out of order (expected 2: ids count up from 1 in creation order)"},
		{"NaN", 0, func(o []*Order) []*Order { o[1].Duration = math.NaN(); return o },
			"order trace:3: order 2: duration NaN is not a length of time (expected a number of seconds from 0 to 1000000000)"},
		{"infinity", 0, func(o []*Order) []*Order { o[3].Results[1].At = math.Inf(1); return o },
			"order trace:5: order 4: result 1 at +Inf, outside the order's own time [0, 1]"},
		{"order never written", 0, func(o []*Order) []*Order { return o[:3] },
			"order trace:4: order 3: requests order 4, which is not in the trace (a request for a result never provided)"},
		{"count differs", 5, func(o []*Order) []*Order { return o }, "order trace: the header announces 5 orders, 4 were written"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := writeAll(t, Header{Orders: tt.orders}, tt.damage(sortOrders(t)))
			if err == nil || err.Error() != tt.want {
				t.Errorf("got %v\nwant %s", err, tt.want)
			}
		})
	}
}

func TestWriteOrderStreamsRequests(t *testing.T) {
	o := sortOrders(t)[0]
	var want, got bytes.Buffer
	want.Write(tracefile.AppendOrder(nil, o))
	want.WriteByte('\n')
	if err := tracefile.WriteOrder(&got, o, slices.Values(o.Requests), tracefile.LineItems); err != nil {
		t.Fatal(err)
	}
	if got.String() != want.String() {
		t.Errorf("WriteOrder:\n got %s\nwant %s", got.String(), want.String())
	}
	o.Requests = nil
	got.Reset()
	tracefile.WriteOrder(&got, o, slices.Values([]Request(nil)), tracefile.LineItems)
	if strings.Contains(got.String(), "requests") {
		t.Errorf("an order without requests has a requests list: %s", got.String())
	}
}
