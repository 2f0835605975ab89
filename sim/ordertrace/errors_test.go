package ordertrace

import (
	"fmt"
	"strings"
	"testing"
)

// main1 is a main order that makes nothing; mainWaits requests order 2.
const (
	main1     = `{"id":1,"parent":0,"proc":"main","made_at":0,"arg_bytes":0,"duration":2,"results":[{"at":2,"bytes":8}]}`
	mainWaits = `{"id":1,"parent":0,"proc":"main","made_at":0,"arg_bytes":0,"duration":2,"requests":[{"order":2,"at":1}],"results":[{"at":2,"bytes":8}]}`
	child2    = `{"id":2,"parent":1,"proc":"f","made_at":1,"arg_bytes":8,"duration":1,"results":[{"at":1,"bytes":8}]}`
)

// mainRequesting returns a main order that requests the given orders,
// made at 1 (children), at 1.
func mainRequesting(ids ...int) string {
	reqs := make([]string, len(ids))
	for i, id := range ids {
		reqs[i] = fmt.Sprintf(`{"order":%d,"at":1}`, id)
	}
	return strings.Replace(mainWaits, `{"order":2,"at":1}`, strings.Join(reqs, ","), 1)
}

// children returns orders first to last, children of main made at 1.
func children(first, last int) []string {
	var out []string
	for id := first; id <= last; id++ {
		out = append(out, strings.Replace(child2, `"id":2`, fmt.Sprintf(`"id":%d`, id), 1))
	}
	return out
}

// child returns order 2 of main1 with one field's text replaced.
func child(old, new string) string { return strings.Replace(child2, old, new, 1) }

