package ordertrace

import (
	"reflect"
	"strings"
	"testing"
)

// FuzzReader feeds arbitrary text to the Reader: it must not panic, Scan
// must read what Next reads, and a trace it accepts must survive a round
// trip through the Writer and one through the packed form.
func FuzzReader(f *testing.F) {
	f.Add(traceText(sortTrace...))
	f.Add(traceText(mainWaits, child2))
	f.Add(traceText(strings.Replace(main1, `"duration":2,`, `"duration":2,"segments":[{"start":0,"dur":1,"block":"b\u00e9"},{"start":1,"dur":1}],`, 1)))
	f.Add(header + "\n" + main1)
	f.Add(traceText(mainWaits, `{"more":1,"segments":[{"start":0,"dur":1}],"requests":[{"order":2,"at":1}]}`, child2))
	f.Add(traceText(`{"id":1,"parent":0,"proc":"m","made_at":0,"arg_bytes":0,"duration":1e400,"results":null}`))
	f.Fuzz(func(t *testing.T, text string) {
		orders, err := readAll("fuzz.jsonl", text)
		if scanned, serr := scanAll("fuzz.jsonl", text); !reflect.DeepEqual(scanned, orders) || (serr == nil) != (err == nil) {
			t.Fatalf("Scan read %d orders (%v), Next %d (%v)", len(scanned), serr, len(orders), err)
		}
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		again, err := writeAll(t, Header{}, orders)
		if err != nil {
			t.Fatalf("the Writer rejects what the Reader accepted: %v", err)
		}
		back, err := readAll("again.jsonl", again)
		if err != nil {
			t.Fatalf("the Reader rejects what the Writer wrote: %v", err)
		}
		if !reflect.DeepEqual(back, orders) {
			t.Fatalf("round trip changed the orders")
		}
		names, chunks := packAll(orders, 2)
		if unpacked, err := unpackAll(names, chunks, true); err != nil || len(orders) > 0 && !reflect.DeepEqual(unpacked, orders) {
			t.Fatalf("the packed form changed the orders (%v)", err)
		}
	})
}
