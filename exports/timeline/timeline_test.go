package timeline

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/presage-dvm/presage/ingest/machinefile"
	"github.com/presage-dvm/presage/ingest/ptr"
	"github.com/presage-dvm/presage/internal/golden"
	"github.com/presage-dvm/presage/sim"
	"github.com/presage-dvm/presage/sim/events"
	"github.com/presage-dvm/presage/sim/result"
)

// simulated is one real trace simulated into every format.
type simulated struct {
	run               *result.Run
	prv, pcf, row, js bytes.Buffer
	sample            *events.Sample
	stats             events.Stats
}

// simulate predicts a real trace on the reference machine with a
// collector writing Paraver (with runs of runRecords records, so that
// small values exercise the spill and merge), Perfetto and a sample.
func simulate(t *testing.T, trace string, grid []int, network string, runRecords int) *simulated {
	t.Helper()
	mf, err := os.Open(golden.Path(t, "machines", "Predictor.par"))
	if err != nil {
		t.Fatal(err)
	}
	defer mf.Close()
	m, err := machinefile.Parse(mf, "Predictor.par")
	if err != nil {
		t.Fatal(err)
	}
	r, err := ptr.OpenFile(golden.Path(t, "traces", trace))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	cfg := result.Config{Grid: grid, Network: network}
	s := &simulated{}
	procs := cfg.Procs()
	js, err := NewPerfetto(&s.js, trace, procs)
	if err != nil {
		t.Fatal(err)
	}
	sm := events.NewSampler(procs, 5, 40)
	col := events.NewCollector(procs, js,
		NewParaver(&s.prv, &s.pcf, &s.row, ParaverOptions{Title: trace, Procs: procs, TempDir: t.TempDir(), RunRecords: runRecords}))
	s.run, err = sim.Predict(r.Header(), r, m, cfg, sim.Options{TraceFile: trace, Recorder: events.Tee{col, sm}})
	if err != nil {
		t.Fatal(err)
	}
	if s.stats, err = col.Close(); err != nil {
		t.Fatal(err)
	}
	s.sample = sm.Sample()
	return s
}

var cases = []struct {
	trace   string
	grid    []int
	network string
}{
	{"jac.ptr", []int{2, 2}, "cluster"}, // shadow exchanges and reductions
	{"jacas.ptr", []int{4}, "cluster"},  // asynchronous shadow exchange
	{"sor.ptr", []int{2, 2}, "cluster"}, // ACROSS loops
	{"adi.ptr", []int{2, 2}, "bus"},     // remote access, formula network
	{"tasks.ptr", []int{4}, "cluster"},  // task parallelism: sub-VMs
	{"jac_e4.ptr", []int{3, 2}, "mesh"}, // nested intervals
}

// TestFormats checks every format of every case strictly.
func TestFormats(t *testing.T) {
	for _, c := range cases {
		for _, runRecords := range []int{0, 97} {
			t.Run(fmt.Sprintf("%s/%s/%s/run%d", c.trace, result.GridString(c.grid), c.network, runRecords), func(t *testing.T) {
				s := simulate(t, c.trace, c.grid, c.network, runRecords)
				t.Logf("stats %+v", s.stats)
				if s.stats.Spans == 0 {
					t.Fatal("no spans")
				}
				busy := checkParaver(t, s)
				checkPerfetto(t, s)
				checkBusy(t, s, busy)
				checkSample(t, s)
			})
		}
	}
}

// checkBusy compares the time every processor spends in some state with
// its Execution_time in Main: they are the same charges, rounded to
// nanoseconds at both ends of every span.
func checkBusy(t *testing.T, s *simulated, busy []int64) {
	t.Helper()
	for p, pv := range s.run.Intervals[0].Procs {
		want := pv.Values[result.ExecutionTime] * 1e9
		if got := float64(busy[p]); math.Abs(got-want) > 1+1e-9*want {
			t.Errorf("processor %d: %v ns in states, Execution_time %v ns", p, got, want)
		}
	}
}

var (
	prvHeader = regexp.MustCompile(`^#Paraver \(\d\d/\d\d/\d\d at \d\d:\d\d\):(\d+)_ns:1\((\d+)\):1:(\d+)\(((?:1:1,)*1:1)\)$`)
	prvState  = regexp.MustCompile(`^1:(\d+):1:(\d+):1:(\d+):(\d+):([1-6])$`)
	prvComm   = regexp.MustCompile(`^3:(\d+):1:(\d+):1:(\d+):(\d+):(\d+):1:(\d+):1:(\d+):(\d+):(\d+):([1-5])$`)
)

