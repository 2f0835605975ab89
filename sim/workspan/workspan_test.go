package workspan

import (
	"encoding/json"
	"errors"
	"io"
	"math"
	"strings"
	"testing"

	"github.com/presage-dvm/presage/sim/ordertrace"
)

// lines is a Source of orders written as JSON, one per string.
type lines struct {
	t    testing.TB
	text []string
}

func (l *lines) Next() (*ordertrace.Order, error) {
	if len(l.text) == 0 {
		return nil, io.EOF
	}
	o := new(ordertrace.Order)
	if err := json.Unmarshal([]byte(l.text[0]), o); err != nil {
		l.t.Fatal(err)
	}
	l.text = l.text[1:]
	return o, nil
}

// order writes an order line: the fields after the id, parent, made_at
// and duration are given as JSON text.
func order(id, parent int64, madeAt, dur float64, rest string) string {
	b, _ := json.Marshal(ordertrace.Order{ID: id, Parent: parent, Proc: "p", MadeAt: madeAt, Duration: dur})
	s := strings.TrimSuffix(string(b), "}")
	if rest != "" {
		s += "," + rest
	}
	return s + "}"
}

func res(at float64, bytes int64) string {
	b, _ := json.Marshal(ordertrace.Result{At: at, Bytes: bytes})
	return string(b)
}

// analyze analyses the orders of text, with and without their counts,
// which must agree.
func analyze(t *testing.T, net Network, text ...string) Summary {
	t.Helper()
	orders, err := ordertrace.ReadAll(&lines{t, text})
	if err != nil {
		t.Fatal(err)
	}
	s, err := Analyze(&slice{orders: orders}, net)
	compareCounted(t, orders, net, s, err)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// sortTrace: main waits at 0 for two halves; the second half waits at 1
// for the second result (own moment 1) of a helper it makes at 0.5.
var sortTrace = []string{
	order(1, 0, 0, 4, `"requests":[{"order":2,"at":0},{"order":3,"at":0}],"results":[`+res(4, 80)+`]`),
	order(2, 1, 0, 3, `"arg_bytes":40,"results":[`+res(3, 40)+`]`),
	order(3, 1, 0, 2.5, `"arg_bytes":40,"requests":[{"order":4,"result":1,"at":1}],"results":[`+res(2.5, 40)+`]`),
	order(4, 3, 0.5, 1, `"arg_bytes":8,"results":[`+res(0.2, 8)+`,`+res(1, 8)+`]`),
}

func TestAnalyzeByHand(t *testing.T) {
	tests := []struct {
		name                 string
		net                  Network
		span, burdened, work float64
	}{
		// Half 3 waits for the helper's result 1 at 1.5 (offset 0.5) and ends
		// at 3; main waits until 3 and ends at 7.
		{"free network", Network{}, 7, 7, 10.5},
		// Every edge one second: half 2 starts at 1, its result arrives at 5;
		// the helper starts at 1+0.5+1, its result 1 arrives at 4.5; half 3
		// resumes at 4.5, provides at 6, arriving at 7; main ends at 11.
		{"latency", Network{Latency: 1}, 7, 11, 10.5},
		// Messages cost 1 + bytes/40: 2 s for 40 bytes, 1.2 s for 8. Half 2:
		// start 2, result at 7. Helper: start 2+0.5+1.2 = 3.7, result 1 at
		// 5.9. Half 3: resumes at 5.9 at own 1, provides at 7.4, arriving at
		// 9.4. Main ends at 9.4+4.
		{"latency and bandwidth", Network{Latency: 1, Bandwidth: 40}, 7, 13.4, 10.5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := analyze(t, tt.net, sortTrace...)
			if s.Orders != 4 || !near(s.Work, tt.work) || !near(s.Span, tt.span) || !near(s.BurdenedSpan, tt.burdened) {
				t.Errorf("got %+v, want work %v span %v burdened %v", s, tt.work, tt.span, tt.burdened)
			}
			if !near(s.Parallelism, tt.work/tt.span) {
				t.Errorf("parallelism %v, want %v", s.Parallelism, tt.work/tt.span)
			}
		})
	}
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*max(1, math.Abs(b)) }

func TestChildrenReadAfterTheirParentWaited(t *testing.T) {
	// Main makes A at 0 and B at 0.5, waits at 1 for A (until 5: offset
	// 4), makes C at 2. B and C are read after main's wait is resolved: B
	// starts at 0.5 and ends at 10.5, C starts at 2+4 and ends at 11.
	s := analyze(t, Network{},
		order(1, 0, 0, 3, `"requests":[{"order":2,"at":1}],"results":[`+res(3, 0)+`]`),
		order(2, 1, 0, 5, `"results":[`+res(5, 0)+`]`),
		order(3, 1, 0.5, 10, `"results":[`+res(10, 0)+`]`),
		order(4, 1, 2, 5, `"results":[`+res(5, 0)+`]`),
	)
	if !near(s.Span, 11) {
		t.Errorf("span %v, want 11", s.Span)
	}
}

