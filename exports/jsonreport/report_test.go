package jsonreport

import (
	"bytes"
	"encoding/json"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/presage-dvm/presage/internal/storetest"
	"github.com/presage-dvm/presage/sim/result"
)

// testRun builds a 3-level tree: Main(1) -> Seq(2) -> {Par(3), Par(4)},
// Main -> User(5) -> Par(6), with values no decimal rounding preserves.
func testRun(kind result.Kind) *result.Run {
	expr := int64(-7)
	mk := func(id, parent, level int, typ result.IntervalType, children ...int) *result.Interval {
		iv := &result.Interval{ID: id, Parent: parent, Level: level, Type: typ, Count: int64(10 * id),
			Line: 100 + id, File: "jac.fdv", Children: children}
		for c := range iv.Values {
			iv.Values[c] = float64(id)/3 + float64(c)*math.Pi*1e-7
		}
		for p := 0; p < 4; p++ {
			pv := result.NewProcValues(p)
			pv.Values[result.ExecutionTime] = float64(id) + float64(p)/7
			pv.Values[result.Idle] = float64(p) / 11
			iv.Procs = append(iv.Procs, pv)
		}
		return iv
	}
	ivs := []*result.Interval{
		mk(1, 0, 0, result.Main, 2, 5),
		mk(2, 1, 1, result.Seq, 3, 4),
		mk(3, 2, 2, result.Par),
		mk(4, 2, 2, result.Par),
		mk(5, 1, 1, result.User, 6),
		mk(6, 5, 2, result.Par),
	}
	ivs[4].Expr = &expr
	ivs[0].Values[result.Efficiency] = math.MaxFloat64 // the original's "no total time"
	run := &result.Run{Kind: kind, Program: "jac", Intervals: ivs, ReportRoot: 2,
		Config:   result.Config{Grid: []int{2, 2}},
		Warnings: []result.Warning{{Message: "unknown function foo_", Count: 3}}}
	if kind == result.Predicted {
		run.Config.Machine, run.Config.Network, run.Config.TByte = "Predictor", "cluster", 4e-9
		run.Config.Options = []string{"close-intervals"}
	}
	return run
}

func encode(t *testing.T, run *result.Run, opt Options) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := Write(&b, run, opt); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestRoundTrip: values written from a stored run decode to exactly the
// run's values, for every applicable characteristic.
func TestRoundTrip(t *testing.T) {
	for _, kind := range []result.Kind{result.Predicted, result.Measured} {
		t.Run(string(kind), func(t *testing.T) {
			want := testRun(kind)
			run := storetest.RoundTrip(t, want)
			var rep Document
			if err := json.Unmarshal(encode(t, run, Options{PerProc: true}), &rep); err != nil {
				t.Fatal(err)
			}
			if len(rep.Intervals) != len(want.Intervals) {
				t.Fatalf("%d intervals, want %d", len(rep.Intervals), len(want.Intervals))
			}
			for i, iv := range rep.Intervals {
				w := want.Intervals[i]
				if iv.ID != w.ID {
					t.Fatalf("interval %d: id %d, want %d", i, iv.ID, w.ID)
				}
				if len(iv.Characteristics) != len(applicable(kind)) {
					t.Errorf("interval %d: %d characteristics, want %d", iv.ID, len(iv.Characteristics), len(applicable(kind)))
				}
				for _, v := range iv.Characteristics {
					if v.Value != w.Values[v.Char] {
						t.Errorf("interval %d %s = %v, want %v", iv.ID, v.Char, v.Value, w.Values[v.Char])
					}
				}
				if len(iv.Procs) != 4 {
					t.Fatalf("interval %d: %d procs, want 4", iv.ID, len(iv.Procs))
				}
				for p, pv := range iv.Procs {
					got, _ := pv.Characteristics.Get(result.ExecutionTime)
					if pv.Proc != p || got != w.Procs[p].Values[result.ExecutionTime] {
						t.Errorf("interval %d proc %d: exec %v, want %v", iv.ID, pv.Proc, got, w.Procs[p].Values[result.ExecutionTime])
					}
				}
			}
		})
	}
}