// checkParaver parses the .prv strictly: the header, then records in
// time order, states of a thread never overlapping, messages from send to
// arrival between distinct processors; and the .pcf names every state.
// It returns the time of every processor in states.
func checkParaver(t *testing.T, s *simulated) []int64 {
	t.Helper()
	procs := s.run.Config.Procs()
	sc := bufio.NewScanner(bytes.NewReader(s.prv.Bytes()))
	sc.Buffer(nil, 1<<24)
	sc.Scan()
	h := prvHeader.FindStringSubmatch(sc.Text())
	if h == nil || atoi(h[2]) != procs || atoi(h[3]) != procs || strings.Count(h[4], "1:1") != procs {
		t.Fatalf("prv header %q: expected #Paraver (date):END_ns:1(%d):1:%d(1:1,...)", sc.Text(), procs, procs)
	}
	end := int64(atoi(h[1]))
	busy, last := make([]int64, procs), make([]int64, procs)
	var prev int64
	line, comms := 1, 0
	for sc.Scan() {
		line++
		text := sc.Text()
		var at int64
		if m := prvState.FindStringSubmatch(text); m != nil {
			cpu, task, b, e := atoi(m[1]), atoi(m[2]), int64(atoi(m[3])), int64(atoi(m[4]))
			p := task - 1
			if cpu != task || p >= procs || e <= b || b < last[p] || e > end {
				t.Fatalf("prv line %d: %q: bad state record", line, text)
			}
			busy[p] += e - b
			last[p], at = e, b
		} else if m := prvComm.FindStringSubmatch(text); m != nil {
			from, to := atoi(m[2])-1, atoi(m[6])-1
			ls, ps, lr, pr := atoi(m[3]), atoi(m[4]), atoi(m[7]), atoi(m[8])
			if from == to || from >= procs || to >= procs || ls != ps || lr != pr || lr < ls || int64(lr) > end || atoi(m[9]) <= 0 {
				t.Fatalf("prv line %d: %q: bad communication record", line, text)
			}
			comms++
			at = int64(ls)
		} else {
			t.Fatalf("prv line %d: %q: expected a state (1:...) or communication (3:...) record", line, text)
		}
		if at < prev {
			t.Fatalf("prv line %d: time %d before the previous record's %d", line, at, prev)
		}
		prev = at
	}
	if int64(comms) != s.stats.Messages {
		t.Errorf("prv: %d communications, %d messages recorded", comms, s.stats.Messages)
	}
	for _, st := range States() {
		if !strings.Contains(s.pcf.String(), fmt.Sprintf("%-4d %s\n", st, st)) {
			t.Errorf("pcf does not name state %d %s", st, st)
		}
	}
	if n := strings.Count(s.row.String(), "processor "); n != 2*procs {
		t.Errorf("row names %d threads and tasks, want %d", n, 2*procs)
	}
	return busy
}

// event is every field a Presage trace event may have; decoding rejects
// any other.
type event struct {
	Ph   string          `json:"ph"`
	Name string          `json:"name"`
	Cat  string          `json:"cat"`
	Pid  *int            `json:"pid"`
	Tid  *int            `json:"tid"`
	Ts   *float64        `json:"ts"`
	Dur  *float64        `json:"dur"`
	ID   *int64          `json:"id"`
	Bp   string          `json:"bp"`
	Args json.RawMessage `json:"args"`
}

