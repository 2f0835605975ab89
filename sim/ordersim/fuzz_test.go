package ordersim

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/presage-dvm/presage/orders/ordersched"
	"github.com/presage-dvm/presage/sim/ordertrace"
	"github.com/presage-dvm/presage/sim/workspan"
)

// byteSource feeds a random generator from the fuzzer's bytes, so that
// the fuzzer steers every choice of randomTrace; after them, a fixed
// generator (zeros forever would make rand's rejection sampling loop).
type byteSource struct {
	data []byte
	rest rand.PCG
}

func newByteSource(data []byte) *byteSource {
	return &byteSource{data: data, rest: *rand.NewPCG(uint64(len(data)), 1)}
}

func (s *byteSource) Uint64() uint64 {
	if len(s.data) == 0 {
		return s.rest.Uint64()
	}
	var b [8]byte
	n := copy(b[:], s.data)
	s.data = s.data[n:]
	return binary.LittleEndian.Uint64(b[:]) ^ s.rest.Uint64()
}

// FuzzSimulate simulates random traces drawn from the fuzzer's bytes on
// small clusters and checks the laws every schedule obeys: the accounts
// of every node add up (with the runtime's costs on the cluster too), the
// makespan is at least the span and the work over the nodes, and one node
// takes exactly the work.
func FuzzSimulate(f *testing.F) {
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9}, uint8(2), uint8(0), false)
	f.Add(bytes.Repeat([]byte{0xa5, 0x3c, 0x0f}, 40), uint8(3), uint8(3), true)
	f.Fuzz(func(t *testing.T, data []byte, nodes, sched uint8, migrate bool) {
		rng := rand.New(newByteSource(data))
		tr := randomTrace(rng, 1+len(data)%40)
		ws, err := workspan.Analyze(tr.source(), workspan.Network{})
		if err != nil {
			t.Fatal(err)
		}
		cl := Cluster{Nodes: 1 + int(nodes%6), Cores: 1 + int(sched/64)%2}
		opt := Options{Scheduler: ordersched.All[int(sched)%len(ordersched.All)], Pin: !migrate, Seed: uint64(len(data))}
		r := simulate(t, tr, cl, opt)
		checkAccounts(t, r, cl)
		cores := float64(cl.Nodes * cl.cores())
		if r.Makespan < ws.Span*(1-1e-9) || r.Makespan < ws.Work/cores*(1-1e-9) {
			t.Errorf("makespan %v below the span %v or the work %v over %v cores", r.Makespan, ws.Span, ws.Work, cores)
		}
		one := simulate(t, tr, Cluster{Nodes: 1}, opt)
		if !near(one.Makespan, ws.Work) {
			t.Errorf("one node: makespan %v, work %v", one.Makespan, ws.Work)
		}
		// The runtime's own costs on the cores orders leave: the
		// accounts still add up, and the run still ends.
		costly := cl
		costly.OrderCost, costly.WaitCost = 0.1*float64(nodes%3), 0.1*float64(sched%3)
		checkAccounts(t, simulate(t, tr, costly, opt), costly)
		// Through a hub, with orders started ahead on busy cores
		// (their number growing on some) and taken back by free ones:
		// the accounts add up, the run ends no sooner than the span.
		ahead := costly
		ahead.Hub, ahead.Latency, ahead.Ahead = true, 0.05, 1+int(nodes/6)%3
		if sched%2 == 1 {
			ahead.AheadMax = ahead.Ahead + 3
		}
		r = simulate(t, tr, ahead, opt)
		checkAccounts(t, r, ahead)
		if r.Makespan < ws.Span*(1-1e-9) {
			t.Errorf("through a hub, %d ahead: makespan %v below the span %v", ahead.Ahead, r.Makespan, ws.Span)
		}
	})
}

// FuzzSimulateText plays any trace the reader accepts: the simulation must
// end, with a deadlock error exactly when workspan finds one.
func FuzzSimulateText(f *testing.F) {
	f.Add(`{"id":1,"parent":0,"proc":"m","made_at":0,"arg_bytes":0,"duration":3,"requests":[{"order":2,"at":2}],"results":[{"at":3,"bytes":8}]}
{"id":2,"parent":1,"proc":"w","made_at":1,"arg_bytes":50,"duration":4,"results":[{"at":4,"bytes":100}]}
`)
	f.Add(`{"id":1,"parent":0,"proc":"m","made_at":0,"arg_bytes":0,"duration":3,"requests":[{"order":2,"at":1}],"results":[{"at":3,"bytes":8}]}
{"id":2,"parent":1,"proc":"w","made_at":0,"arg_bytes":0,"duration":1,"requests":[{"order":1,"at":0}],"results":[{"at":1,"bytes":0}]}
`)
	f.Fuzz(func(t *testing.T, body string) {
		text := `{"format":"presage-orders","version":1,"program":"f","unit":"s"}` + "\n" + body
		orders, err := readAll(text)
		if err != nil || len(orders) > 200 {
			return
		}
		deadlock := workspan.Check(orders.source()) != nil
		_, err = Simulate(orders.open, Cluster{Nodes: 2, Latency: 0.5}, Options{Pin: true})
		if deadlock != (err != nil) {
			t.Fatalf("workspan deadlock %v, simulation error %v", deadlock, err)
		}
		if err != nil && !strings.Contains(err.Error(), "deadlock") {
			t.Fatalf("error %v, want a deadlock", err)
		}
	})
}

func readAll(text string) (orders, error) {
	r, err := ordertrace.NewReader(strings.NewReader(text), "fuzz")
	if err != nil {
		return nil, err
	}
	var out orders
	for {
		o, err := r.Next()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		out = append(out, o)
	}
}
