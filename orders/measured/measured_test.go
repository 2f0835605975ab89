package measured

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"
)

func sample() *Execution {
	return &Execution{Program: "matmul", Machine: "host/amd64", Started: time.Date(2026, 11, 24, 11, 0, 0, 0, time.UTC),
		Orders: 5, Makespan: 1.5, Workers: []Worker{
			{Orders: 3, Busy: 1.25, Waiting: 0.125, Idle: 0.125},
			{Orders: 2, Busy: 1, Idle: 0.5},
		}}
}

func TestRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	if err := Write(&buf, sample()); err != nil {
		t.Fatal(err)
	}
	got, err := Read(&buf, "run.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	want := sample()
	if got.Program != want.Program || got.Machine != want.Machine || !got.Started.Equal(want.Started) ||
		got.Orders != want.Orders || got.Makespan != want.Makespan || len(got.Workers) != 2 ||
		got.Workers[0] != want.Workers[0] || got.Workers[1] != want.Workers[1] {
		t.Errorf("read back %+v, want %+v", got, want)
	}
}

func TestReadErrors(t *testing.T) {
	const head = `{"format":"presage-orders-run","version":1,"program":"p","machine":"m","started":"2026-11-24T11:00:00Z","orders":2,"makespan":1,"workers":2}`
	const w0 = `{"worker":0,"orders":1,"busy":1}`
	const w1 = `{"worker":1,"orders":1,"busy":0.5,"idle":0.5}`
	for _, tc := range []struct {
		name, text string
		line       int
		msg        string
	}{
		{"empty", "", 0, "empty file"},
		{"not json", "hello\n", 1, "expected one JSON object per line"},
		{"other format", `{"format":"presage-orders","version":1}`, 1, `expected "presage-orders-run" version 1`},
		{"no workers", strings.Replace(head, `"workers":2`, `"workers":0`, 1), 1, "workers 0 (expected 1 to"},
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
}

func FuzzRead(f *testing.F) {
	var buf bytes.Buffer
	if err := Write(&buf, sample()); err != nil {
		f.Fatal(err)
	}
	f.Add(buf.String())
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
		// What reads back is a valid run, and writes to what reads the same.
		var out bytes.Buffer
		if err := Write(&out, r); err != nil {
			t.Fatal(err)
		}
		again, err := Read(&out, "again")
		if err != nil {
			t.Fatalf("a run read back fails to read once written: %v", err)
		}
		if again.Makespan != r.Makespan || len(again.Workers) != len(r.Workers) {
			t.Errorf("rewritten %+v, read %+v", again, r)
		}
	})
}