// checkPerfetto decodes the JSON strictly and checks every event against
// the trace-event format: "M" names the process and every thread, "X"
// spans of a thread in one of the states never overlap, every flow start
// "s" has one end "f" (bp "e") with its id, name and category, no
// earlier.
func checkPerfetto(t *testing.T, s *simulated) {
	t.Helper()
	var doc struct {
		DisplayTimeUnit string            `json:"displayTimeUnit"`
		OtherData       map[string]string `json:"otherData"`
		TraceEvents     []json.RawMessage `json:"traceEvents"`
	}
	dec := json.NewDecoder(bytes.NewReader(s.js.Bytes()))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&doc); err != nil {
		t.Fatalf("perfetto: %v", err)
	}
	if doc.DisplayTimeUnit != "ns" || doc.OtherData["generator"] != "Presage" {
		t.Errorf("perfetto: displayTimeUnit %q, otherData %v", doc.DisplayTimeUnit, doc.OtherData)
	}
	procs := s.run.Config.Procs()
	names := map[string]bool{}
	for _, st := range States() {
		names[st.String()] = true
	}
	threadNames, last := map[int]bool{}, map[int]float64{}
	flows := map[int64]event{}
	var spans, ends int64
	for i, raw := range doc.TraceEvents {
		var e event
		d := json.NewDecoder(bytes.NewReader(raw))
		d.DisallowUnknownFields()
		if err := d.Decode(&e); err != nil {
			t.Fatalf("event %d %s: %v", i, raw, err)
		}
		bad := func(why string) { t.Fatalf("event %d %s: %s", i, raw, why) }
		if e.Pid == nil || *e.Pid != 1 || e.Tid == nil || *e.Tid < 0 || *e.Tid >= procs {
			bad("expected pid 1 and a tid of a processor")
		}
		switch e.Ph {
		case "M":
			if e.Ts != nil || e.Args == nil {
				bad("metadata needs args and no ts")
			}
			if e.Name == "thread_name" {
				threadNames[*e.Tid] = true
			}
		case "X":
			if e.Cat != "state" || !names[e.Name] || e.Ts == nil || e.Dur == nil || *e.Dur <= 0 || *e.Ts < last[*e.Tid]-5e-4 {
				bad("expected a state span after the thread's last one")
			}
			last[*e.Tid] = *e.Ts + *e.Dur
			spans++
		case "s":
			if e.ID == nil || e.Cat != "message" || e.Ts == nil || e.Args == nil {
				bad("expected a flow start with id, ts and args")
			}
			flows[*e.ID] = e
		case "f":
			st, ok := flows[*e.ID]
			if !ok || e.Bp != "e" || e.Name != st.Name || e.Cat != st.Cat || *e.Ts < *st.Ts {
				bad("expected the end of an earlier flow start, bound to the enclosing slice")
			}
			delete(flows, *e.ID)
			ends++
		default:
			bad("unexpected phase")
		}
	}
	if len(threadNames) != procs || spans != s.stats.Spans || ends != s.stats.Messages || len(flows) != 0 {
		t.Errorf("perfetto: %d thread names (want %d), %d spans (want %d), %d flows (want %d), %d unfinished",
			len(threadNames), procs, spans, s.stats.Spans, ends, s.stats.Messages, len(flows))
	}
}

// checkSample checks the sample's shape: the first and last processor
// among its rows, columns that cover the run, and a state in every column
// of a processor that is busy from start to end (the model's clocks have
// no gaps). The sampler's arithmetic is tested in sim/events.
func checkSample(t *testing.T, s *simulated) {
	t.Helper()
	sm := s.sample
	if len(sm.Procs) != min(5, s.run.Config.Procs()) || len(sm.States) != len(sm.Procs) {
		t.Fatalf("sample of %d rows for %d processors", len(sm.Procs), s.run.Config.Procs())
	}
	if sm.Procs[0] != 0 || sm.Procs[len(sm.Procs)-1] != sm.Total-1 {
		t.Errorf("sample rows %v: expected the first and the last processor", sm.Procs)
	}
	for r, row := range sm.States {
		if len(row) > 40 || int64(len(row))*sm.Bucket < sm.End {
			t.Fatalf("row %d: %d columns of %d ns do not cover %d ns", r, len(row), sm.Bucket, sm.End)
		}
		busy := s.run.Intervals[0].Procs[sm.Procs[r]].Values[result.ExecutionTime] * 1e9
		for c, st := range row {
			if float64(int64(c+1)*sm.Bucket) <= busy && (st == 0 || st >= events.NumStates) {
				t.Errorf("row %d column %d: state %d within the processor's %v ns of work", r, c, st, busy)
			}
		}
	}
}

func atoi(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		panic(err)
	}
	return n
}

// TestMicros checks the microsecond formatting of nanoseconds.
func TestMicros(t *testing.T) {
	for _, c := range []struct {
		ns   int64
		want string
	}{{0, "0.000"}, {1, "0.001"}, {999, "0.999"}, {1000, "1.000"}, {2035278798, "2035278.798"}, {-1500, "-1.500"}} {
		if got := string(micros(nil, c.ns)); got != c.want {
			t.Errorf("micros(%d) = %s, want %s", c.ns, got, c.want)
		}
	}
}
