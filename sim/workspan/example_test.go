package workspan_test

import (
	"bytes"
	"fmt"

	"github.com/presage-dvm/presage/ingest/ordergen"
	"github.com/presage-dvm/presage/sim/ordertrace"
	"github.com/presage-dvm/presage/sim/workspan"
)

func ExampleAnalyze() {
	// A divide and conquer of depth 10: 2047 orders, leaves of 1 s,
	// combines of 0.5 s, 1 KB moved along every edge.
	var trace bytes.Buffer
	ordergen.Generate(&trace, ordergen.Options{Shape: ordergen.DivideAndConquer, Depth: 10,
		Leaf: 1, Combine: 0.5, ArgBytes: 1000, ResultBytes: 1000})
	r, err := ordertrace.NewReader(&trace, "dac.jsonl")
	if err != nil {
		fmt.Println(err)
		return
	}
	s, err := workspan.Analyze(r, workspan.Network{Latency: 1e-3, Bandwidth: 1e6})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d orders: work %.5g s, span %.4g s, burdened span %.4g s, parallelism %.1f\n",
		s.Orders, s.Work, s.Span, s.BurdenedSpan, s.Parallelism)
	for _, n := range []int{16, 256} {
		lo, hi := s.SpeedupRange(n)
		fmt.Printf("%d nodes: speedup %.1f to %.1f\n", n, lo, hi)
	}
	// Output:
	// 2047 orders: work 1535.5 s, span 6 s, burdened span 6.04 s, parallelism 255.9
	// 16 nodes: speedup 15.1 to 16.0
	// 256 nodes: speedup 127.6 to 255.9
}
