package measured

import (
	"bytes"
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"
)

// sample is a run of 5 orders on 2 workers with its schedule: main (on
// worker 0) makes two halves and waits, the first half makes two leaves.
func sample() *Execution {
	return &Execution{Program: "sort", Machine: "host/amd64", Scheduler: "work-stealing", Migrate: true,
		Started: time.Date(2026, 11, 24, 11, 0, 0, 0, time.UTC),
		Orders:  5, Makespan: 1.5, Workers: []Worker{
			{Orders: 4, Busy: 1.25, Waiting: 0.125, Idle: 0.125},
			{Orders: 1, Busy: 1.25, Idle: 0.25},
		},
		Schedule: []Order{
			{ID: 1, Proc: "sort", Stretches: []Stretch{{0, 0, 0.25}, {1, 1.25, 1.5}}},
			{ID: 2, Parent: 1, Child: 0, Proc: "half", Made: 0.125, Stretches: []Stretch{{0, 0.25, 0.5}, {0, 0.75, 1}}},
			{ID: 3, Parent: 1, Child: 1, Proc: "half", Made: 0.25, Stretches: []Stretch{{1, 0.25, 1.25}}},
			{ID: 4, Parent: 2, Child: 0, Proc: "leaf", Made: 0.375, Stretches: []Stretch{{0, 0.5, 0.75}}},
			{ID: 5, Parent: 2, Child: 1, Proc: "leaf", Made: 0.5, Stretches: []Stretch{{0, 1, 1.25}}},
		}}
}

func write(t testing.TB, r *Execution) string {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, r); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// TestRoundTrip: what Write writes, Read reads back the same, with or
// without a schedule; a version 1 file reads with no scheduler and no
// schedule, and is written again as version 2 with FIFO, what it ran.
func TestRoundTrip(t *testing.T) {
	noSchedule := sample()
	noSchedule.Schedule = nil
	procs := sample()
	procs.Cores = 2 // one worker process of 2 cores
	v1 := sample()
	v1.Scheduler, v1.Migrate, v1.Schedule = "", false, nil
	asV2 := *v1
	asV2.Scheduler = "fifo"
	for _, tc := range []struct {
		name string
		text string
		want *Execution
	}{
		{"schedule", write(t, sample()), sample()},
		{"no schedule", write(t, noSchedule), noSchedule},
		{"worker processes", write(t, procs), procs},
		{"version 1", `{"format":"presage-orders-run","version":1,"program":"sort","machine":"host/amd64","migrate":false,"started":"2026-11-24T11:00:00Z","orders":5,"makespan":1.5,"workers":2}
{"worker":0,"orders":4,"busy":1.25,"waiting":0.125,"idle":0.125}
{"worker":1,"orders":1,"busy":1.25,"waiting":0,"idle":0.25}
`, v1},
		{"version 1 rewritten", write(t, v1), &asV2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Read(strings.NewReader(tc.text), "run.jsonl")
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("read back\n%+v\nwant\n%+v", got, tc.want)
			}
		})
	}
	if text := write(t, sample()); !strings.Contains(text, `"version":2,`) || !strings.Contains(text, `"scheduler":"work-stealing"`) ||
		!strings.Contains(text, "\n"+`{"order":1,"parent":0,"child":0,"proc":"sort","made":0,"runs":[[0,0,0.25],[1,1.25,1.5]]}`+"\n") {
		t.Errorf("written:\n%s", text)
	}
}

