package ordertrace

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/klauspost/compress/gzip"
)

const header = `{"format":"presage-orders","version":2,"program":"sort","unit":"s"}`

// sortTrace is a small valid trace: main makes two halves, waits for both
// and merges; the second half makes a helper of its own.
var sortTrace = []string{
	`{"id":1,"parent":0,"proc":"main","made_at":0,"arg_bytes":0,"duration":4,"segments":[{"start":0,"dur":4,"block":"merge"}],"requests":[{"order":2,"at":0},{"order":3,"at":0}],"results":[{"at":4,"bytes":80}]}`,
	`{"id":2,"parent":1,"proc":"sort","made_at":0,"arg_bytes":40,"duration":3,"results":[{"at":3,"bytes":40}]}`,
	`{"id":3,"parent":1,"proc":"sort","made_at":0,"arg_bytes":40,"duration":2.5,"requests":[{"order":4,"result":1,"at":1}],"results":[{"at":2.5,"bytes":40}]}`,
	`{"id":4,"parent":3,"proc":"helper","made_at":0.5,"arg_bytes":8,"duration":1,"results":[{"at":0.2,"bytes":8},{"at":1,"bytes":8}]}`,
}

func traceText(lines ...string) string { return header + "\n" + strings.Join(lines, "\n") + "\n" }

// readAll reads every order of text, stopping at the first error.
func readAll(name, text string) ([]*Order, error) {
	r, err := NewReader(strings.NewReader(text), name)
	if err != nil {
		return nil, err
	}
	return ReadAll(r)
}

func TestReadValid(t *testing.T) {
	orders, err := readAll("sort.jsonl", traceText(sortTrace...))
	if err != nil {
		t.Fatal(err)
	}
	if len(orders) != len(sortTrace) {
		t.Fatalf("read %d orders, want %d", len(orders), len(sortTrace))
	}
	for i, line := range sortTrace {
		var want Order
		if err := json.Unmarshal([]byte(line), &want); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(*orders[i], want) {
			t.Errorf("order %d:\n got %+v\nwant %+v", i+1, *orders[i], want)
		}
	}
}

func TestReaderKeepsReturnedOrders(t *testing.T) {
	orders, err := readAll("sort.jsonl", traceText(sortTrace...))
	if err != nil {
		t.Fatal(err)
	}
	if orders[0].Proc != "main" || orders[0].Requests[1].Order != 3 || orders[3].Results[1].At != 1 {
		t.Errorf("an earlier order changed while reading later ones: %+v", orders[0])
	}
	orders[1].Requests = append(orders[1].Requests, Request{Order: 9})
	if len(orders[2].Requests) != 1 || orders[2].Requests[0].Order != 4 {
		t.Errorf("appending to one order's list changed another's: %+v", orders[2].Requests)
	}
}

func TestReadGzip(t *testing.T) {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	io.WriteString(zw, traceText(sortTrace...))
	zw.Close()
	r, err := NewReader(&buf, "sort.jsonl.gz")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for {
		_, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		n++
	}
	if n != len(sortTrace) || r.Header().Program != "sort" {
		t.Errorf("read %d orders of %q, want %d of \"sort\"", n, r.Header().Program, len(sortTrace))
	}
}

func TestReadLongLine(t *testing.T) {
	// A master whose line is far longer than the read buffer.
	var reqs []string
	lines := []string{""}
	for i := 2; i <= 5000; i++ {
		reqs = append(reqs, `{"order":`+strconv.Itoa(i)+`,"at":1}`)
		lines = append(lines, `{"id":`+strconv.Itoa(i)+`,"parent":1,"proc":"task","made_at":0,"arg_bytes":8,"duration":1,"results":[{"at":1,"bytes":8}]}`)
	}
	lines[0] = `{"id":1,"parent":0,"proc":"master","made_at":0,"arg_bytes":0,"duration":1,"requests":[` + strings.Join(reqs, ",") + `],"results":[{"at":1,"bytes":8}]}`
	orders, err := readAll("master.jsonl", traceText(lines...))
	if err != nil {
		t.Fatal(err)
	}
	if len(orders) != 5000 || len(orders[0].Requests) != 4999 || orders[0].Requests[4998].Order != 5000 {
		t.Errorf("read %d orders, the master with %d requests", len(orders), len(orders[0].Requests))
	}
}

func TestErrorIsTyped(t *testing.T) {
	_, err := readAll("t.jsonl", traceText(sortTrace[0]))
	var e *Error
	if !errors.As(err, &e) || e.File != "t.jsonl" || e.Line != 2 || e.Order != 1 {
		t.Fatalf("got %#v, want an *Error at t.jsonl:2 about order 1", err)
	}
}

func TestHeaderRuntimeCosts(t *testing.T) {
	for _, c := range []struct {
		fields string
		ok     bool
	}{
		{`"order_cost":2e-5,"wait_cost":1e-5`, true},
		{`"order_cost":-1`, false},
		{`"wait_cost":-1e-6`, false},
		{`"order_cost":1e999`, false},
		{`"order_cost":2e-5,"wait_cost":1e-5,"slowdown":[1,1.2]`, true},
		{`"slowdown":[1,0]`, false},
	} {
		line := fmt.Sprintf(`{"format":"presage-orders","version":2,"program":"p","unit":"s",%s}`, c.fields)
		h, err := parseHeader([]byte(line))
		if (err == nil) != c.ok {
			t.Errorf("%s: error %v, want ok %v", c.fields, err, c.ok)
		}
		if c.ok && (h.OrderCost != 2e-5 || h.WaitCost != 1e-5) {
			t.Errorf("%s: costs %v, %v", c.fields, h.OrderCost, h.WaitCost)
		}
	}
}
