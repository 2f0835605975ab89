package ordersim_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/presage-dvm/presage/sim/ordersim"
	"github.com/presage-dvm/presage/sim/ordertrace"
	"github.com/presage-dvm/presage/sim/sweep"
)

// A main order works 3 s, making at 1 s an order of 4 s (arguments 50
// bytes, result 100) and requesting its result at 2 s.
const forkJoin = `{"format":"presage-orders","version":1,"program":"fork-join","unit":"s"}
{"id":1,"parent":0,"proc":"main","made_at":0,"arg_bytes":0,"duration":3,"requests":[{"order":2,"at":2}],"results":[{"at":3,"bytes":8}]}
{"id":2,"parent":1,"proc":"work","made_at":1,"arg_bytes":50,"duration":4,"results":[{"at":4,"bytes":100}]}
`

func open() (ordertrace.Source, error) {
	return ordertrace.NewReader(strings.NewReader(forkJoin), "fork-join.jsonl")
}

func ExampleSimulate() {
	// On two nodes, the arguments take 0.5 + 50/100 s, the result
	// 0.5 + 100/100 s: main waits from 2 to 7.5 s.
	cl := ordersim.Cluster{Nodes: 2, Latency: 0.5, Bandwidth: 100}
	r, err := ordersim.Simulate(open, cl, ordersim.Options{Pin: true, Scheduler: ordersim.FIFO})
	if err != nil {
		panic(err)
	}
	fmt.Println("makespan", r.Makespan)
	for _, s := range r.CriticalPath {
		fmt.Printf("%-8s order %d on node %d: %v–%v\n", s.Kind, s.Order, s.Node, s.Start, s.End)
	}
	// Output:
	// makespan 8.5
	// run      order 1 on node 0: 0–1
	// transfer order 2 on node 1: 1–2
	// run      order 2 on node 1: 2–6
	// transfer order 1 on node 0: 6–7.5
	// run      order 1 on node 0: 7.5–8.5
}

// The smallest cluster meeting a deadline: sweep.SmallestFor bisects over
// the sizes that Sizes predicts.
func ExampleSizes() {
	tr, err := ordersim.Prepare(open)
	if err != nil {
		panic(err)
	}
	sizes, err := tr.Sizes(ordersim.Cluster{}, ordersim.Options{Pin: true})
	if err != nil {
		panic(err)
	}
	makespan := func(n int) (float64, error) {
		p, err := sizes.At(context.Background(), n)
		if err != nil {
			return 0, err
		}
		return p.Result.Makespan, nil
	}
	// Without latency, one node takes the work (7 s), two the span (6 s).
	for _, deadline := range []float64{8, 7, 6, 5} {
		s, err := sweep.SmallestFor(1, 16, deadline, makespan)
		if err != nil {
			panic(err)
		}
		fmt.Printf("deadline %v: %d nodes (probed %v)\n", deadline, s.Size, s.Probes)
	}
	// Output:
	// deadline 8: 1 nodes (probed [16 1])
	// deadline 7: 1 nodes (probed [16 1])
	// deadline 6: 2 nodes (probed [16 1 8 4 2])
	// deadline 5: 0 nodes (probed [16 1])
}