// TestShape checks the raw document: keys, nulls and the canonical order of
// the characteristics.
func TestShape(t *testing.T) {
	run := storetest.RoundTrip(t, testRun(result.Predicted))
	raw := encode(t, run, Options{})
	var doc struct {
		Run       map[string]any   `json:"run"`
		Intervals []map[string]any `json:"intervals"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	runWant := map[string]any{
		"kind": "predicted", "program": "jac", "machine": "Predictor", "grid": "2x2", "procs": 4.0,
		"network": "cluster", "tstart_us": nil, "tbyte_us": 0.004, "power": nil, "report_root": 2.0,
		"trace_id": nil, "sts_id": nil, "sweep_id": nil, "machine_id": nil,
	}
	for k, v := range runWant {
		got, ok := doc.Run[k]
		if !ok || got != v {
			t.Errorf("run.%s = %v (present %v), want %v", k, got, ok, v)
		}
	}
	if got := doc.Run["dims"]; len(got.([]any)) != 2 {
		t.Errorf("run.dims = %v, want [2 2]", got)
	}
	tests := []struct {
		id     float64
		parent any
		typ    string
		level  float64
		expr   any
	}{
		{1, nil, "Main", 0, nil},
		{2, 1.0, "Seq", 1, nil},
		{3, 2.0, "Par", 2, nil},
		{4, 2.0, "Par", 2, nil},
		{5, 1.0, "User", 1, -7.0},
		{6, 5.0, "Par", 2, nil},
	}
	for i, tt := range tests {
		iv := doc.Intervals[i]
		if iv["id"] != tt.id || iv["parent"] != tt.parent || iv["type"] != tt.typ || iv["level"] != tt.level || iv["expr"] != tt.expr {
			t.Errorf("interval %d = id %v parent %v type %v level %v expr %v, want %+v",
				i, iv["id"], iv["parent"], iv["type"], iv["level"], iv["expr"], tt)
		}
		for _, k := range []string{"parent", "expr", "count", "line", "file"} {
			if _, ok := iv[k]; !ok {
				t.Errorf("interval %v: key %q missing", iv["id"], k)
			}
		}
		if _, ok := iv["procs"]; ok {
			t.Errorf("interval %v: procs present without Options.PerProc", iv["id"])
		}
	}
	names := keyOrder(t, raw, "characteristics")
	if len(names) != int(result.CPUTimeSys)+1 {
		t.Fatalf("%d characteristic names, want %d", len(names), result.CPUTimeSys+1)
	}
	for i, n := range names {
		if n != result.Char(i).String() {
			t.Errorf("characteristic %d is %q, want %q", i, n, result.Char(i))
		}
	}
}

// keyOrder returns the keys, in document order, of the first object that is
// the value of key.
func keyOrder(t *testing.T, raw []byte, key string) []string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	for {
		tok, err := dec.Token()
		if err != nil {
			t.Fatalf("key %q not found: %v", key, err)
		}
		if tok != key {
			continue
		}
		var names []string
		if tok, _ := dec.Token(); tok != json.Delim('{') {
			t.Fatalf("%q is not an object", key)
		}
		for dec.More() {
			tok, _ := dec.Token()
			names = append(names, tok.(string))
			if _, err := dec.Token(); err != nil {
				t.Fatal(err)
			}
		}
		return names
	}
}

// TestMeasuredExtras: a measurement carries the analyzer extras, a
// prediction does not.
func TestMeasuredExtras(t *testing.T) {
	for _, tt := range []struct {
		kind result.Kind
		want bool
	}{{result.Predicted, false}, {result.Measured, true}} {
		raw := encode(t, testRun(tt.kind), Options{})
		if got := bytes.Contains(raw, []byte(`"GPU_lost_time"`)); got != tt.want {
			t.Errorf("%s: GPU_lost_time present = %v, want %v", tt.kind, got, tt.want)
		}
		if !bytes.Contains(raw, []byte(`"CPU_time_sys"`)) {
			t.Errorf("%s: CPU_time_sys missing", tt.kind)
		}
	}
}

// TestPreorder: the output follows the tree, not the order of the slice.
func TestPreorder(t *testing.T) {
	run := testRun(result.Predicted)
	iv := run.Intervals
	run.Intervals = []*result.Interval{iv[0], iv[4], iv[1], iv[5], iv[3], iv[2]}
	rep, err := Build(run, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var ids []int
	for _, iv := range rep.Intervals {
		ids = append(ids, iv.ID)
	}
	if got, want := ids, []int{1, 2, 3, 4, 5, 6}; !slices.Equal(got, want) {
		t.Errorf("order %v, want %v", got, want)
	}
}

func TestDeterministic(t *testing.T) {
	run := testRun(result.Measured)
	a, b := encode(t, run, Options{PerProc: true}), encode(t, run, Options{PerProc: true})
	if !bytes.Equal(a, b) {
		t.Error("two exports of the same run differ")
	}
}

func TestErrors(t *testing.T) {
	tests := []struct {
		name string
		edit func(*result.Run)
		want string
	}{
		{"nan", func(r *result.Run) { r.Intervals[3].Values[result.Idle] = math.NaN() }, "interval 4: Idle is NaN"},
		{"inf proc", func(r *result.Run) { r.Intervals[2].Procs[1].Values[result.ExecutionTime] = math.Inf(1) }, "interval 3: processor 1: Execution_time is +Inf"},
		{"no intervals", func(r *result.Run) { r.Intervals = nil }, "no intervals"},
		{"unreachable", func(r *result.Run) { r.Intervals[0].Children = []int{2} }, "2 of 6 intervals are not reachable"},
		{"root not first", func(r *result.Run) { r.Intervals = r.Intervals[1:] }, "first interval 2 has parent 1"},
		{"kind", func(r *result.Run) { r.Kind = "guessed" }, `kind "guessed"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			run := testRun(result.Predicted)
			tt.edit(run)
			err := Write(&bytes.Buffer{}, run, Options{PerProc: true})
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
}

func TestUnmarshalUnknownName(t *testing.T) {
	var cs Characteristics
	err := json.Unmarshal([]byte(`{"Efficiency": 1, "Speed": 2}`), &cs)
	if err == nil || !strings.Contains(err.Error(), `"Speed"`) {
		t.Errorf("error %v, want one naming \"Speed\"", err)
	}
}

func TestComparative(t *testing.T) {
	var rep struct {
		Intervals []struct {
			ID          int
			Comparative []Comparative
		}
	}
	if err := json.Unmarshal(encode(t, testRun(result.Measured), Options{}), &rep); err != nil {
		t.Fatal(err)
	}
	iv := rep.Intervals[0] // interval 1: Execution_time p = 1 + p/7, Idle p/11
	want := []Comparative{
		{Name: "Execution_time", Min: 1, MinProc: 0, Max: 1 + 3.0/7, MaxProc: 3, Mean: 1 + 6.0/28},
		{Name: "Idle", Min: 0, MinProc: 0, Max: 3.0 / 11, MaxProc: 3, Mean: 6.0 / 44},
	}
	if len(iv.Comparative) != len(want) {
		t.Fatalf("comparative = %+v, want %+v", iv.Comparative, want)
	}
	for i, w := range want {
		g := iv.Comparative[i]
		if g.Name != w.Name || g.MinProc != w.MinProc || g.MaxProc != w.MaxProc ||
			math.Abs(g.Min-w.Min) > 1e-12 || math.Abs(g.Max-w.Max) > 1e-12 || math.Abs(g.Mean-w.Mean) > 1e-12 {
			t.Errorf("comparative[%d] = %+v, want %+v", i, g, w)
		}
	}
}
