package ordergen_test

import (
	"fmt"
	"os"

	"github.com/presage-dvm/presage/ingest/ordergen"
)

func ExampleGenerate() {
	opt := ordergen.Options{Shape: ordergen.MasterWorker, Workers: 2, Leaf: 1.5, Feed: 0.5, ResultBytes: 8}
	if err := ordergen.Generate(os.Stdout, opt); err != nil {
		fmt.Println(err)
	}
	// Output:
	// {"format":"presage-orders","version":2,"program":"master","unit":"s","orders":3}
	// {"id":1,"parent":0,"proc":"master","made_at":0,"arg_bytes":0,"duration":1,"requests":[{"order":2,"at":1},{"order":3,"at":1}],"results":[{"at":1,"bytes":8}]}
	// {"id":2,"parent":1,"proc":"task","made_at":0.5,"arg_bytes":0,"duration":1.5,"segments":[{"start":0,"dur":1.5,"block":"task"}],"results":[{"at":1.5,"bytes":8}]}
	// {"id":3,"parent":1,"proc":"task","made_at":1,"arg_bytes":0,"duration":1.5,"segments":[{"start":0,"dur":1.5,"block":"task"}],"results":[{"at":1.5,"bytes":8}]}
}

func ExampleExpect() {
	opt := ordergen.Options{Shape: ordergen.DivideAndConquer, Depth: 10, Leaf: 1, Combine: 0.5}
	e, _ := ordergen.Expect(opt, 0.01, 0)
	fmt.Printf("%d orders, work %g, span %g, burdened span %g\n", e.Orders, e.Work, e.Span, e.BurdenedSpan)
	// Output: 2047 orders, work 1535.5, span 6, burdened span 6.2
}
