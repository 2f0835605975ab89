package ordertrace_test

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/presage-dvm/presage/sim/ordertrace"
)

func ExampleReader() {
	const trace = `{"format":"presage-orders","version":1,"program":"demo","unit":"s"}
{"id":1,"parent":0,"proc":"main","made_at":0,"arg_bytes":0,"duration":2,"requests":[{"order":2,"at":1}],"results":[{"at":2,"bytes":8}]}
{"id":2,"parent":1,"proc":"work","made_at":0,"arg_bytes":64,"duration":3,"results":[{"at":3,"bytes":8}]}
`
	r, err := ordertrace.NewReader(strings.NewReader(trace), "demo.jsonl")
	if err != nil {
		fmt.Println(err)
		return
	}
	for {
		o, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("order %d (%s): %g s, %d requests\n", o.ID, o.Proc, o.Duration, len(o.Requests))
	}
	// Output:
	// order 1 (main): 2 s, 1 requests
	// order 2 (work): 3 s, 0 requests
}

func ExampleReader_error() {
	const trace = `{"format":"presage-orders","version":1,"unit":"s"}
{"id":1,"parent":0,"proc":"main","made_at":0,"arg_bytes":0,"duration":2,"requests":[{"order":2,"result":1,"at":1}],"results":[{"at":2,"bytes":8}]}
{"id":2,"parent":1,"proc":"work","made_at":0,"arg_bytes":64,"duration":3,"results":[{"at":3,"bytes":8}]}
`
	r, _ := ordertrace.NewReader(strings.NewReader(trace), "demo.jsonl")
	for {
		if _, err := r.Next(); err != nil {
			fmt.Println(err)
			return
		}
	}
	// Output:
	// demo.jsonl:2: order 1: requests result 1 of order 2, which provides 1 (a request for a result never provided)
}

func ExampleWriter() {
	w, err := ordertrace.NewWriter(os.Stdout, ordertrace.Header{Program: "demo", Orders: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	w.Write(&ordertrace.Order{ID: 1, Proc: "main", Duration: 1.5,
		Segments: []ordertrace.Segment{{Start: 0, Dur: 1.5, Block: "matmul"}},
		Results:  []ordertrace.Result{{At: 1.5, Bytes: 8}}})
	if err := w.Close(); err != nil {
		fmt.Println(err)
	}
	// Output:
	// {"format":"presage-orders","version":2,"program":"demo","unit":"s","orders":1}
	// {"id":1,"parent":0,"proc":"main","made_at":0,"arg_bytes":0,"duration":1.5,"segments":[{"start":0,"dur":1.5,"block":"matmul"}],"results":[{"at":1.5,"bytes":8}]}
}
