package ordergen

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/presage-dvm/presage/sim/ordertrace"
)

var shapes = []struct {
	name string
	opt  Options
}{
	{"dac", Options{Shape: DivideAndConquer, Depth: 6, Leaf: 2, Split: 0.5, Combine: 1, ArgBytes: 100, ResultBytes: 50}},
	{"dac depth 0", Options{Shape: DivideAndConquer, Leaf: 2}},
	{"dac free", Options{Shape: DivideAndConquer, Depth: 3}},
	{"pipeline", Options{Shape: Pipeline, Stages: 4, Items: 9, Leaf: 1, Feed: 0.25, Combine: 0.5, ArgBytes: 10, ResultBytes: 10}},
	{"pipeline slow feed", Options{Shape: Pipeline, Stages: 3, Items: 5, Leaf: 1, Feed: 2}},
	{"master", Options{Shape: MasterWorker, Workers: 8, Rounds: 3, Leaf: 3, Feed: 0.1, Combine: 1, ArgBytes: 1000, ResultBytes: 8}},
	{"bag of tasks", Options{Shape: MasterWorker, Workers: 20, Leaf: 1}},
	{"jittered dac", Options{Shape: DivideAndConquer, Depth: 5, Leaf: 2, Split: 0.5, Combine: 1, Jitter: 0.5, Seed: 7}},
	{"jittered pipeline", Options{Shape: Pipeline, Stages: 3, Items: 4, Leaf: 1, Feed: 0.5, Jitter: 0.3, Seed: 7}},
}

// read validates a generated trace with the Reader and returns its orders.
func read(t *testing.T, text []byte) (ordertrace.Header, []*ordertrace.Order) {
	t.Helper()
	r, err := ordertrace.NewReader(bytes.NewReader(text), "gen.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	orders, err := ordertrace.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return r.Header(), orders
}

func generate(t *testing.T, opt Options) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := Generate(&buf, opt); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestShapesValidateAndCount(t *testing.T) {
	for _, tt := range shapes {
		t.Run(tt.name, func(t *testing.T) {
			h, orders := read(t, generate(t, tt.opt))
			if n := int64(len(orders)); n != tt.opt.Count() || h.Orders != n {
				t.Errorf("%d orders, header says %d, Count %d", n, h.Orders, tt.opt.Count())
			}
			work := 0.0
			for _, o := range orders {
				work += o.Duration
			}
			if tt.opt.Jitter == 0 {
				e, err := Expect(tt.opt, 0, 0)
				if err != nil {
					t.Fatal(err)
				}
				if d := work - e.Work; d > 1e-9*e.Work || d < -1e-9*e.Work {
					t.Errorf("work %v, Expect says %v", work, e.Work)
				}
			}
		})
	}
}

func TestShapeStructure(t *testing.T) {
	_, dac := read(t, generate(t, Options{Shape: DivideAndConquer, Depth: 2, Leaf: 2, Split: 0.5, Combine: 1}))
	if o := dac[2]; o.Parent != 1 || o.MadeAt != 0.5 || len(o.Requests) != 2 || o.Requests[0].Order != 6 || o.Duration != 1.5 {
		t.Errorf("dac order 3: %+v", o)
	}
	if o := dac[6]; len(o.Requests) != 0 || o.Duration != 2 || o.Segments[0].Block != "leaf" {
		t.Errorf("dac leaf 7: %+v", o)
	}
	_, pipe := read(t, generate(t, Options{Shape: Pipeline, Stages: 3, Items: 2, Leaf: 1, Feed: 2}))
	// Stage 1 of item 1 is order 2+3+1 = 6: it waits for 3 (stage 1 of
	// item 0) and 5 (stage 0 of item 1), made after feeding item 1.
	if o := pipe[5]; o.MadeAt != 4 || len(o.Requests) != 2 || o.Requests[0].Order != 3 || o.Requests[1].Order != 5 {
		t.Errorf("pipeline order 6: %+v", o)
	}
	if m := pipe[0]; len(m.Requests) != 2 || m.Requests[1].Order != 7 || m.Requests[1].At != 4 {
		t.Errorf("pipeline main: %+v", m)
	}
	_, mw := read(t, generate(t, Options{Shape: MasterWorker, Workers: 2, Rounds: 2, Leaf: 1, Feed: 1}))
	if m := mw[0]; len(m.Requests) != 4 || m.Requests[1].At != 2 || m.Requests[2].At != 4 || m.Duration != 4 {
		t.Errorf("master: %+v", m)
	}
	if o := mw[3]; o.MadeAt != 3 {
		t.Errorf("task 4 made at %v, want 3", o.MadeAt)
	}
}

func TestSeeds(t *testing.T) {
	opt := Options{Shape: DivideAndConquer, Depth: 4, Leaf: 1, Split: 1, Combine: 1, Jitter: 0.5, Seed: 1}
	a, b := generate(t, opt), generate(t, opt)
	if !bytes.Equal(a, b) {
		t.Error("one seed gave two traces")
	}
	opt.Seed = 2
	if c := generate(t, opt); bytes.Equal(a, c) || len(strings.Split(string(a), "\n")) != len(strings.Split(string(c), "\n")) {
		t.Error("another seed should change the costs and only them")
	}
	_, orders := read(t, a)
	for _, o := range orders {
		if o.Duration < 0.5*1 || o.Duration > 1.5*2 {
			t.Errorf("order %d: duration %v outside the jitter's range", o.ID, o.Duration)
		}
	}
}

func TestOptionErrors(t *testing.T) {
	tests := []struct {
		opt  Options
		want string
	}{
		{Options{Shape: "ring"}, `ordergen: unknown shape "ring"`},
		{Options{Shape: DivideAndConquer, Depth: 30}, "ordergen: size of dac out of range"},
		{Options{Shape: Pipeline, Stages: 0, Items: 3}, "ordergen: size of pipeline out of range"},
		{Options{Shape: MasterWorker, Workers: 1 << 20, Rounds: 1 << 11}, "ordergen: size of master out of range"},
		{Options{Shape: MasterWorker, Workers: 1, Leaf: -1}, "ordergen: Leaf = -1: want a finite cost ≥ 0"},
		{Options{Shape: MasterWorker, Workers: 1, Jitter: 1}, "ordergen: Jitter = 1: want 0 ≤ Jitter < 1"},
		{Options{Shape: MasterWorker, Workers: 1, ArgBytes: -1}, "ordergen: ArgBytes = -1, ResultBytes = 0: want ≥ 0"},
	}
	for _, tt := range tests {
		err := Generate(io.Discard, tt.opt)
		if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("%+v: got %v, want %s…", tt.opt, err, tt.want)
		}
	}
	if _, err := Expect(Options{Shape: DivideAndConquer, Jitter: 0.1}, 0, 0); err == nil {
		t.Error("Expect of a jittered trace")
	}
}