// TestDocumentedExamples: the examples of the package doc and of
// docs/orders.md read without error.
func TestDocumentedExamples(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	var pkg strings.Builder
	for _, l := range strings.Split(string(doc), "\n") {
		if rest, ok := strings.CutPrefix(l, "//\t{"); ok {
			pkg.WriteString("{" + rest + "\n")
		}
	}
	md, err := os.ReadFile("../../docs/orders.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(md), "## Measured runs")
	_, block, ok2 := strings.Cut(section, "```\n")
	block, _, ok3 := strings.Cut(block, "```")
	if !ok || !ok2 || !ok3 {
		t.Fatal(`docs/orders.md: no example block under "## Measured runs"`)
	}
	for name, text := range map[string]string{"doc.go": pkg.String(), "docs/orders.md": block} {
		r, err := Read(strings.NewReader(text), name)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		if len(r.Schedule) == 0 || r.Scheduler == "" {
			t.Errorf("%s: the example has no schedule or no scheduler: %+v", name, r)
		}
	}
}

func TestReadErrors(t *testing.T) {
	const head = `{"format":"presage-orders-run","version":1,"program":"p","machine":"m","started":"2026-11-24T11:00:00Z","orders":2,"makespan":1,"workers":2}`
	const w0 = `{"worker":0,"orders":1,"busy":1}`
	const w1 = `{"worker":1,"orders":1,"busy":0.5,"idle":0.5}`
	// A version 2 run of 3 orders: main makes two.
	head2 := strings.NewReplacer(`"version":1`, `"version":2`, `"orders":2`, `"orders":3`, `"workers":2`, `"workers":2,"scheduler":"fifo"`).Replace(head)
	const v0 = `{"worker":0,"orders":2,"busy":1}`
	const o1 = `{"order":1,"parent":0,"child":0,"proc":"main","made":0,"runs":[[0,0,0.25],[0,0.75,1]]}`
	const o2 = `{"order":2,"parent":1,"child":0,"proc":"task","made":0.125,"runs":[[1,0.125,0.625]]}`
	const o3 = `{"order":3,"parent":1,"child":1,"proc":"task","made":0.25,"runs":[[0,0.25,0.75]]}`
	v2 := func(orders ...string) string {
		return head2 + "\n" + v0 + "\n" + w1 + "\n" + strings.Join(orders, "\n") + "\n"
	}
	for _, tc := range []struct {
		name, text string
		line       int
		msg        string
	}{
		{"empty", "", 0, "empty file"},
		{"not json", "hello\n", 1, "expected the header: one JSON object"},
		{"other format", `{"format":"presage-orders","version":1}`, 1, `expected "presage-orders-run" version 1 to 2`},
		{"newer version", strings.Replace(head, `"version":1`, `"version":3`, 1), 1, "version 3 (expected"},
		{"no workers", strings.Replace(head, `"workers":2`, `"workers":0`, 1), 1, "workers 0 (expected 1 to"},
		{"cores of no process", strings.Replace(head, `"workers":2`, `"workers":2,"cores":3`, 1), 1, "cores 3 of 2 workers (expected the workers to be the cores of processes"},
		{"bad time", strings.Replace(head, `2026-11-24T11:00:00Z`, `yesterday`, 1), 1, "RFC 3339"},
		{"truncated", head + "\n" + w0 + "\n", 2, "1 of the 2 workers"},
		{"extra line", head + "\n" + w0 + "\n" + w1 + "\n" + w1 + "\n", 4, "after the 2 workers"},
		{"out of order", head + "\n" + w1 + "\n" + w0 + "\n", 2, "worker 1 (expected worker 0"},
		{"unknown field", head + "\n" + `{"worker":0,"orders":1,"busy":1,"cpu":3}` + "\n" + w1, 2, "unknown field"},
		{"negative", head + "\n" + `{"worker":0,"orders":1,"busy":1.5,"idle":-0.5}` + "\n" + w1, 2, "idle -0.5"},
		{"sum", head + "\n" + w0 + "\n" + `{"worker":1,"orders":1,"busy":0.5}` + "\n", 3, "busy + waiting + idle = 0.5"},
		{"orders", strings.Replace(head, `"orders":2`, `"orders":3`, 1) + "\n" + w0 + "\n" + w1, 1, "started 2 orders (expected the 3"},
		{"no program", strings.Replace(head, `"program":"p"`, `"program":""`, 1) + "\n" + w0 + "\n" + w1, 1, "no program"},
		{"long line", head + "\n" + strings.Repeat(" ", maxLine+1) + "x\n", 2, "longer than"},
		{"v1 scheduler", strings.Replace(head, `"workers":2`, `"workers":2,"scheduler":"fifo"`, 1), 1, "in a version 1 file"},
		{"v1 order line", head + "\n" + w0 + "\n" + w1 + "\n" + o1 + "\n", 4, `unknown field "order" (expected the end of the file`},

		{"v2 no scheduler", strings.Replace(head2, `,"scheduler":"fifo"`, ``, 1), 1, `scheduler "" (expected one of fifo, least-loaded`},
		{"v2 unknown scheduler", strings.Replace(head2, `"fifo"`, `"random"`, 1), 1, `scheduler "random"`},
		{"v2 worker for order", v2(w1), 4, `unknown field "worker" (expected order 1's line`},
		{"v2 order numbers", v2(o1, o3), 5, "order 3 (expected order 2"},
		{"v2 main's parent", v2(strings.Replace(o1, `"parent":0`, `"parent":1`, 1)), 4, "order 1: parent 1, child 0 (expected the main order's"},
		{"v2 later parent", v2(o1, strings.Replace(o2, `"parent":1`, `"parent":2`, 1)), 5, "order 2: parent 2 (expected an earlier order, 1 to 1)"},
		{"v2 no parent", v2(o1, strings.Replace(o2, `"parent":1`, `"parent":0`, 1)), 5, "order 2: parent 0"},
		{"v2 child skipped", v2(o1, o2, strings.Replace(o3, `"child":1`, `"child":2`, 1)), 6, "order 3: child 2 (expected 1"},
		{"v2 child repeated", v2(o1, o2, strings.Replace(o3, `"child":1`, `"child":0`, 1)), 6, "order 3: child 0 (expected 1"},
		{"v2 no proc", v2(o1, strings.Replace(o2, `"task"`, `""`, 1)), 5, "order 2: no proc"},
		{"v2 made late", v2(o1, strings.Replace(o2, `"made":0.125`, `"made":2`, 1)), 5, "order 2: made 2 (expected seconds from 0 to the makespan, 1)"},
		{"v2 no runs", v2(o1, strings.Replace(o2, `[[1,0.125,0.625]]`, `[]`, 1)), 5, "order 2: no runs"},
		{"v2 short run", v2(o1, strings.Replace(o2, `[[1,0.125,0.625]]`, `[[1,0.125]]`, 1)), 5, "order 2: run 0 has 2 numbers"},
		{"v2 worker out of range", v2(o1, strings.Replace(o2, `[[1,`, `[[2,`, 1)), 5, "order 2: run 0: worker 2 (expected 0 to 1)"},
		{"v2 fractional worker", v2(o1, strings.Replace(o2, `[[1,`, `[[0.5,`, 1)), 5, "worker 0.5"},
		{"v2 runs out of order", v2(strings.Replace(o1, `[[0,0,0.25],[0,0.75,1]]`, `[[0,0.75,1],[0,0,0.25]]`, 1)), 4,
			"order 1: run 1: [0, 0.25] (expected start ≤ end within [1, the makespan 1]"},
		{"v2 run backwards", v2(o1, strings.Replace(o2, `0.125,0.625`, `0.625,0.125`, 1)), 5, "run 0: [0.625, 0.125]"},
		{"v2 run after the end", v2(o1, strings.Replace(o2, `0.625]`, `1.5]`, 1)), 5, "run 0: [0.125, 1.5]"},
		{"v2 run as text", v2(o1, strings.Replace(o2, `0.625]`, `"0.625"]`, 1)), 5, "expected order 2's line"},
		{"v2 truncated", v2(o1, o2), 5, "2 of the 3 orders the header announced"},
		{"v2 extra order", v2(o1, o2, o3, strings.Replace(o3, `"order":3`, `"order":4`, 1)), 7, "a line after the 3 orders"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Read(strings.NewReader(tc.text), "run.jsonl")
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v, want an *Error", err)
			}
			if e.File != "run.jsonl" || e.Line != tc.line || !strings.Contains(e.Msg, tc.msg) {
				t.Errorf("error %q at line %d, want line %d and %q", e, e.Line, tc.line, tc.msg)
			}
		})
	}
	// The version 2 lines of the cases are a valid run once whole.
	if _, err := Read(strings.NewReader(v2(o1, o2, o3)), "run.jsonl"); err != nil {
		t.Errorf("the cases' run: %v", err)
	}
}

func FuzzRead(f *testing.F) {
	f.Add(write(f, sample()))
	noSchedule := sample()
	noSchedule.Schedule = nil
	f.Add(write(f, noSchedule))
	f.Add(strings.Replace(strings.Replace(write(f, noSchedule), `"version":2`, `"version":1`, 1), `"scheduler":"work-stealing",`, ``, 1))
	f.Add("{}\n")
	f.Fuzz(func(t *testing.T, text string) {
		r, err := Read(strings.NewReader(text), "fuzz")
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v is not an *Error", err)
			}
			return
		}
		// What reads back is a valid run, and writes to what reads the
		// same (a version 1 run as FIFO, what it ran).
		again, err := Read(strings.NewReader(write(t, r)), "again")
		if err != nil {
			t.Fatalf("a run read back fails to read once written: %v", err)
		}
		if r.Scheduler == "" {
			r.Scheduler = "fifo"
		}
		if !reflect.DeepEqual(again, r) {
			t.Errorf("rewritten\n%+v\nread\n%+v", again, r)
		}
	})
}