func TestReaderErrors(t *testing.T) {
	tests := []struct {
		name string
		text string
		want string // the whole message
	}{
		{"empty file", "", "t.jsonl: empty file (expected a header line {\"format\":\"presage-orders\",\"version\":2,...})"},
		{"not json", "hello\n", `t.jsonl:1: not an order trace (expected a header line {"format":"presage-orders","version":2,...})`},
		{"other format", `{"format":"ptr","version":1}` + "\n", `t.jsonl:1: format "ptr" is not an order trace (expected "presage-orders")`},
		{"newer version", `{"format":"presage-orders","version":3,"unit":"s"}` + "\n", "t.jsonl:1: version 3 is newer than this reader's 2 (expected a trace of version 2 or older: upgrade presage)"},
		{"no version", `{"format":"presage-orders","unit":"s"}` + "\n", "t.jsonl:1: header without a valid version (expected a version from 1 to 2)"},
		{"bad unit", `{"format":"presage-orders","version":1,"unit":"ms"}` + "\n", `t.jsonl:1: header: unit "ms" (expected "s" or "ref")`},
		{"unknown header field", `{"format":"presage-orders","version":1,"unit":"s","x":1}` + "\n", `t.jsonl:1: header: json: unknown field "x"`},
		{"no orders", header + "\n", "t.jsonl: no orders (expected at least the main order)"},
		{"order count", `{"format":"presage-orders","version":1,"unit":"s","orders":2}` + "\n" + main1 + "\n", "t.jsonl: the header announces 2 orders, the file has 1"},
		{"malformed json", traceText(`{"id":1,`), "t.jsonl:2: column 9: expected a string, found the end of the line"},
		{"truncated last line", header + "\n" + main1, "t.jsonl:2: last line truncated (expected a complete line ending in a newline)"},
		{"cut object", header + "\n" + main1[:40], "t.jsonl:2: last line truncated (expected a complete line ending in a newline)"},
		{"empty line", traceText(main1, ""), "t.jsonl:3: empty line (expected an order)"},
		{"two objects", traceText(main1 + "{}"), "t.jsonl:2: column 104: found an object after the order object (expected one order per line)"},
		{"string for number", traceText(strings.Replace(main1, `"id":1`, `"id":"1"`, 1)), "t.jsonl:2: column 7: expected a number, found a string"},
		{"fraction for integer", traceText(strings.Replace(main1, `"id":1`, `"id":1.5`, 1)), "t.jsonl:2: column 7: expected an integer, found 1.5"},
		{"number for string", traceText(strings.Replace(main1, `"main"`, `7`, 1)), "t.jsonl:2: column 27: expected a string, found a number"},
		{"object for list", traceText(strings.Replace(main1, `"results":[{"at":2,"bytes":8}]`, `"results":{"at":2}`, 1)), "t.jsonl:2: column 83: expected '[' starting a list, found an object"},
		{"unknown field", traceText(strings.Replace(main1, `"id":1`, `"id":1,"cost":3`, 1)), `t.jsonl:2: column 9: unknown field "cost" (expected one of id, parent, proc, made_at, arg_bytes, duration, segments, requests, results)`},
		{"unknown result field", traceText(strings.Replace(main1, `"bytes":8`, `"bytes":8,"x":0`, 1)), `t.jsonl:2: column 102: unknown field "x" (expected one of at, bytes)`},
		{"missing field", traceText(strings.Replace(main1, `"duration":2,`, ``, 1)), `t.jsonl:2: column 90: missing field "duration"`},
		{"repeated field", traceText(strings.Replace(main1, `"id":1`, `"id":1,"id":1`, 1)), `t.jsonl:2: column 9: field "id" repeated`},
		{"infinite", traceText(strings.Replace(main1, `"duration":2`, `"duration":1e400`, 1)), "t.jsonl:2: column 71: number 1e400 out of range (expected a finite number)"},
		{"leading zero", traceText(strings.Replace(main1, `"duration":2`, `"duration":02`, 1)), "t.jsonl:2: column 71: number with a leading zero"},
		{"control character", traceText(strings.Replace(main1, `"main"`, "\"ma\tin\"", 1)), "t.jsonl:2: column 30: control character 0x9 in a string"},
		{"negative duration", traceText(strings.Replace(main1, `"duration":2`, `"duration":-2`, 1)), "t.jsonl:2: order 1: duration -2 is not a length of time (expected a number of seconds from 0 to 1000000000)"},
		{"negative bytes", traceText(strings.Replace(main1, `"bytes":8`, `"bytes":-8`, 1)), "t.jsonl:2: order 1: result 0: bytes -8 negative"},
		{"negative arg bytes", traceText(main1, child(`"arg_bytes":8`, `"arg_bytes":-1`)), "t.jsonl:3: order 2: arg_bytes -1 negative"},
		{"first id", traceText(strings.Replace(main1, `"id":1`, `"id":2`, 1)), "t.jsonl:2: order 2: id out of order (expected 1: ids count up from 1 in creation order)"},
		{"ids not increasing", traceText(main1, child2, child2), "t.jsonl:4: order 2: id out of order (expected 3: ids count up from 1 in creation order)"},
		{"main with parent", traceText(strings.Replace(main1, `"parent":0`, `"parent":3`, 1)), "t.jsonl:2: order 1: the main order has parent 3 (expected 0)"},
		{"unknown parent", traceText(main1, child(`"parent":1`, `"parent":9`)), "t.jsonl:3: order 2: parent 9 unknown (expected an earlier order's id)"},
		{"second main", traceText(main1, child(`"parent":1`, `"parent":0`)), "t.jsonl:3: order 2: parent 0 unknown (expected an earlier order's id)"},
		{"empty proc", traceText(main1, child(`"f"`, `""`)), "t.jsonl:3: order 2: proc is empty (expected the procedure's name)"},
		{"main made late", traceText(strings.Replace(main1, `"made_at":0`, `"made_at":1`, 1)), "t.jsonl:2: order 1: the main order is made at 1 (expected 0)"},
		{"made after parent ends", traceText(main1, child(`"made_at":1`, `"made_at":2.5`)), "t.jsonl:3: order 2: made at 2.5, outside its parent 1's own time [0, 2]"},
		{"huge result index", traceText(strings.Replace(mainWaits, `{"order":2,"at":1}`, `{"order":2,"result":2147483648,"at":1}`, 1), child2), "t.jsonl:2: order 1: request 0: result index 2147483648 out of range (expected at most 2147483647)"},
		{"duplicate in a long list", traceText(mainRequesting(2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 18, 19)), "t.jsonl:2: order 1: requests result 0 of order 18 twice (expected only the first request)"},
		{"duplicate in a long list out of order", traceText(mainRequesting(19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 11)), "t.jsonl:2: order 1: requests result 0 of order 11 twice (expected only the first request)"},
		{"segment gap", traceText(strings.Replace(main1, `"duration":2,`, `"duration":2,"segments":[{"start":0,"dur":1},{"start":1.5,"dur":0.5}],`, 1)), "t.jsonl:2: order 1: segment 1 starts at 1.5 (expected 1, where the previous one ends: segments cover [0, duration] in order)"},
		{"segments short", traceText(strings.Replace(main1, `"duration":2,`, `"duration":2,"segments":[{"start":0,"dur":1.5}],`, 1)), "t.jsonl:2: order 1: segments end at 1.5 (expected the duration 2)"},
		{"segment late start", traceText(strings.Replace(main1, `"duration":2,`, `"duration":2,"segments":[{"start":0.5,"dur":1.5}],`, 1)), "t.jsonl:2: order 1: segment 0 starts at 0.5 (expected 0, where the previous one ends: segments cover [0, duration] in order)"},
		{"no result", traceText(strings.Replace(main1, `,"results":[{"at":2,"bytes":8}]`, ``, 1)), "t.jsonl:2: order 1: no result (expected at least one: every order provides a result)"},
		{"result after end", traceText(strings.Replace(main1, `"at":2`, `"at":3`, 1)), "t.jsonl:2: order 1: result 0 at 3, outside the order's own time [0, 2]"},
		{"results out of order", traceText(strings.Replace(main1, `[{"at":2,"bytes":8}]`, `[{"at":2,"bytes":8},{"at":1,"bytes":8}]`, 1)), "t.jsonl:2: order 1: result 1 at 1 before the previous one at 2 (expected own-time order)"},
		{"request after end", traceText(strings.Replace(mainWaits, `"at":1`, `"at":5`, 1), child2), "t.jsonl:2: order 1: request 0 at 5, outside the order's own time [0, 2]"},
		{"self request", traceText(strings.Replace(mainWaits, `"order":2`, `"order":1`, 1)), "t.jsonl:2: order 1: request 0 names the order itself (a cycle: an order cannot wait for its own result)"},
		{"request order 0", traceText(strings.Replace(mainWaits, `"order":2`, `"order":0`, 1)), "t.jsonl:2: order 1: request 0 names order 0 (expected an order id ≥ 1)"},
		{"duplicate request", traceText(strings.Replace(mainWaits, `{"order":2,"at":1}`, `{"order":2,"at":1},{"order":2,"at":1.5}`, 1), child2), "t.jsonl:2: order 1: requests result 0 of order 2 twice (expected only the first request)"},
		{"result never provided (later order)", traceText(strings.Replace(mainWaits, `"order":2`, `"order":2,"result":1`, 1), child2), "t.jsonl:2: order 1: requests result 1 of order 2, which provides 1 (a request for a result never provided)"},
		{"result never provided (earlier order)", traceText(main1, child(`"duration":1,`, `"duration":1,"requests":[{"order":1,"result":3,"at":0}],`)), "t.jsonl:3: order 2: requests result 3 of order 1, which provides 1 (a request for a result never provided)"},
		{"order never made", traceText(mainWaits), "t.jsonl:2: order 1: requests order 2, which is not in the trace (a request for a result never provided)"},
		{"request before making", traceText(strings.Replace(mainWaits, `"at":1}]`, `"at":0.5}]`, 1), child2), "t.jsonl:2: order 1: requests order 2 at 0.5, before making it at 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := readAll("t.jsonl", tt.text)
			if err == nil {
				t.Fatalf("no error, want %q", tt.want)
			}
			if err.Error() != tt.want {
				t.Errorf("got  %q\nwant %q", err, tt.want)
			}
		})
	}
}

func TestValidTraceVariants(t *testing.T) {
	tests := []struct{ name, text string }{
		{"null lists", traceText(strings.Replace(main1, `"duration":2,`, `"duration":2,"segments":null,"requests":null,`, 1))},
		{"spaces and CRLF", header + "\r\n" + strings.ReplaceAll(main1, ",", " , ") + " \r\n"},
		{"keys in any order", traceText(`{"results":[{"bytes":8,"at":2}],"duration":2,"arg_bytes":0,"made_at":0,"proc":"m\u00e4in","parent":0,"id":1}`)},
		{"request at the moment of making", traceText(mainWaits, child2)},
		{"a long list of requests", traceText(append([]string{mainRequesting(2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19)}, children(2, 19)...)...)},
		{"a long list of requests out of order", traceText(append([]string{mainRequesting(19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2)}, children(2, 19)...)...)},
		{"segments summing with rounding", traceText(strings.NewReplacer(`"duration":2,`, `"duration":0.3,"segments":[{"start":0,"dur":0.1},{"start":0.1,"dur":0.2}],`, `"at":2`, `"at":0.3`).Replace(main1))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := readAll("t.jsonl", tt.text); err != nil {
				t.Error(err)
			}
		})
	}
}