func TestChildReadBeforeItsParentCanMakeIt(t *testing.T) {
	// Main waits at 1 for order 2, which waits for its own child 4, read
	// after main's second child 3: 3 must wait for main's wait. Order 4
	// starts at 0.2 and provides at 1.2; order 2 resumes at 1.2 at own 0.5
	// and provides at 1.7; main resumes at 1.7 at own 1 (offset 0.7) and
	// makes 3 at 2.7, which ends at 4.7.
	s := analyze(t, Network{},
		order(1, 0, 0, 3, `"requests":[{"order":2,"at":1}],"results":[`+res(3, 0)+`]`),
		order(2, 1, 0, 1, `"requests":[{"order":4,"at":0.5}],"results":[`+res(1, 0)+`]`),
		order(3, 1, 2, 2, `"results":[`+res(2, 0)+`]`),
		order(4, 2, 0.2, 1, `"results":[`+res(1, 0)+`]`),
	)
	if !near(s.Span, 4.7) || !near(s.Work, 7) {
		t.Errorf("got %+v, want span 4.7 and work 7", s)
	}
}

func TestEqualMoments(t *testing.T) {
	// Main makes a child at 1 and requests it at 1: the make comes first,
	// so there is no deadlock; the child's result comes before main's own
	// result at the same moment (3 after the wait: offset 2).
	s := analyze(t, Network{},
		order(1, 0, 0, 1, `"requests":[{"order":2,"at":1}],"results":[`+res(1, 0)+`]`),
		order(2, 1, 1, 2, `"results":[`+res(2, 0)+`]`),
	)
	if !near(s.Span, 3) {
		t.Errorf("span %v, want 3", s.Span)
	}
}

func TestDeadlock(t *testing.T) {
	// Order 2 waits for order 4, made by order 3, which main makes only
	// after order 2's result.
	err := Check(&lines{t, []string{
		order(1, 0, 0, 3, `"requests":[{"order":2,"at":1}],"results":[`+res(3, 0)+`]`),
		order(2, 1, 0, 1, `"requests":[{"order":4,"at":0.5}],"results":[`+res(1, 0)+`]`),
		order(3, 1, 2, 1, `"results":[`+res(1, 0)+`]`),
		order(4, 3, 0, 2, `"results":[`+res(2, 0)+`]`),
	}})
	want := "deadlock: order 1 waits at 1 for result 0 of order 2; order 2 waits at 0.5 for result 0 of order 4; " +
		"order 4 waits for order 3 to make it at 0; order 3 waits for order 1 to make it at 2 (a cycle: no execution can finish)"
	var d *DeadlockError
	if !errors.As(err, &d) || !d.Cycle || err.Error() != want {
		t.Fatalf("got %v\nwant %s", err, want)
	}
}

func TestMutualWait(t *testing.T) {
	// Parent and child each wait for the other's result: the child's
	// request is at 0, before its result; main's at 1, before its own.
	err := Check(&lines{t, []string{
		order(1, 0, 0, 2, `"requests":[{"order":2,"at":1}],"results":[`+res(2, 0)+`]`),
		order(2, 1, 0, 1, `"requests":[{"order":1,"at":0}],"results":[`+res(1, 0)+`]`),
	}})
	want := "deadlock: order 1 waits at 1 for result 0 of order 2; order 2 waits at 0 for result 0 of order 1 (a cycle: no execution can finish)"
	if err == nil || err.Error() != want {
		t.Fatalf("got %v\nwant %s", err, want)
	}
	// A child may wait for a result its parent provides before waiting.
	err = Check(&lines{t, []string{
		order(1, 0, 0, 2, `"requests":[{"order":2,"at":1}],"results":[`+res(0.5, 0)+`,`+res(2, 0)+`]`),
		order(2, 1, 0, 1, `"requests":[{"order":1,"at":0}],"results":[`+res(1, 0)+`]`),
	}})
	if err != nil {
		t.Errorf("an early result of the parent: %v", err)
	}
}

func TestResultNeverProvided(t *testing.T) {
	err := Check(&lines{t, []string{
		order(1, 0, 0, 2, `"requests":[{"order":2,"result":3,"at":1}],"results":[`+res(2, 0)+`]`),
		order(2, 1, 0, 1, `"results":[`+res(1, 0)+`]`),
	}})
	want := "deadlock: order 1 waits at 1 for result 3 of order 2 (a wait that nothing ends)"
	if err == nil || err.Error() != want {
		t.Fatalf("got %v\nwant %s", err, want)
	}
}

func TestAdmissible(t *testing.T) {
	for _, text := range [][]string{
		{order(2, 0, 0, 1, `"results":[`+res(1, 0)+`]`)},
		{order(1, 0, 0, 1, `"results":[`+res(1, 0)+`]`), order(2, 5, 0, 1, `"results":[`+res(1, 0)+`]`)},
	} {
		if _, err := Analyze(&lines{t, text}, Network{}); err == nil {
			t.Errorf("no error for %s", text)
		}
	}
}

func TestSpeedupRange(t *testing.T) {
	s := Summary{Work: 100, Span: 10, BurdenedSpan: 15, Parallelism: 10}
	tests := []struct {
		n      int
		lo, hi float64
	}{
		{1, 100.0 / 115, 1},
		{4, 100.0 / 40, 4},
		{100, 100.0 / 16, 10},
		{0, 0, 0},
	}
	for _, tt := range tests {
		lo, hi := s.SpeedupRange(tt.n)
		if !near(lo, tt.lo) || !near(hi, tt.hi) {
			t.Errorf("SpeedupRange(%d) = %v, %v; want %v, %v", tt.n, lo, hi, tt.lo, tt.hi)
		}
	}
}
