package main

import (
	"compress/gzip"
	"fmt"
	"io"
	"strings"

	"github.com/presage-dvm/presage/ingest/ordergen"
	"github.com/presage-dvm/presage/ingest/tracegen"
)

type genCmd struct {
	Trace  genTraceCmd  `cmd:"" help:"Write a synthetic Lib-DVM trace (.ptr, or .ptr.gz compressed)."`
	Orders genOrdersCmd `cmd:"" help:"Write a synthetic order trace (.jsonl, or .jsonl.gz compressed)."`
}

type genTraceCmd struct {
	Out        string `arg:"" help:"Output file; a name ending in .gz is gzip-compressed." type:"path"`
	Program    string `help:"Program to imitate." enum:"jacobi,gauss" default:"jacobi"`
	N          int    `help:"Array size (N x N)." default:"64"`
	Iterations int    `help:"Iterations of the main loop." default:"10"`
	Calls      int    `help:"Approximate number of calls; overrides --iterations when set."`
	Intervals  bool   `help:"Trace program intervals (bsloop_/bploop_/enloop_), as compiled with -e4."`
	Seed       int64  `help:"Seed of the generated times." default:"1"`
}

func (c *genTraceCmd) Run(g *Globals) error {
	n, err := tracegen.WriteFile(c.Out, tracegen.Options{
		Program: tracegen.Program(c.Program), N: c.N, Iterations: c.Iterations,
		Calls: c.Calls, Intervals: c.Intervals, Seed: c.Seed,
	})
	if err != nil {
		return err
	}
	g.infof("wrote %s: %d calls", c.Out, n)
	return nil
}

type genOrdersCmd struct {
	Out     string  `arg:"" help:"Output file; a name ending in .gz is gzip-compressed." type:"path"`
	Shape   string  `help:"Program shape: dac (divide and conquer), pipeline, master (master-worker)." enum:"dac,pipeline,master" default:"dac"`
	Orders  int64   `help:"Approximate number of orders (sets the depth, items or rounds)." default:"1000"`
	Leaf    float64 `help:"Seconds of a leaf's, a stage's or a task's work." default:"0.001"`
	Combine float64 `help:"Seconds of work after the waits (inner orders, main, the master)." default:"0.0001"`
	Jitter  float64 `help:"Relative spread of the costs, in [0, 1)." default:"0.2"`
	Bytes   int64   `help:"Bytes of every order's arguments and of every result." default:"1024"`
	Seed    uint64  `help:"Seed of the costs." default:"1"`
}

func (c *genOrdersCmd) Run(g *Globals) error {
	opt, err := c.options()
	if err != nil {
		return err
	}
	if err := writeCompressed(c.Out, func(w io.Writer) error { return ordergen.Generate(w, opt) }); err != nil {
		return err
	}
	g.infof("wrote %s: %d orders (%s)", c.Out, opt.Count(), opt.Shape)
	return nil
}

// options sizes the shape for about c.Orders orders.
func (c *genOrdersCmd) options() (ordergen.Options, error) {
	if c.Orders < 1 || c.Orders > ordergen.MaxOrders {
		return ordergen.Options{}, fmt.Errorf("--orders %d: expected 1 to %d", c.Orders, ordergen.MaxOrders)
	}
	opt := ordergen.Options{Leaf: c.Leaf, Combine: c.Combine, Jitter: c.Jitter, Seed: c.Seed,
		ArgBytes: c.Bytes, ResultBytes: c.Bytes}
	switch c.Shape {
	case "dac":
		opt.Shape, opt.Split = ordergen.DivideAndConquer, c.Combine
		for opt.Depth = 0; int64(2)<<(opt.Depth+1)-1 <= c.Orders; opt.Depth++ {
		}
	case "pipeline":
		opt.Shape, opt.Stages, opt.Feed = ordergen.Pipeline, 4, c.Combine
		opt.Items = int(max(1, (c.Orders-1)/int64(opt.Stages)))
	case "master":
		opt.Shape, opt.Workers, opt.Feed = ordergen.MasterWorker, 64, c.Combine
		opt.Rounds = int(max(1, (c.Orders-1)/int64(opt.Workers)))
	}
	return opt, nil
}

// writeCompressed writes path atomically (writeFileAtomic), through gzip
// at its fastest level when the name ends in .gz.
func writeCompressed(path string, write func(io.Writer) error) error {
	return writeFileAtomic(path, func(w io.Writer) error {
		if !strings.HasSuffix(path, ".gz") {
			return write(w)
		}
		zw, err := gzip.NewWriterLevel(w, gzip.BestSpeed)
		if err != nil {
			return err
		}
		if err := write(zw); err != nil {
			return err
		}
		return zw.Close()
	})
}
